#!/bin/sh
# The CI action's install step: scanctl from the npm registry at INPUT_VERSION, or built from the
# action's own checkout when INPUT_VERSION is "source". Sets SCANCTL_CLI for the later steps.
set -eu
if [ "${INPUT_VERSION:-latest}" = "source" ]; then
  cd "$GITHUB_ACTION_PATH"
  npm ci --ignore-scripts --no-audit --no-fund
  npm run build
  echo "SCANCTL_CLI=node $GITHUB_ACTION_PATH/bin/scanctl.js" >> "$GITHUB_ENV"
else
  npm install --global --no-audit --no-fund "scanctl@${INPUT_VERSION:-latest}"
  echo "SCANCTL_CLI=scanctl" >> "$GITHUB_ENV"
fi

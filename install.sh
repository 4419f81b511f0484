#!/bin/sh
# Installs scanctl's single executable (docs/executable.md): no Node, npm or compiler needed.
#   curl -fsSL https://github.com/OWNER/scanctl/releases/latest/download/install.sh | sh
# Variables:
#   SCANCTL_VERSION      the release to install (0.1.0), default the latest
#   SCANCTL_INSTALL_URL  the folder holding the release's archives and SHA256SUMS
#                        (default: the GitHub release of SCANCTL_VERSION)
#   SCANCTL_INSTALL_DIR  where `scanctl` goes (default ~/.local/bin)
# It checks the archive against SHA256SUMS before anything is installed; any failure is one line on
# stderr, a non-zero exit, and nothing left behind. POSIX sh: dash, busybox ash, bash.
set -eu

# The repository whose releases this script installs from; the release workflow writes its own here.
SCANCTL_REPOSITORY=OWNER/scanctl

fail() {
  printf 'install.sh: %s\n' "$1" >&2
  exit 1
}

os=$(uname -s)
machine=$(uname -m)
case "$os" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) fail "no scanctl executable for $os (there are: linux, darwin; Windows: download the .zip from the release)" ;;
esac
case "$machine" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) fail "no scanctl executable for $os on $machine (there are: x64, arm64)" ;;
esac
if [ "$os" = linux ] && [ -e /lib/ld-musl-x86_64.so.1 -o -e /lib/ld-musl-aarch64.so.1 ] && ! [ -e /lib64/ld-linux-x86-64.so.2 -o -e /lib/ld-linux-aarch64.so.1 ]; then
  fail "this Linux has musl, not glibc (Alpine?): the executable needs glibc; use the npm package (npm install scanctl) or the container image"
fi

version=${SCANCTL_VERSION:-latest}
if [ -n "${SCANCTL_INSTALL_URL:-}" ]; then
  base=${SCANCTL_INSTALL_URL%/}
else
  case "$SCANCTL_REPOSITORY" in
    OWNER/*) fail "this copy of install.sh names no repository: use the install.sh of a release, or set SCANCTL_INSTALL_URL" ;;
  esac
  if [ "$version" = latest ]; then
    base="https://github.com/$SCANCTL_REPOSITORY/releases/latest/download"
  else
    base="https://github.com/$SCANCTL_REPOSITORY/releases/download/v${version#v}"
  fi
fi
dir=${SCANCTL_INSTALL_DIR:-$HOME/.local/bin}

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL --proto '=http,https' -o "$2" "$1" 2>/dev/null; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1" 2>/dev/null; }
else
  fail "needs curl or wget to download"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  fail "needs sha256sum or shasum to check the download"
fi

work=$(mktemp -d 2>/dev/null || mktemp -d -t scanctl)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The version's archive is named in SHA256SUMS, which also says which version "latest" is.
fetch "$base/SHA256SUMS" "$work/SHA256SUMS" || fail "cannot download $base/SHA256SUMS (is SCANCTL_VERSION=$version a release?)"
# A line of SHA256SUMS: 64 hex digits, two spaces, the file name (sha256sum's format).
if [ "$version" = latest ]; then
  archive=$(awk -v suffix="-$os-$arch.tar.gz" 'length($1) == 64 && index($2, "scanctl-") == 1 && substr($2, length($2) - length(suffix) + 1) == suffix { print $2; exit }' "$work/SHA256SUMS")
else
  archive="scanctl-${version#v}-$os-$arch.tar.gz"
fi
expected=$(awk -v name="$archive" 'length($1) == 64 && $2 == name { print $1; exit }' "$work/SHA256SUMS")
[ -n "$archive" ] && [ -n "$expected" ] || fail "$base/SHA256SUMS names no archive for $os-$arch${SCANCTL_VERSION:+ at version $SCANCTL_VERSION}"
fetch "$base/$archive" "$work/$archive" || fail "cannot download $base/$archive"
actual=$(sha256 "$work/$archive")
[ "$actual" = "$expected" ] || fail "$archive does not match SHA256SUMS (expected $expected, got $actual): nothing installed"

mkdir -p "$work/unpacked"
tar -xzf "$work/$archive" -C "$work/unpacked" scanctl 2>/dev/null || fail "$archive holds no scanctl"
mkdir -p "$dir" 2>/dev/null || fail "cannot create $dir: set SCANCTL_INSTALL_DIR to a folder you can write"
[ -w "$dir" ] || fail "cannot write to $dir: set SCANCTL_INSTALL_DIR to a folder you can write"
# Into the folder under a temporary name, then renamed: a scanctl running from there meanwhile is not cut short.
cp "$work/unpacked/scanctl" "$dir/.scanctl.$$" 2>/dev/null || { rm -f "$dir/.scanctl.$$"; fail "cannot write to $dir"; }
chmod 755 "$dir/.scanctl.$$"
# It must run here before it replaces anything (a glibc too old, another architecture).
if ! installed=$("$dir/.scanctl.$$" --version 2>&1); then
  rm -f "$dir/.scanctl.$$"
  fail "the downloaded scanctl does not run here, nothing installed: $(printf '%s' "$installed" | head -n 1)"
fi
mv -f "$dir/.scanctl.$$" "$dir/scanctl" || { rm -f "$dir/.scanctl.$$"; fail "cannot write $dir/scanctl"; }
printf 'installed %s: scanctl %s\n' "$dir/scanctl" "$installed"
case ":$PATH:" in
  *":$dir:"*) ;;
  *) printf '%s is not on your PATH: add it, e.g. in ~/.profile:\n  export PATH="%s:$PATH"\n' "$dir" "$dir" ;;
esac

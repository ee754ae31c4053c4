#!/usr/bin/env bash
# Installs the Debian packages tilec needs to build and test, only those that are missing, so a
# second run costs a few dpkg queries. Needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(cmake ninja-build g++ antlr4 libantlr4-runtime-dev uuid-dev llvm-19-dev libzstd-dev
          libedit-dev libgtest-dev libgmock-dev lld ccache python3-numpy libdlpack-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "bootstrap: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

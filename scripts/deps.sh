#!/usr/bin/env bash
# Makes sure the Debian packages the build and tests need are present:
# installs them when run as root, else prints the exact command and fails.
set -euo pipefail

packages=(cmake make gcc g++ clang pkg-config libjansson-dev libcmocka-dev libcairo2-dev libclang-rt-14-dev libassimp-dev
          python3 python3-dev python3-numpy python3-pytest python3-venv python3-pip python3-setuptools python3-wheel
          dpkg-dev file)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "deps: missing Debian packages; install them with:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi

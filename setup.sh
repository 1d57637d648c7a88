#!/usr/bin/env bash
# setup.sh -- install sqlsim's Debian packages (if missing) and build it into ./build.
# Usage: ./setup.sh            (as root, or with sudo available)
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(build-essential cmake libpg-query-dev libprotobuf-c-dev libsqlite3-dev uthash-dev
          libcmocka-dev libcjson-dev sqlite3 chromium clang libclang-rt-14-dev)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "setup: built ./build/sqlsim"

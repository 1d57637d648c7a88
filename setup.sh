#!/usr/bin/env bash
# setup.sh -- install sqlsim's Debian packages (if missing) and build it into ./build.
# Usage: ./setup.sh            (as root, or with sudo available)
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(build-essential cmake libpg-query-dev libprotobuf-c-dev libsqlite3-dev uthash-dev
          libcmocka-dev libcjson-dev sqlite3 chromium clang libclang-rt-14-dev
          python3-dev python3-distributed)

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

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "setup: built ./build/sqlsim"

# The Python package: build/python made importable for this user (a .pth
# file in the user's site-packages, as an editable install would do), so
# `python3 -c "import sqlsim"` works from anywhere. `cmake --install build`
# installs it for good instead.
for py in /usr/bin/python3 $(command -v python3); do
  site=$("$py" -c 'import site; print(site.getusersitepackages())' 2>/dev/null) || continue
  mkdir -p "$site" && echo "$PWD/build/python" > "$site/sqlsim-build.pth"
done
echo "setup: python3 -c 'import sqlsim' reads ./build/python"

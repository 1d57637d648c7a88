#!/usr/bin/env bash
# setup.sh -- install sqlsim's Debian packages (if missing) and build it into ./build.
# Usage: ./setup.sh            (as root, or with sudo available)
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(build-essential cmake libpg-query-dev libprotobuf-c-dev libsqlite3-dev uthash-dev
          libcmocka-dev libcjson-dev libz3-dev sqlite3 chromium clang libclang-rt-14-dev
          python3-dev python3-distributed python3-pip python3-venv python3-setuptools python3-wheel
          pkgconf libpq-dev libmariadb-dev postgresql mariadb-server)

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

# DuckDB's C library, for duckdb:// URLs: Debian has no package of it; the
# npm registry ships libduckdb.so inside @duckdb/node-bindings-linux-x64.
# It goes to /usr/local/lib, where the dynamic linker (and so sqlsim, which
# loads it at the first duckdb:// URL) finds it; the tarball is checked
# against its published sha512 first. SQLSIM_DUCKDB=PATH points sqlsim at
# another libduckdb.so instead.
DUCKDB_NPM=@duckdb/node-bindings-linux-x64@1.5.6-r.1
DUCKDB_SHA512=IXcrZJE6kEqM0Z4wwdVnGBHX/frOS33VPNAwDXQ/Q+Fs84b058Qe94chrCCIcNJlG8Y3UHIUU4eBeCQxW5mN1Q==
if ! ldconfig -p | grep -q 'libduckdb\.so '; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  if ! command -v npm >/dev/null; then
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null
  fi
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack -q "$DUCKDB_NPM" >/dev/null && tar xzf ./*.tgz package/libduckdb.so)
  got=$(openssl dgst -sha512 -binary "$tmp"/*.tgz | base64 -w0)
  [ "$got" = "$DUCKDB_SHA512" ] || { echo "setup: $DUCKDB_NPM does not have its published sha512" >&2; rm -rf "$tmp"; exit 1; }
  $SUDO install -m 644 "$tmp/package/libduckdb.so" /usr/local/lib/libduckdb.so
  $SUDO ldconfig
  rm -rf "$tmp"
  echo "setup: installed DuckDB's libduckdb.so ($DUCKDB_NPM) in /usr/local/lib"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "setup: built ./build/sqlsim"

# The Python package: pip-installed (editable) into .venv, a virtual
# environment of this checkout that also sees Debian's packages (its build
# tools, distributed). Nothing is written outside the checkout: the per-user
# .pth earlier versions wrote (one per user, so the last clone set up won) is
# removed where it points into a build directory.
for py in /usr/bin/python3 $(command -v python3); do
  site=$("$py" -c 'import site; print(site.getusersitepackages())' 2>/dev/null) || continue
  if [ -f "$site/sqlsim-build.pth" ] && grep -q '/build/python$' "$site/sqlsim-build.pth"; then
    rm -f "$site/sqlsim-build.pth"
  fi
done
[ -x .venv/bin/python ] || /usr/bin/python3 -m venv --system-site-packages .venv
.venv/bin/python -m pip install -q --no-build-isolation --no-deps -e . >/dev/null
echo "setup: .venv/bin/python -c 'import sqlsim' (pip install -e . of this checkout)"

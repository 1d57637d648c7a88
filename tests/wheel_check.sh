#!/usr/bin/env bash
# wheel_check.sh -- the Python package as pip builds and installs it (issue 40):
# `pip wheel --no-build-isolation .` with Debian's build tools, then the wheel
# installed into a fresh venv that sees nothing of the system's packages; there
# `import sqlsim` works, reports the project's version (and
# importlib.metadata agrees), reads a model's answer and scores it on a
# database; the extension needs no library at run time but the C library's
# own and what the wheel carries (ldd). Exit 77 (skipped) without python3-venv
# or pip.
# usage: wheel_check.sh SOURCE_DIR CORPUS_DIR WORK_DIR
set -euo pipefail
src=$1 corpus=$2 work=$3
py=/usr/bin/python3
"$py" -m pip --version >/dev/null 2>&1 && "$py" -c "import venv, setuptools, wheel" 2>/dev/null ||
  { echo "pip, venv, setuptools or wheel missing for $py: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
# a copy of the sources, so that the build leaves nothing in the checkout
tar -C "$src" --exclude='./build*' --exclude=./.git --exclude=./.venv -cf - . | tar -C "$work" -xf - --one-top-level=src
"$py" -m pip wheel --no-build-isolation --no-deps -q "$work/src" -w "$work/dist" >"$work/build.log" 2>&1 ||
  { tail -20 "$work/build.log"; echo "FAIL: pip wheel"; exit 1; }
whl=$(ls "$work"/dist/sqlsim-*.whl)
echo "built $(basename "$whl") ($(du -k "$whl" | cut -f1) KB)"
"$py" -m venv "$work/venv"
"$work/venv/bin/pip" install -q --no-index "$whl"
want=$(sed -n 's/^project(sqlsim VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
cd "$work" # not the checkout: the import must come from the venv
"$work/venv/bin/python" - "$want" "$corpus" <<'PY'
import importlib.metadata, os, sys
import sqlsim, sqlsim.rl
want, corpus = sys.argv[1], sys.argv[2]
assert sqlsim.__file__.startswith(os.path.join(sys.prefix, "lib")), sqlsim.__file__
assert sqlsim.__version__ == want == importlib.metadata.version("sqlsim"), (sqlsim.__version__, want)
ev = sqlsim.rl.evaluator(db_dir=os.path.join(corpus, "database"), tables=os.path.join(corpus, "tables.json"))
r = ev.reward("SELECT count(*) FROM singer", "<think>count</think>\n```sql\nSELECT count(*) FROM singer\n```",
              "concert_singer")
assert r == 1.0, r
print("ok: imported from the venv, version", sqlsim.__version__, "- an answer scored", r)
PY
ext=$(ls "$work"/venv/lib/python3*/site-packages/sqlsim/_sqlsim*.so)
ldd "$ext" | tee "$work/ldd.txt"
# (libstdc++ and libgcc_s: z3's C++ runtime, on the manylinux list of libraries every system has)
if grep -v -E 'linux-vdso|ld-linux|libc\.so|libm\.so|libpthread\.so|libdl\.so|libstdc\+\+\.so|libgcc_s\.so|site-packages/sqlsim/' "$work/ldd.txt" | grep -q .; then
  echo "FAIL: the extension needs a library the wheel does not carry"
  exit 1
fi
echo "ok: the extension needs the C library's own and the libraries the wheel carries"

#!/usr/bin/env bash
# install_check.sh BUILD_DIR WORK_DIR -- `cmake --install` into a scratch
# prefix, then a program built only from what was installed (pkg-config,
# the shared library) scores a pair; and the installed Python package imports.
set -euo pipefail
build=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
for f in include/sqlsim.h lib/libsqlsim.a lib/libsqlsim.so lib/pkgconfig/sqlsim.pc bin/sqlsim; do
  [ -e "$work/prefix/$f" ] || { echo "install_check: $f was not installed"; exit 1; }
done
# The shared library exports the public API (sqlsim.h's SQLSIM_API names) and
# nothing else; the Python module its init alone.
if command -v nm >/dev/null; then
  other=$(nm -D --defined-only "$work/prefix/lib/libsqlsim.so" | awk '{print $3}' | grep -v '^sqlsim_' || true)
  [ -z "$other" ] || { echo "install_check: libsqlsim.so exports names outside the API: $(echo $other | head -c 300)"; exit 1; }
  for m in "$build"/python/sqlsim/_sqlsim*.so; do
    [ -e "$m" ] || continue
    other=$(nm -D --defined-only "$m" | awk '{print $3}' | grep -v '^PyInit__sqlsim$' || true)
    [ -z "$other" ] || { echo "install_check: the Python module exports more than its init: $(echo $other | head -c 300)"; exit 1; }
  done
fi
cat > "$work/prog.c" <<'C'
#include <sqlsim.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  sqlsim_config cfg = {.metrics = SQLSIM_M_BIS};
  sqlsim_evaluator *ev;
  sqlsim_error err = {0};
  if (sqlsim_evaluator_new(&cfg, &ev, &err)) { fprintf(stderr, "%s\n", err.message); return 1; }
  sqlsim_record r;
  sqlsim_evaluate(ev, "SELECT a, b FROM t", "SELECT b, a FROM t", NULL, &r, &err);
  char *js = sqlsim_record_to_json(&r);
  printf("%s\n", js);
  free(js);
  sqlsim_record_clear(&r);
  sqlsim_evaluator_free(ev);
  return 0;
}
C
cc -o "$work/prog" "$work/prog.c" $(pkg-config --cflags --libs sqlsim)
out=$(LD_LIBRARY_PATH="$work/prefix/lib" "$work/prog")
echo "$out" | grep -q '"score":1' || { echo "install_check: unexpected record: $out"; exit 1; }
# (ldd's output read whole first: grep -q leaving a pipe early fails the pipeline under pipefail)
libs=$(LD_LIBRARY_PATH="$work/prefix/lib" ldd "$work/prog")
case "$libs" in
  *"$work/prefix/lib/libsqlsim.so"*) ;;
  *) echo "install_check: the program is not linked to the installed libsqlsim.so: $libs"; exit 1 ;;
esac
if [ -d "$work/prefix/lib/python3/dist-packages/sqlsim" ]; then
  (cd "$work" && PYTHONPATH="$work/prefix/lib/python3/dist-packages" python3 -c \
    'import sqlsim, sys; assert sqlsim.__file__.startswith(sys.argv[1]), sqlsim.__file__; print(sqlsim.diff("SELECT 1", "SELECT 1")["score"])' "$work/prefix")
fi
echo "install_check: ok ($out)"

#!/usr/bin/env bash
# run.sh -- builds the libFuzzer targets with clang (AddressSanitizer and
# UndefinedBehaviorSanitizer) and runs each for a given time.
#
#   fuzz/run.sh [-t SECONDS | -n RUNS] [-j JOBS] [TARGET...]
#                         (targets: parse pgjson pgnodes diff spider readers exec sqlfuncs stream synth extract server audit duckdb spider2; default all)
#
# -n RUNS runs each target for that many inputs with a fixed seed, so a run
# is repeatable (CI uses it); -t runs each for a time with a random seed.
# -j JOBS runs that many targets at a time (each is one process); their
# summaries are printed in target order.
#
# Each target starts from fuzz/seeds/<target>, fuzz/regressions/<target> and
# inputs made from the bundled corpus, with fuzz/sql.dict, and keeps its
# growing corpus in build-fuzz/corpus/<target>. A crash, leak, timeout
# (10 s) or out-of-memory input is written to build-fuzz/crashes/<target>/
# and makes the script exit 1: copy it into fuzz/regressions/<target>/ once
# fixed, and ctest replays it in every build from then on. The last lines of
# each run (executions, coverage, corpus size) are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=60
LIMIT=()
if [ "${1:-}" = "-t" ]; then
  SECONDS_EACH=$2
  shift 2
fi
LIMIT=(-max_total_time="$SECONDS_EACH")
WHAT="${SECONDS_EACH} s"
if [ "${1:-}" = "-n" ]; then
  LIMIT=(-runs="$2" -seed=1)
  WHAT="$2 inputs, seed 1"
  shift 2
fi
JOBS=1
if [ "${1:-}" = "-j" ]; then
  JOBS=$2
  shift 2
fi
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(parse pgjson pgnodes diff spider readers exec sqlfuncs stream synth extract server audit duckdb spider2)
command -v clang >/dev/null || { echo "fuzz/run.sh: clang is not installed (./setup.sh installs it)"; exit 2; }

cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSQLSIM_FUZZ=ON \
  -DSQLSIM_TESTS=OFF -DSQLSIM_BENCH=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" >/dev/null

# Seeds from the bundled corpus: queries for the parser, (gold, prediction)
# pairs for the diff and Spider targets, whole files for the readers.
seed_corpus() {
  local t=$1 dir=build-fuzz/corpus/$1
  mkdir -p "$dir"
  [ -n "$(ls -A "$dir")" ] && return
  cp fuzz/seeds/"$t"/* "$dir"/ 2>/dev/null || true
  local gold=corpus/spider/dev_gold.sql pred=corpus/spider/predictions/dailsql_gpt4.sql
  case $t in
  parse | pgnodes | exec | extract)
    cut -f1 "$gold" | awk -v d="$dir" 'NR % 7 == 0 { f = d "/c" NR; print > f; close(f) }' ;;
  diff | spider | synth)
    paste -d '\n' <(cut -f1 "$gold") <(cut -f1 "$pred") |
      awk -v d="$dir" 'NR % 2 == 1 { g = $0; next } (NR / 2) % 9 == 0 { f = d "/p" NR; print g > f; print > f; close(f) }' ;;
  readers)
    for f in corpus/spider/tables.json corpus/bird/dev_tables.json; do
      { printf '\001'; head -c 20000 "$f"; } >"$dir/$(basename "$f").t"
    done
    for f in "$gold" "$pred" corpus/bird/mini_dev_predictions/*gpt-4-o_cot* corpus/bird/mini_dev_sqlite.json; do
      [ -f "$f" ] || continue
      { printf '\000'; head -c 20000 "$f"; } >"$dir/$(basename "$f").i"
    done ;;
  esac
}

# One target: its run, then its summary in build-fuzz/fuzz_<t>.summary and
# whether it failed in build-fuzz/fuzz_<t>.failed.
run_target() {
  local t=$1 rc regressions=()
  [ -d fuzz/regressions/"$t" ] && regressions=(fuzz/regressions/"$t")
  set +e
  TMPDIR=${TMPDIR:-/tmp} build-fuzz/fuzz/fuzz_"$t" "${LIMIT[@]}" -timeout=10 -rss_limit_mb=2560 \
    -dict=fuzz/sql.dict -max_len=4096 -print_final_stats=1 -artifact_prefix=build-fuzz/crashes/"$t"/ \
    build-fuzz/corpus/"$t" "${regressions[@]}" >build-fuzz/fuzz_"$t".log 2>&1
  rc=$?
  set -e
  {
    echo "== fuzz_$t for $WHAT"
    grep -E "^#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb|cov:" \
      build-fuzz/fuzz_"$t".log | tail -5 || true
    if [ $rc -ne 0 ] || [ -n "$(ls -A build-fuzz/crashes/"$t")" ]; then
      echo "fuzz_$t: FAILED (exit $rc); inputs in build-fuzz/crashes/$t/, log build-fuzz/fuzz_$t.log"
      grep -aE "ERROR|SUMMARY|==[0-9]+==|differs|does not parse" build-fuzz/fuzz_"$t".log | head -5 || true
      : >build-fuzz/fuzz_"$t".failed
    fi
  } >build-fuzz/fuzz_"$t".summary
}

for t in "${TARGETS[@]}"; do
  seed_corpus "$t"
  mkdir -p build-fuzz/crashes/"$t"
  rm -f build-fuzz/fuzz_"$t".failed build-fuzz/fuzz_"$t".summary
done
running=0
for t in "${TARGETS[@]}"; do
  if [ "$running" -ge "$JOBS" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$t" &
  running=$((running + 1))
done
wait
failed=0
for t in "${TARGETS[@]}"; do
  cat build-fuzz/fuzz_"$t".summary
  [ ! -e build-fuzz/fuzz_"$t".failed ] || failed=1
done
exit $failed

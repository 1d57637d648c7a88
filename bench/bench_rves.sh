#!/bin/sh
# bench_rves.sh -- R-VES wall time: sqlsim against BIRD mini-dev's own
# evaluation_ves.py, one process each, the same pairs, in the same run.
#
# The pairs are the Spider dev items that have a database (972 of 1034),
# written in BIRD's formats (predictions JSON with "\t----- bird -----\t",
# gold "SQL<TAB>db_id" lines, a difficulty JSONL); Spider's databases sit in
# BIRD's layout already (DIR/db_id/db_id.sqlite).
#
# The official code is not part of sqlsim: give the git directories of
# bird-bench/mini_dev and kata198/func_timeout (the workplace's `fetch`
# brings them); the script copies the two evaluator files and func_timeout
# into a temporary folder, with empty stand-ins for psycopg2 and pymysql
# (imported at the top of evaluation_utils.py, used only for the other
# dialects), and runs them with the system python3, which needs numpy
# (python3-numpy).
#
# usage: bench/bench_rves.sh SQLSIM MINI_DEV_GIT FUNC_TIMEOUT_GIT [ITERATIONS] [PRED] [ROUNDS]
#   (run from the project's root; ITERATIONS defaults to 100, PRED to
#   corpus/spider/predictions/dailsql_gpt4.sql, ROUNDS to 3)
set -eu
sqlsim=$1 minidev=$2 ft=$3 iters=${4:-100} pred=${5:-corpus/spider/predictions/dailsql_gpt4.sql} rounds=${6:-3}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$minidev" show HEAD:evaluation/evaluation_ves.py >"$tmp/evaluation_ves.py"
git -C "$minidev" show HEAD:evaluation/evaluation_utils.py >"$tmp/evaluation_utils.py"
mkdir "$tmp/func_timeout"
for f in $(git -C "$ft" ls-tree --name-only HEAD func_timeout/); do
  git -C "$ft" show "HEAD:$f" >"$tmp/$f"
done
: >"$tmp/psycopg2.py"
: >"$tmp/pymysql.py"
# the reference runs a fixed 100 iterations; ITERATIONS other than 100 edits its default
sed -i "s/iterate_num=100,/iterate_num=$iters,/" "$tmp/evaluation_ves.py"

$py - "$tmp" "$pred" <<'EOF'
import json, os, sys
tmp, pred = sys.argv[1], sys.argv[2]
gold = [l.rstrip('\n').split('\t') for l in open('corpus/spider/dev_gold.sql', encoding='utf-8') if l.strip()]
preds = [l.rstrip('\n') for l in open(pred, encoding='utf-8')]
preds += [''] * (len(gold) - len(preds))
out_p, out_g, out_d = {}, [], []
for (g, db), p in zip(gold, preds):
    if not os.path.exists(f'corpus/spider/database/{db}/{db}.sqlite'):
        continue
    out_p[str(len(out_g))] = f'{p}\t----- bird -----\t{db}'
    out_g.append(f'{g}\t{db}')
    # the reference divides by the count of each difficulty: all three present
    out_d.append(json.dumps({'difficulty': ('simple', 'moderate', 'challenging')[len(out_g) % 3]}))
json.dump(out_p, open(f'{tmp}/pred.json', 'w'))
open(f'{tmp}/gold.sql', 'w').write('\n'.join(out_g) + '\n')
open(f'{tmp}/diff.jsonl', 'w').write('\n'.join(out_d) + '\n')
print(f'{len(out_g)} pairs with a database, predictions {pred}')
EOF

root=$(pwd -P)/corpus/spider/database/
# ROUNDS rounds, each timing the reference then sqlsim back to back: this
# machine's speed drifts by a third between minutes, so one pair of runs can
# say 0.9x or 1.2x; the median of the per-round ratios is the figure.
echo "iterations $iters, one process each, $rounds rounds"
: >"$tmp/ratios"
for r in $(seq "$rounds"); do
  t0=$(date +%s.%N)
  (cd "$tmp" && $py evaluation_ves.py --predicted_sql_path pred.json --ground_truth_path gold.sql \
    --db_root_path "$root" --num_cpus 1 --diff_json_path diff.jsonl \
    --output_log_path /dev/null) >"$tmp/bird.out" 2>&1 || { cat "$tmp/bird.out" >&2; exit 1; }
  t1=$(date +%s.%N)
  "$sqlsim" eval -q -j 1 --metrics exec,rves --iterations "$iters" --gold "$tmp/gold.sql" \
    --db-dir corpus/spider/database --pred "$tmp/pred.json" >"$tmp/sqlsim.out" 2>&1
  t2=$(date +%s.%N)
  bird=$(awk '/^R-VES/ {print $5}' "$tmp/bird.out")
  ours=$(awk '/^R-VES / {print $NF; exit}' "$tmp/sqlsim.out")
  awk -v a="$t0" -v b="$t1" -v c="$t2" -v r1="$bird" -v r2="$ours" -v r="$r" 'BEGIN {
    printf "round %d: BIRD evaluation_ves.py %.1f s, R-VES %s; sqlsim eval --metrics exec,rves %.1f s, R-VES %s: %.2fx\n",
      r, b - a, r1, c - b, r2, (b - a) / (c - b) }'
  awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.4f\n", (b - a) / (c - b) }' >>"$tmp/ratios"
done
sort -n "$tmp/ratios" | awk '{ x[NR] = $1 } END {
  m = NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2
  printf "sqlsim is %.2fx faster (median of %d rounds; range %.2f-%.2f)\n", m, NR, x[1], x[NR] }'

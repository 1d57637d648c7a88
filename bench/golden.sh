#!/usr/bin/env bash
# golden.sh -- every per-item output and report of the corpora, for `cmp`
# before and after a change that must not change behaviour.
#
# usage: bench/golden.sh SQLSIM OUTDIR [NL2SQL_BUGS_JSON]
#
# Writes into OUTDIR, for the Spider files with and without databases, BIRD
# mini-dev (no database: synth and strict), the BIS benchmark (its SQLite
# file) and, when given, NL2SQL-BUGs (data/NL2SQL-Bugs-with-evidence.json of
# HKUSTDial/NL2SQL-Bugs-Benchmark, judged against BIRD dev's gold): eval's
# per-item lines and reports (text and JSON) with every metric but the timed
# ones (their figures are times), and analyze's per-item lines, CSV, text,
# JSON and HTML with --witness and --repair. Then `cmp` each file of two
# OUTDIRs (bench/golden.sh compare A B). Nothing timed is compared; a
# prediction that reads the clock (julianday('now')) can differ between two
# runs of one build, which `compare` names.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = compare ]; then
  a=$2 b=$3 bad=0
  for f in "$a"/*; do
    n=$(basename "$f")
    if ! cmp -s "$f" "$b/$n"; then
      echo "differs: $n ($(diff "$f" "$b/$n" | grep -c '^<' || true) lines), first: $(cmp "$f" "$b/$n" | head -1 || true)"
      diff <(tr ',' '\n' < "$f") <(tr ',' '\n' < "$b/$n") | head -4 | cut -c1-200 || true
      bad=1
    fi
  done
  [ "$bad" = 0 ] && echo "identical: $(ls "$a" | wc -l) files"
  exit $bad
fi
# compare3 A1 A2 B: two runs of one build (A1, A2) and a run of another (B),
# line by line: a line where A1 and A2 agree and B does not is a change; a
# line where A1 and A2 differ is the servers' own nondeterminism (MariaDB's
# tie order after a fresh load, strict's time budget), counted apart
if [ "${1:-}" = compare3 ]; then
  python3 - "$2" "$3" "$4" <<'EOF'
import os, sys
a1, a2, b = sys.argv[1:4]
changed = flaky = same = 0
for n in sorted(os.listdir(a1)):
    x = open(os.path.join(a1, n), errors='replace').read().split('\n')
    y = open(os.path.join(a2, n), errors='replace').read().split('\n') if os.path.exists(os.path.join(a2, n)) else x
    z = open(os.path.join(b, n), errors='replace').read().split('\n') if os.path.exists(os.path.join(b, n)) else []
    if len(x) != len(z):
        print(f"{n}: {len(x)} lines, {len(z)} in {b}")
        changed += 1
        continue
    c = f = 0
    for i in range(len(x)):
        if x[i] == z[i]:
            same += 1
        elif len(y) == len(x) and x[i] != y[i]:
            f += 1
        else:
            c += 1
            if c <= 2:
                print(f"{n}:{i + 1}: changed: {x[i][:160]}\n    now: {z[i][:160]}")
    if c:
        print(f"{n}: {c} lines changed")
        changed += c
    flaky += f
print(f"compare3: {changed} lines changed, {flaky} lines that differ between the two runs {a1} and {a2} too, "
      f"{same} the same")
sys.exit(1 if changed else 0)
EOF
  exit $?
fi
sqlsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
bugs=${3:-}
mkdir -p "$out"
# inputs made here live at one path, so the "benchmark" field is the same in every run
gen=${TMPDIR:-/tmp}/sqlsim-golden-inputs
mkdir -p "$gen"
shared=$here/../shared/corpus
sp=$here/corpus/spider
preds=("$sp"/predictions/*.sql)
pflags=()
for p in "${preds[@]}"; do pflags+=(--pred "$p"); done
mini=("$here"/corpus/bird/mini_dev_predictions/*.json)
mflags=()
for p in "${mini[@]}"; do mflags+=(--pred "$p"); done
j="-j 2 -q"

# Spider with its databases: every metric but timing; analyze with evidence
$sqlsim eval $j --metrics match,bis,synth,strict,exec,result,categories --witness --now '2024-01-01 00:00:00' \
  --gold "$sp/dev_gold.sql" "${pflags[@]}" --tables "$sp/tables.json" --db-dir "$sp/database" \
  --per-item "$out/spider_db.eval.jsonl" > "$out/spider_db.eval.txt"
$sqlsim eval $j --metrics match,exec,result --format json --now '2024-01-01 00:00:00' \
  --gold "$sp/dev_gold.sql" "${pflags[@]}" --tables "$sp/tables.json" --db-dir "$sp/database" > "$out/spider_db.eval.json"
$sqlsim eval $j --metrics exec --plug-value --keep-distinct --now '2024-01-01 00:00:00' \
  --gold "$sp/dev_gold.sql" "${pflags[@]}" --db-dir "$sp/database" --per-item "$out/spider_plug.eval.jsonl" \
  > "$out/spider_plug.eval.txt"
$sqlsim analyze $j --witness --repair --gold "$sp/dev_gold.sql" --tables "$sp/tables.json" --db-dir "$sp/database" \
  "${pflags[@]}" --per-item "$out/spider_db.analyze.jsonl" --csv "$out/spider_db.analyze.csv" \
  --html "$out/spider_db.analyze.html" > "$out/spider_db.analyze.txt"
$sqlsim analyze $j --format json --gold "$sp/dev_gold.sql" --tables "$sp/tables.json" --db-dir "$sp/database" \
  "${pflags[@]}" > "$out/spider_db.analyze.json"

# the audit: Spider on its databases (json of every item, text), analyze --audit;
# mini-dev without databases
$sqlsim audit -j 2 --gold "$sp/dev_gold.sql" --tables "$sp/tables.json" --db-dir "$sp/database" "${pflags[@]}" \
  --format json --all > "$out/spider_db.audit.jsonl"
$sqlsim audit -j 2 --gold "$sp/dev_gold.sql" --tables "$sp/tables.json" --db-dir "$sp/database" "${pflags[@]}" \
  | sed 's/ in [0-9.]* s$//' > "$out/spider_db.audit.txt"
$sqlsim analyze $j --audit --format json --gold "$sp/dev_gold.sql" --tables "$sp/tables.json" --db-dir "$sp/database" \
  "${pflags[@]}" | sed 's/"seconds":[0-9.e-]*/"seconds":0/' > "$out/spider_db.analyze_audit.json"
$sqlsim audit -j 2 --gold "$here/corpus/bird/mini_dev_sqlite.json" --tables "$here/corpus/bird/dev_tables.json" \
  "${mflags[@]}" --format json --all > "$out/minidev.audit.jsonl"

# Spider without databases: structure, synthetic execution, strict
$sqlsim eval $j --metrics match,bis,synth,strict --witness --gold "$sp/dev_gold.sql" "${pflags[@]}" \
  --tables "$sp/tables.json" --per-item "$out/spider_nodb.eval.jsonl" > "$out/spider_nodb.eval.txt"
$sqlsim analyze $j --witness --repair --gold "$sp/dev_gold.sql" --tables "$sp/tables.json" "${pflags[@]}" \
  --per-item "$out/spider_nodb.analyze.jsonl" --csv "$out/spider_nodb.analyze.csv" \
  --html "$out/spider_nodb.analyze.html" > "$out/spider_nodb.analyze.txt"

# BIRD mini-dev: no database
$sqlsim eval $j --metrics bis,synth,strict --witness --now '2024-01-01 00:00:00' --gold "$here/corpus/bird/mini_dev_sqlite.json" "${mflags[@]}" \
  --tables "$here/corpus/bird/dev_tables.json" --per-item "$out/minidev.eval.jsonl" --format json \
  > "$out/minidev.eval.json"
$sqlsim analyze $j --witness --repair --gold "$here/corpus/bird/mini_dev_sqlite.json" \
  --tables "$here/corpus/bird/dev_tables.json" "${mflags[@]}" --per-item "$out/minidev.analyze.jsonl" \
  --csv "$out/minidev.analyze.csv" --html "$out/minidev.analyze.html" > "$out/minidev.analyze.txt"

# BIS: its own database; the gold scored against itself and a changed copy
bis=$shared/bis/dataset1
if [ -d "$bis" ]; then
  python3 - "$bis/questions_dataset_1.json" "$gen/bis_pred.sql" <<'EOF'
import json, sys
qs = json.load(open(sys.argv[1]))
with open(sys.argv[2], 'w') as f:
    for k, q in enumerate(qs):
        s = ' '.join(q['query'].split())
        f.write((s.replace('DESC', 'ASC') if k % 3 == 0 else s.replace(' = ', ' != ', 1) if k % 3 == 1 else s) + '\n')
EOF
  $sqlsim eval $j --metrics bis,exec,result,synth --witness --gold "$bis/questions_dataset_1.json" \
    --pred "$gen/bis_pred.sql" --sqlite "$bis/dataset_1.sqlite3" --per-item "$out/bis.eval.jsonl" > "$out/bis.eval.txt"
  $sqlsim analyze $j --witness --repair --gold "$bis/questions_dataset_1.json" --sqlite "$bis/dataset_1.sqlite3" \
    --pred "$gen/bis_pred.sql" --per-item "$out/bis.analyze.jsonl" --csv "$out/bis.analyze.csv" > "$out/bis.analyze.txt"
fi

# NL2SQL-BUGs: BIRD dev's gold, people's judged predictions, no database
if [ -n "$bugs" ]; then
  python3 - "$bugs" "$here/corpus/bird/dev.json" "$gen" <<'EOF'
import json, sys
data = json.load(open(sys.argv[1], encoding='utf-8'))
dev = {}
for g in json.load(open(sys.argv[2], encoding='utf-8')):
    dev.setdefault((g['db_id'], g['question'].strip()), g)
gold, pred = [], {}
for n, x in enumerate(data):
    g = dev[(x['db_id'], x['question'].strip())]
    gold.append({'question_id': n, 'db_id': g['db_id'], 'question': g['question'], 'evidence': g['evidence'],
                 'SQL': g['SQL'], 'difficulty': g.get('difficulty', 'simple')})
    pred[str(n)] = x['sql'].replace('\r', ' ').replace('\n', ' ') + '\t----- bird -----\t' + x['db_id']
json.dump(gold, open(sys.argv[3] + '/bugs_gold.json', 'w'))
json.dump(pred, open(sys.argv[3] + '/bugs_pred.json', 'w'))
EOF
  $sqlsim eval $j --metrics bis,synth,strict,categories --witness --gold "$gen/bugs_gold.json" \
    --pred "$gen/bugs_pred.json" --tables "$here/corpus/bird/dev_tables.json" --per-item "$out/bugs.eval.jsonl" \
    > "$out/bugs.eval.txt"
  $sqlsim analyze $j --witness --repair --gold "$gen/bugs_gold.json" --tables "$here/corpus/bird/dev_tables.json" \
    --pred "$gen/bugs_pred.json" --per-item "$out/bugs.analyze.jsonl" --csv "$out/bugs.analyze.csv" \
    --html "$out/bugs.analyze.html" > "$out/bugs.analyze.txt"
fi

# The server engines, when run under tests/servers.sh (SQLSIM_PG, SQLSIM_MY set):
# Spider loaded into each (load's report), every execution metric of the 7
# files there, synthetic execution and strict judged on the server for two
# files' first 150 items, mini-dev's dialect golds against their baselines
# without a database (synth on generated databases, parsed in the dialect),
# the audit on the server
if [ -n "${SQLSIM_PG:-}" ] && [ -n "${SQLSIM_MY:-}" ]; then
  for e in pg my; do
    if [ $e = pg ]; then url=$SQLSIM_PG admin=$SQLSIM_PG_ADMIN d=postgresql; else url=$SQLSIM_MY admin=$SQLSIM_MY_ADMIN d=mysql; fi
    $sqlsim load --replace --into "$admin" "$sp/database" > "$out/$e.load.txt" 2>&1
    $sqlsim eval $j --metrics match,bis,exec,result,soft_f1 --gold "$sp/dev_gold.sql" "${pflags[@]}" \
      --tables "$sp/tables.json" --engine "$url" --per-item "$out/$e.spider.eval.jsonl" > "$out/$e.spider.eval.txt"
    head -n 150 "$sp/dev_gold.sql" > "$gen/gold150.sql"
    for p in c3sql_gpt35 dinsql_gpt4; do head -n 150 "$sp/predictions/$p.sql" > "$gen/$p.150.sql"; done
    $sqlsim eval $j --metrics synth,strict --witness --gold "$gen/gold150.sql" --pred "$gen/c3sql_gpt35.150.sql" \
      --pred "$gen/dinsql_gpt4.150.sql" --tables "$sp/tables.json" --engine "$url" \
      --per-item "$out/$e.strict.eval.jsonl" > "$out/$e.strict.eval.txt"
    $sqlsim audit -j 2 --gold "$sp/dev_gold.sql" --tables "$sp/tables.json" --engine "$url" "${pflags[@]}" \
      --format json --all > "$out/$e.audit.jsonl"
    dd=$shared/bird/mini_dev_dialects
    dflags=()
    for p in "$dd"/predictions/*_$d*.json; do dflags+=(--pred "$p"); done
    $sqlsim eval $j --metrics bis,synth --dialect $d --gold "$dd/mini_dev_${d}_gold.sql" "${dflags[@]:0:6}" \
      --tables "$here/corpus/bird/dev_tables.json" --per-item "$out/$e.minidev.eval.jsonl" > "$out/$e.minidev.eval.txt"
  done
  sed -i "s|$SQLSIM_SERVERS_DIR|SERVERS|g; s|#sql-alter-[0-9a-f]*-|#sql-alter-|g" "$out"/pg.* "$out"/my.* # the servers' folder, MariaDB's names of its own
fi

# Python: the dicts of score_many (records as the Python face makes them), repr'd
if [ -d "$(dirname "$sqlsim")/python" ]; then
  PYTHONPATH="$(dirname "$sqlsim")/python" python3 - "$sp" "$here/corpus/bird" > "$out/python.txt" <<'EOF2'
import sys, sqlsim
sp, bird = sys.argv[1], sys.argv[2]
gold = [l.rstrip('\n').split('\t') for l in open(sp + '/dev_gold.sql')]
pred = [l.rstrip('\r\n').rstrip(';') for l in open(sp + '/predictions/c3sql_gpt35.sql', newline='')]
pairs = [(g[0], p, g[1]) for g, p in zip(gold, pred)]
for kw in (dict(metrics='match,bis,synth,strict,exec,result,categories', db_dir=sp + '/database', witness=True,
                repair=True, now='2024-01-01 00:00:00'),
           dict(metrics='bis,synth,strict,categories', witness=True, repair=True)):
    ev = sqlsim.Evaluator(tables=sp + '/tables.json', **kw)
    for d in ev.score_many(pairs, jobs=2):
        print(repr(d))
    print(repr(ev.score(pairs[3][0], pairs[3][1], pairs[3][2])))
    print(ev.score_json(pairs[5][0], pairs[5][1], pairs[5][2]))
EOF2
fi
echo "golden: $(ls "$out" | wc -l) files in $out"

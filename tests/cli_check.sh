#!/usr/bin/env bash
# cli_check.sh -- the sqlsim command as a user meets it (issue 14): Spider
# test-suite accuracy and its options, errors instead of silent zeros, exit
# statuses, pipes and standard streams, option conventions, help and version,
# model names, an interrupt that keeps what finished, progress, outputs that
# agree, and prediction files that cover part of the set. Every check runs
# the `sqlsim` binary; JSON is checked with python3's strict parser.
# usage: cli_check.sh SQLSIM_BINARY CORPUS_DIR WORK_DIR
set -uo pipefail
sqlsim=$1 corpus=$2 work=$3
command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is not installed: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
# status CMD...: runs it, output in out.txt/err.txt, prints the exit status
status() { "$@" > out.txt 2> err.txt; echo $?; }
json_get() { python3 -c "
import json, sys
d = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
v = eval(sys.argv[2])
print(*v) if isinstance(v, tuple) else print(v)" "$@"; }

S=$corpus/spider
singer=$S/database/concert_singer/concert_singer.sqlite

# ---- 1. test-suite databases: DIR/<db_id>/*.sqlite, correct only on all
mkdir -p ts/concert_singer one/concert_singer
cp "$singer" ts/concert_singer/concert_singer.sqlite
cp "$singer" ts/concert_singer/concert_singer_1.sqlite
cp "$singer" one/concert_singer/concert_singer.sqlite
sqlite3 ts/concert_singer/concert_singer_1.sqlite "DELETE FROM singer_in_concert; DELETE FROM singer WHERE singer_id = 6"
before=$(cksum ts/concert_singer/*.sqlite)
printf 'SELECT count(*) FROM singer\tconcert_singer\n' > g1.sql
printf 'SELECT 6\n' > p1.sql
st=$(status "$sqlsim" eval --metrics exec --gold g1.sql --pred p1.sql --db-dir ts --per-item items.jsonl)
got=$(json_get items.jsonl 'd[0]["ex"]["spider"], d[0]["ex"]["bird"], d[0]["databases"]')
[ "$st" = 0 ] && [ "$got" = "0 0 2" ] && ok "test suite: SELECT 6 is wrong on the second database (official 0)" ||
  fail "test suite: status $st, got '$got' (want 0 0 2)"
grep -q "test suites: up to 2 databases" out.txt && grep -q "EX test-suite" out.txt &&
  ok "the report names test-suite accuracy" || fail "the report does not name the test suite: $(cat out.txt)"
"$sqlsim" eval --metrics exec --gold g1.sql --pred p1.sql --db-dir one --per-item items.jsonl > /dev/null
[ "$(json_get items.jsonl 'd[0]["ex"]["spider"], d[0]["databases"]')" = "1 1" ] &&
  ok "one database: the same prediction passes" || fail "one database: $(cat items.jsonl)"
[ "$before" = "$(cksum ts/concert_singer/*.sqlite)" ] && ok "test-suite databases unchanged" || fail "a database changed"
# SQLite's own side files are not databases; a file that is not a database stops the item, named
mkdir -p ts2/concert_singer && cp ts/concert_singer/*.sqlite ts2/concert_singer/
echo junk > ts2/concert_singer/concert_singer_2.sqlite-journal; echo junk > ts2/concert_singer/concert_singer_2.sqlite-wal
"$sqlsim" eval --metrics exec --gold g1.sql --pred p1.sql --db-dir ts2 --per-item items.jsonl > /dev/null
[ "$(json_get items.jsonl 'd[0]["databases"]')" = 2 ] && ok "a -journal file is not a test-suite database" || fail "journal: $(cat items.jsonl)"
echo "not a database" > ts2/concert_singer/zz.sqlite
st=$(status "$sqlsim" eval --metrics exec --gold g1.sql --pred p1.sql --db-dir ts2 --per-item items.jsonl)
[ "$st" = 0 ] && [ "$(json_get items.jsonl 'd[0]["ex"]')" = None ] && grep -q "zz.sqlite" items.jsonl &&
  ok "a test-suite file that is not a database: the item is not scored, the file named" || fail "junk db: $st $(cat items.jsonl err.txt)"

printf 'SELECT DISTINCT country FROM singer\tconcert_singer\n' > g2.sql
printf 'SELECT country FROM singer\n' > p2.sql
"$sqlsim" eval --metrics exec --gold g2.sql --pred p2.sql --db-dir one --per-item a.jsonl > /dev/null
"$sqlsim" eval --metrics exec --keep-distinct --gold g2.sql --pred p2.sql --db-dir one --per-item b.jsonl > /dev/null
[ "$(json_get a.jsonl 'd[0]["ex"]["spider"]')/$(json_get b.jsonl 'd[0]["ex"]["spider"]')" = "1/0" ] &&
  ok "DISTINCT removed by default, kept with --keep-distinct" || fail "keep-distinct: $(cat a.jsonl b.jsonl)"

printf 'SELECT name FROM singer WHERE age > 40\tconcert_singer\n' > g3.sql
printf 'SELECT name FROM singer WHERE age > 45\n' > p3.sql
"$sqlsim" eval --metrics exec --gold g3.sql --pred p3.sql --db-dir ts --per-item a.jsonl > /dev/null
"$sqlsim" eval --metrics exec --plug-value --gold g3.sql --pred p3.sql --db-dir ts --per-item b.jsonl > /dev/null
[ "$(json_get a.jsonl 'd[0]["ex"]["spider"]')/$(json_get b.jsonl 'd[0]["ex"]["spider"]')" = "0/1" ] &&
  ok "--plug-value: the gold's 40 in the prediction's slot matches" || fail "plug-value: $(cat a.jsonl b.jsonl)"

# ---- 2. no silent zeros: a configuration that can score nothing is an error
st=$(status "$sqlsim" eval --metrics exec --gold g1.sql --pred p1.sql --db-dir no/such/dir)
[ "$st" = 2 ] && grep -q "no/such/dir" err.txt && ok "a mistyped --db-dir: exit 2, named" || fail "db-dir: $st $(cat err.txt)"
mkdir -p empty
st=$(status "$sqlsim" eval --metrics exec --gold g1.sql --pred p1.sql --db-dir empty)
[ "$st" = 1 ] && grep -q "no database for any" err.txt && ok "a --db-dir without the databases: exit 1, says where it looked" ||
  fail "empty db-dir: $st $(cat err.txt)"
st=$(status "$sqlsim" eval --metrics match --gold "$S/dev_gold.sql" --pred "$S/predictions/dailsql_gpt4.sql" --tables "$corpus/bird/dev_tables.json")
[ "$st" = 1 ] && grep -q "no schema for any gold db_id" err.txt && ok "the wrong --tables: exit 1, says so" ||
  fail "wrong tables: $st $(cat err.txt)"
st=$(status "$sqlsim" eval --metrics synth --gold g1.sql --pred p1.sql)
[ "$st" = 2 ] && grep -q "synth metric needs a schema" err.txt && ok "synth without a schema: exit 2, says so" ||
  fail "synth without schema: $st $(cat err.txt)"
st=$(status "$sqlsim" eval --metrics exec --gold g1.sql --pred p1.sql --db-dir ts --now yesterday)
[ "$st" = 2 ] && grep -q -- "--now" err.txt && ok "a bad --now: exit 2" || fail "now: $st"
: > nothing.sql
st=$(status "$sqlsim" eval --metrics exec --gold nothing.sql --pred p1.sql --db-dir ts)
[ "$st" = 1 ] && ok "an empty gold file: exit 1" || fail "empty gold: $st"

# ---- 3. pipes and standard streams
st=$(status "$sqlsim" eval --metrics exec --gold g1.sql --pred - --db-dir one --per-item items.jsonl < p1.sql)
[ "$st" = 0 ] && [ "$(json_get items.jsonl 'd[0]["model"]')" = stdin ] && ok "--pred - reads stdin (model 'stdin')" ||
  fail "pred -: $st $(cat err.txt)"
st=$(status "$sqlsim" eval --metrics exec --gold <(cat g1.sql) --pred <(cat p1.sql) --db-dir one)
[ "$st" = 0 ] && grep -q "== pred1" out.txt && ok "process substitution for gold and predictions" ||
  fail "<(...): $st $(cat err.txt)"
st=$(status "$sqlsim" eval --metrics exec --gold g1.sql --pred p1.sql --db-dir one --per-item -)
[ "$st" = 0 ] && [ "$(json_get out.txt 'len(d)')" = 1 ] && grep -q "execution accuracy" err.txt && [ ! -e ./- ] &&
  ok "--per-item - writes JSON lines to stdout, the report to stderr" || fail "per-item -: $st $(cat out.txt)"
st=$(status "$sqlsim" eval --metrics exec --gold - --pred p1.sql --db-dir one --per-item - < g1.sql)
[ "$st" = 0 ] && [ "$(json_get out.txt 'd[0]["ex"]["spider"]')" = 1 ] && ok "--gold - with --per-item -: stdin in, stdout out" ||
  fail "gold - with per-item -: $st $(cat err.txt)"
st=$(status "$sqlsim" eval --metrics exec --gold - --pred - --db-dir one < g1.sql)
[ "$st" = 2 ] && ok "stdin for two inputs is refused" || fail "two stdins: $st"

# ---- 4. conventions
st=$(status "$sqlsim" eval --metrics=exec -j2 --gold=g1.sql --pred p1.sql --db-dir=one)
[ "$st" = 0 ] && ok "--opt=value and -j2" || fail "getopt forms: $st $(cat err.txt)"
st=$(status "$sqlsim" --version)
[ "$st" = 0 ] && grep -Eq "^sqlsim [0-9]+\.[0-9]+" out.txt && ok "--version" || fail "version: $st"
for c in eval analyze stream rewrite diff parse; do
  st=$(status "$sqlsim" help $c)
  [ "$st" = 0 ] && grep -q "options:" out.txt || fail "help $c: $st"
  "$sqlsim" $c --help > h2.txt
  cmp -s out.txt h2.txt || fail "help $c differs from $c --help"
done
"$sqlsim" help eval > out.txt
for o in --metrics --gold --pred --tables --db-dir --jobs --iterations --timeout --per-item --format --quiet --keep-distinct --plug-value --all-items; do
  grep -q -- "$o" out.txt || fail "help eval lacks $o"
done
grep -q "default 100" out.txt && grep -q "default 30" out.txt && ok "help lists every option with its default" || fail "help defaults"
for j in 0 abc -3; do
  st=$(status "$sqlsim" analyze -j "$j" --gold g1.sql --pred p1.sql)
  [ "$st" = 2 ] || fail "analyze -j $j: exit $st"
done
st=$(status "$sqlsim" eval --gold g1.sql --pred p1.sql --tables "$S/tables.json" stray)
[ "$st" = 2 ] && grep -q "unexpected argument 'stray'" err.txt && ok "a stray argument is named" || fail "stray: $(cat err.txt)"
st=$(status "$sqlsim" eval --no-such-option)
[ "$st" = 2 ] && grep -q "no-such-option" err.txt && ok "an unknown option: exit 2" || fail "unknown option: $st"
st=$(status "$sqlsim" frobnicate)
[ "$st" = 2 ] || fail "unknown command: exit $st"
grep -q "exit status" <("$sqlsim" --help) && ok "exit statuses in --help" || fail "--help lacks exit statuses"

# ---- 5. model names: unique, never truncated into one
mkdir -p run1 run2
cp p1.sql run1/predict_dev.sql && cp p1.sql run2/predict_dev.sql
st=$(status "$sqlsim" eval --metrics exec --gold g1.sql --pred run1/predict_dev.sql --pred run2/predict_dev.sql --db-dir one)
[ "$st" = 0 ] && grep -q "== run1/predict_dev" out.txt && grep -q "== run2/predict_dev" out.txt &&
  ok "same base names: told apart by their directories" || fail "same base names: $st $(cat out.txt err.txt)"
st=$(status "$sqlsim" eval --metrics exec --gold g1.sql --pred a=p1.sql --pred a=p2.sql --db-dir one)
[ "$st" = 2 ] && grep -q "two models are named 'a'" err.txt && ok "two models of one name: exit 2" || fail "dup names: $st $(cat err.txt)"
st=$(status "$sqlsim" eval --metrics exec --gold g1.sql --pred meta-llama-3-70b-instruct-first=p1.sql \
  --pred meta-llama-3-70b-instruct-second=p1.sql --db-dir one)
grep -q "meta-llama-3-70b-instruct-first" out.txt && grep -q "meta-llama-3-70b-instruct-second" out.txt &&
  ok "NAME=FILE, long names printed whole" || fail "long names: $(cat out.txt)"

# ---- 8. outputs agree
P=$S/predictions
"$sqlsim" eval --metrics match,bis,exec -j 2 -q --gold "$S/dev_gold.sql" --pred "$P/dailsql_gpt4.sql" --tables "$S/tables.json" \
  --db-dir "$S/database" --format json > eval.json 2> err.txt
python3 - eval.json <<'EOF' && ok "eval --format json: bis under its own count, EX under execution's" || fail "eval json: $(cat err.txt)"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["models"][0]
assert m["structure"]["all"]["count"] == 1034, m["structure"]["all"]
assert m["execution"]["all"]["count"] < 1034 and "bis" not in m["execution"]["all"], m["execution"]["all"]
assert d["groups"].startswith("Spider hardness")
EOF
"$sqlsim" eval --metrics exec -q --gold "$S/dev_gold.sql" --pred "$P/dailsql_gpt4.sql" --db-dir "$S/database" > out.txt
grep -q "execution accuracy" out.txt && ok "the text report says execution accuracy" || fail "no 'execution accuracy'"
"$sqlsim" analyze -j 2 -q --gold "$S/dev_gold.sql" --tables "$S/tables.json" --db-dir "$S/database" \
  --pred "$P/dailsql_gpt4.sql" --pred "$P/c3sql_gpt35.sql" --format json --csv items.csv --per-item an.jsonl > an.json
python3 - an.json items.csv an.jsonl eval.json <<'EOF' && ok "analyze: JSON tables, CSV evidence, correct counted by how it was judged" || fail "analyze outputs"
import csv, json, sys
d = json.load(open(sys.argv[1]))["benchmarks"][0]
assert d["by_group"] and d["by_database"], d.keys()
m = d["models"][0]
assert m["right_where_other_is_wrong"]["c3sql_gpt35"] > 0
ex = json.load(open(sys.argv[4]))["models"][0]["execution"]["all"]
c = m["correct"]["executed"]
# "correct" among executed items is Spider EX over the same items
assert c["count"] == ex["count"] and abs(c["correct"] / c["count"] - ex["ex_spider"]) < 1e-5, (c, ex)
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 2068 and any(r["evidence"] for r in rows if "correct" not in r["categories"])
lines = [json.loads(l) for l in open(sys.argv[3])]
assert len(lines) == 2068 and {"ex", "hardness", "group", "categories"} <= set(lines[0])
EOF
printf 'SELECT name FROM singer WHERE name = '"'"'\xff\xfe'"'"'\tconcert_singer\n' > g8.sql
printf 'SELECT name FROM singer WHERE name = '"'"'\xc3'"'"'\n' > p8.sql
"$sqlsim" analyze --gold g8.sql --db-dir one --tables "$S/tables.json" --pred p8.sql --per-item u.jsonl --format json > u.json
python3 -c "
import json,sys
for l in open('u.jsonl', encoding='utf-8', errors='strict'): json.loads(l)
json.load(open('u.json', encoding='utf-8', errors='strict'))" && ok "invalid UTF-8 in queries: strict UTF-8 JSON" || fail "utf-8"

# ---- 9. a BIRD prediction object covering part of the set
python3 - "$corpus/bird/mini_dev_sqlite.json" <<'EOF'
import json, sys
gold = json.load(open(sys.argv[1]))[:3]
json.dump(gold, open("bird3.json", "w"))
json.dump({str(k): gold[k]["SQL"] + "\t----- bird -----\t" + gold[k]["db_id"] for k in (0, 2)}, open("part.json", "w"))
EOF
st=$(status "$sqlsim" eval --metrics bis --gold bird3.json --pred part.json --tables "$corpus/bird/dev_tables.json" --per-item p.jsonl)
[ "$st" = 0 ] && grep -q "2 of 3 items" out.txt && [ "$(json_get p.jsonl '[x["index"] for x in d]')" = "[0, 2]" ] &&
  ok "a subset is scored as 2 of 3 items, indices kept" || fail "subset: $st $(cat out.txt err.txt)"
grep -q "BIRD difficulty" out.txt && ok "BIRD gold grouped by its difficulty" || fail "BIRD groups: $(cat out.txt)"
st=$(status "$sqlsim" eval --metrics bis --all-items --gold bird3.json --pred part.json --tables "$corpus/bird/dev_tables.json" --per-item p.jsonl)
[ "$st" = 0 ] && grep -q "1 without a prediction (scored as wrong)" out.txt && [ "$(json_get p.jsonl 'd[1].get("missing"), d[1]["score"]')" = "True 0" ] &&
  ok "--all-items scores the missing one as wrong" || fail "all-items: $st $(cat out.txt p.jsonl)"
printf '{"7": "SELECT 1"}' > far.json
st=$(status "$sqlsim" eval --metrics bis --gold bird3.json --pred far.json --tables "$corpus/bird/dev_tables.json")
[ "$st" = 1 ] && grep -q "question index 7" err.txt && ok "a key past the gold set is named" || fail "far key: $st $(cat err.txt)"
printf 'SELECT name FROM singer\tconcert_singer\n' > g9.sql
st=$(status "$sqlsim" eval --metrics exec --gold g9.sql --pred p3.sql --pred p1.sql --db-dir one)
printf 'SELECT 1\nSELECT 2\n' > two.sql
st=$(status "$sqlsim" eval --metrics exec --gold g9.sql --pred two.sql --db-dir one)
[ "$st" = 1 ] && grep -q "must pair up" err.txt && ok "a line file of another length is refused" || fail "count: $st"

# ---- 8 (rewrite). rewrite --pred in text mode shows the rewrites
printf 'SELECT count(*) FROM singer WHERE singer_id IN (SELECT singer_id FROM singer_in_concert)\tconcert_singer\n' > rw.sql
st=$(status "$sqlsim" rewrite --db-dir one --pred rw.sql --iterations 3)
[ "$st" = 0 ] && grep -q "queries" out.txt && ! grep -q "REWRITE.md" out.txt err.txt && ok "rewrite --pred: summary, no missing files cited" ||
  fail "rewrite: $st $(cat out.txt err.txt)"
grep -rq "REWRITE.md" "$sqlsim" && fail "the binary cites REWRITE.md" || true
# the race's options: a budget, the fixed protocol, and what the JSON says of each
# (count_star applies: b is NOT NULL)
python3 -c "
import sqlite3; c = sqlite3.connect('race.sqlite')
c.execute('CREATE TABLE t (a INTEGER PRIMARY KEY, b INT NOT NULL)')
c.executemany('INSERT INTO t VALUES (?, ?)', [(i, i % 7) for i in range(20000)]); c.commit()"
st=$(status "$sqlsim" rewrite --sqlite race.sqlite --time-budget 2 --format json "SELECT count(b) FROM t")
[ "$st" = 0 ] && python3 -c "
import json; d = json.load(open('out.txt'))
assert d['candidates'] >= 1 and d['protocol'] == 'sequential' and d['timing_s'] <= 4, d
assert d['stopped'] in ('early', 'budget', 'max_runs') and d['runs'][0] >= 2 and d['runs'][1] >= 2, d" &&
  ok "rewrite --time-budget: the race's runs and stop in JSON" || fail "time budget: $st $(cat out.txt err.txt)"
# a budget far below one run of the query, on any machine: 2,000,000 rows to count (tens of ms a run, against 1 ms)
python3 -c "
import sqlite3; c = sqlite3.connect('race_big.sqlite')
c.execute('CREATE TABLE t (a INTEGER PRIMARY KEY, b INT NOT NULL)')
c.execute('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000000) INSERT INTO t SELECT i, i % 7 FROM n')
c.commit()"
st=$(status "$sqlsim" rewrite --sqlite race_big.sqlite --time-budget 0.001 --format json "SELECT count(b) FROM t")
[ "$st" = 0 ] && python3 -c "
import json; d = json.load(open('out.txt'))
assert not d['offered'] and 'time budget ran out' in d['reason'], d" &&
  ok "a budget too small to time: unchecked, said so" || fail "tiny budget: $st $(cat out.txt err.txt)"
st=$(status "$sqlsim" rewrite --sqlite race.sqlite --fixed --iterations 3 --format json "SELECT count(b) FROM t")
[ "$st" = 0 ] && python3 -c "
import json; d = json.load(open('out.txt'))
assert d['protocol'] == 'fixed' and d['runs'] == [3, 3], d" && ok "rewrite --fixed: the fixed protocol" ||
  fail "fixed: $st $(cat out.txt err.txt)"
st=$(status "$sqlsim" rewrite --sqlite one/concert_singer/concert_singer.sqlite --time-budget 0 "SELECT 1")
[ "$st" = 2 ] && grep -q "time-budget" err.txt && ok "--time-budget 0 is refused" || fail "budget 0: $st $(cat err.txt)"
st=$(status "$sqlsim" eval --metrics exec,ves --auto-width 0.2 --gold g1.sql --pred p1.sql --db-dir one)
[ "$st" = 2 ] && grep -q "goes with --iterations auto" err.txt && ok "--auto-width alone is refused" || fail "auto-width: $st $(cat err.txt)"
st=$(status "$sqlsim" eval --metrics exec,ves,rves --iterations auto --auto-width 0.3 --format json --gold g1.sql --pred p1.sql --db-dir one)
[ "$st" = 0 ] && [ "$(json_get out.txt 'd[0]["timing_protocol"], d[0]["auto_width"]')" = "auto 0.3" ] &&
  ok "--iterations auto: the protocol in the summary" || fail "auto: $st $(cat out.txt err.txt)"
st=$(status "$sqlsim" eval --metrics exec,ves --iterations auto --gold g1.sql --pred p1.sql --db-dir one)
[ "$st" = 0 ] && grep -q "adaptive" out.txt && grep -q "iterations/pair" out.txt && ok "--iterations auto: the report says so" ||
  fail "auto text: $st $(cat out.txt err.txt)"
printf 'SELECT count(*) FROM singer\n' > p2.sql
st=$(status "$sqlsim" eval --metrics exec,ves,rves --iterations 5 --noise-every 1 --gold g1.sql --pred p2.sql --db-dir one --per-item items.jsonl)
[ "$st" = 0 ] && grep -q "^noise floor: 1 golds timed against themselves" out.txt && grep -q '"self_ratio":' items.jsonl &&
  ok "--noise-every 1: the gold timed against itself, the noise floor beside VES" || fail "noise floor: $st $(cat out.txt err.txt)"
st=$(status "$sqlsim" eval --metrics exec,rves --iterations 5 --noise-every 1 --format json --gold g1.sql --pred p2.sql --db-dir one)
[ "$st" = 0 ] && [ "$(json_get out.txt 'd[0]["models"][0]["noise_floor"]["items"]')" = 1 ] &&
  ok "the noise floor in the JSON summary" || fail "noise floor json: $st $(cat out.txt err.txt)"
st=$(status "$sqlsim" eval --metrics exec,ves --iterations 5 --noise-every never --gold g1.sql --pred p2.sql --db-dir one --per-item items.jsonl)
[ "$st" = 0 ] && ! grep -q "noise floor" out.txt && ! grep -q self_ratio items.jsonl && ok "--noise-every never: none" ||
  fail "noise never: $st $(cat out.txt err.txt)"
st=$(status "$sqlsim" eval --metrics exec,ves,rves --iterations 5 --connection reuse --format json --gold g1.sql --pred p2.sql --db-dir one --per-item items.jsonl)
[ "$st" = 0 ] && [ "$(json_get out.txt 'd[0]["timing_connection"]')" = reuse ] && [ "$(json_get items.jsonl 'd[0]["iterations"]')" = 5 ] &&
  ok "--connection reuse: timed on one connection, said in the summary" || fail "reuse: $st $(cat out.txt err.txt)"
st=$(status "$sqlsim" eval --metrics exec,ves --iterations 5 --connection reuse --gold g1.sql --pred p2.sql --db-dir one)
[ "$st" = 0 ] && grep -q "not the papers' protocol" out.txt && ok "--connection reuse: the report says it is not the protocol" ||
  fail "reuse text: $st $(cat out.txt err.txt)"
st=$(status "$sqlsim" eval --metrics exec,ves --connection pooled --gold g1.sql --pred p2.sql --db-dir one)
[ "$st" = 2 ] && grep -q "fresh or reuse" err.txt && ok "--connection pooled is refused" || fail "connection bad: $st $(cat err.txt)"
st=$(status "$sqlsim" eval --metrics exec,ves --noise-every 0 --gold g1.sql --pred p2.sql --db-dir one)
[ "$st" = 2 ] && grep -q -- "--noise-every" err.txt && ok "--noise-every 0 is refused" || fail "noise 0: $st $(cat err.txt)"

# ---- 6 and 7. SIGINT ends cleanly with what finished; progress lines in a log
# (the run takes about 25 s; stopped once the first progress line, due after 10 s, is
# there: a fixed wait flaked on a loaded machine; at most 90 s)
( "$sqlsim" eval --metrics exec,ves --iterations 100 --gold "$S/dev_gold.sql" --pred "$P/dailsql_gpt4.sql" \
    --db-dir "$S/database" --per-item int.jsonl > int.txt 2> int.err & pid=$!
  for _ in $(seq 180); do grep -Eq "^eval: (scoring|timing) [0-9]+/[0-9]+ pairs" int.err && break; sleep 0.5; done
  kill -INT $pid; wait $pid; echo $? > int.status )
st=$(cat int.status)
n=$(wc -l < int.jsonl)
[ "$st" = 130 ] && [ "$n" -gt 0 ] && grep -q "of 1034 items (interrupted" int.txt && grep -q "interrupted" int.err &&
  ok "SIGINT: exit 130, $n per-item lines kept, a report of them" || fail "SIGINT: status $st, $n lines, $(cat int.err | tail -3)"
python3 -c "
import json
for l in open('int.jsonl'): json.loads(l)" || fail "an interrupted per-item line is broken"
grep -Eq "^eval: (scoring|timing) [0-9]+/[0-9]+ pairs" int.err && ok "progress lines without a terminal" || fail "no progress lines: $(head -3 int.err)"
"$sqlsim" eval -q --metrics exec --gold g1.sql --pred p1.sql --db-dir one > /dev/null 2> q.err
[ ! -s q.err ] && ok "--quiet: nothing on stderr" || fail "quiet: $(cat q.err)"

# ---- diff: BIS's edits shown as parsed, not as the calibrated score's normalized copies
# (connected.bond_id was printed bond.bond_id, its join partner, once the score had run)
st=$(status "$sqlsim" diff --tables "$corpus/bird/dev_tables.json" --db toxicology \
  "SELECT COUNT(T2.bond_id) FROM bond AS T1 INNER JOIN connected AS T2 ON T1.bond_id = T2.bond_id" \
  "SELECT COUNT(b.bond_id) FROM connected c JOIN bond b ON c.bond_id = b.bond_id")
[ "$st" = 0 ] && grep -q "changed  SELECT     connected.bond_id  ->  bond.bond_id" out.txt &&
  grep -q "calibrated score 1.000" out.txt && ok "diff: the gold's column as written; COUNT of a join key counts rows" ||
  fail "diff: status $st: $(cat out.txt err.txt)"

# ---- diff: a prediction whose normalized form outgrows the diff: BIS, and why there is no score
big=$(python3 -c "print('SELECT name FROM singer WHERE ' + ' AND '.join('age BETWEEN %d AND %d' % (i, i + 1) for i in range(4000)))")
st=$(status "$sqlsim" diff --tables "$S/tables.json" --db concert_singer "SELECT name FROM singer" "$big")
[ "$st" = 0 ] && grep -q "^BIS similarity" out.txt && grep -q "no calibrated score: with the equivalent forms made one" out.txt &&
  ok "diff: no calibrated score past the size bound, and why" || fail "diff past the bound: status $st: $(tail -2 out.txt; cat err.txt)"
st=$(status "$sqlsim" diff --format json --tables "$S/tables.json" --db concert_singer "SELECT name FROM singer" "$big")
got=$(python3 -c "
import json, sys
d = json.load(open('out.txt'))
print(d['score'] is None, 'no calibrated score' in d['error']['message'], d['bis'] > 0)" 2>&1)
[ "$st" = 0 ] && [ "$got" = "True True True" ] && ok "diff --format json: score null with the error" ||
  fail "diff json past the bound: status $st, got '$got'"

# ---- diff --witness: the verdicts, the gold's suite, a witness plain sqlite3 loads and answers with
st=$(status "$sqlsim" diff --witness --tables "$S/tables.json" --db concert_singer \
  "SELECT count(*) FROM singer" "SELECT count(age) FROM singer")
grep -q "^strict fail" out.txt && grep -q "^the gold's suite: [0-9]* databases" out.txt && grep -q "^witness (strict)" out.txt &&
  ok "diff --witness: strict fails, the suite and the witness shown" || fail "diff --witness: status $st: $(cat out.txt err.txt)"
"$sqlsim" diff --witness --format json --tables "$S/tables.json" --db concert_singer \
  "SELECT count(*) FROM singer" "SELECT count(age) FROM singer" > w.json
python3 -c "import json; open('w.sql', 'w').write(json.load(open('w.json'))['witness']['database'])"
got=$(sqlite3 w.db < w.sql && sqlite3 w.db "SELECT count(*) FROM singer; SELECT count(age) FROM singer" | tr '\n' ' ')
want=$(python3 -c "import json; w = json.load(open('w.json'))['witness']; print(w['gold_rows'][0][0], w['pred_rows'][0][0])")
[ "$got" = "$want " ] && ok "diff --witness: sqlite3 loads the witness and answers as it says ($got)" ||
  fail "diff --witness replay: sqlite3 says '$got', the witness '$want'"
st=$(status "$sqlsim" diff --witness "SELECT 1" "SELECT 2")
[ "$st" = 2 ] && grep -q "needs a schema" err.txt && ok "diff --witness without a schema: a usage error" ||
  fail "diff --witness without a schema: status $st: $(cat err.txt)"
st=$(status "$sqlsim" diff --bird --tables "$S/tables.json" --db concert_singer "SELECT 1" "SELECT 2")
[ "$st" = 2 ] && grep -q "goes with --witness" err.txt && ok "diff --bird alone: a usage error" ||
  fail "diff --bird alone: status $st: $(cat err.txt)"
st=$(status "$sqlsim" diff --witness --tables "$S/tables.json" --db concert_singer "SELECT name FROM singer" "SELECT name FROM")
[ "$st" = 0 ] && grep -q "does not parse" out.txt && grep -q "^synth fail" out.txt &&
  ok "diff --witness: an unparseable prediction still runs (and fails)" || fail "diff --witness unparseable: status $st: $(cat out.txt err.txt)"

# ---- --extract: model answers scored by their SQL, in eval and stream
printf 'SELECT count(*) FROM singer\tconcert_singer\n%.0s' 1 2 3 4 5 >ex_gold.sql
printf '%s\n' '<think>count them</think> SELECT count(*) FROM singer' 'Final answer: SELECT count(*) FROM singer;' \
  '<answer>SELECT count(*) FROM singer</answer>' 'SELECT count(*) FROM singer; This counts the singers.' \
  'I do not know.' >ex_pred.sql
st=$(status "$sqlsim" eval --metrics exec --extract --gold ex_gold.sql --pred ex_pred.sql --db-dir "$S/database" --per-item ex.jsonl)
got=$(json_get ex.jsonl 'tuple(x["ex"]["bird"] for x in d)')
[ "$st" = 0 ] && [ "$got" = "1 1 1 1 0" ] && [ "$(json_get ex.jsonl 'd[4]["error"]["message"]')" = "no SQL found in the answer" ] &&
  ok "eval --extract: four answer shapes score as their SQL, no SQL fails and says so" || fail "eval --extract: status $st, got '$got'"
"$sqlsim" eval --metrics exec --gold ex_gold.sql --pred ex_pred.sql --db-dir "$S/database" --per-item ex0.jsonl >/dev/null
[ "$(json_get ex0.jsonl 'tuple(x["ex"]["bird"] for x in d)')" = "0 0 0 0 0" ] && grep -q "model's answer, not SQL" ex0.jsonl &&
  ok "eval without --extract: answers fail, and the error says they are answers" || fail "eval without --extract: $(head -c 300 ex0.jsonl)"
python3 -c "
import json
for a in ['<think>x</think>\n\x60\x60\x60sql\nSELECT count(*) FROM singer\n\x60\x60\x60', '\x60\x60\x60\nSELECT count(*) FROM singer\n\x60\x60\x60']:
    print(json.dumps({'gold': 'SELECT count(*) FROM singer', 'pred': a, 'db_id': 'concert_singer'}))" >ex.in
"$sqlsim" stream --extract --reward --db-dir "$S/database" <ex.in >ex_stream.jsonl
[ "$(json_get ex_stream.jsonl 'tuple(x["reward"] for x in d)')" = "1 1" ] && grep -q '"from":"fence"' ex_stream.jsonl &&
  ok "stream --extract: fenced answers reward 1, the answer's place recorded" || fail "stream --extract: $(cat ex_stream.jsonl)"

# ---- the audit: sqlsim audit and analyze --audit on the bundled Spider files
P=()
for m in dailsql_gpt4 gpt4_fewshot c3sql_gpt35; do P+=(--pred "$S/predictions/$m.sql"); done
before=$(cksum "$S"/database/*/*.sqlite)
st=$(status "$sqlsim" audit -j 2 --gold "$S/dev_gold.sql" --tables "$S/tables.json" --db-dir "$S/database" "${P[@]}" --format json --top 30)
cp out.txt audit.jsonl
got=$(json_get audit.jsonl 'len(d), all(x["flagged"] for x in d), all(d[k]["score"] >= d[k+1]["score"] for k in range(len(d)-1)), all(set(x["kinds"]) == {e["kind"] for e in x["evidence"]} for x in d)')
[ "$st" = 0 ] && [ "$got" = "30 True True True" ] && [ "$(cksum "$S"/database/*/*.sqlite)" = "$before" ] &&
  ok "audit --format json: 30 flagged items ranked, each kind with its evidence, databases unchanged" || fail "audit json: status $st, got '$got'"
st=$(status "$sqlsim" audit --gold "$S/dev_gold.sql" --tables "$S/tables.json" --db-dir "$S/database" "${P[@]}" --top 5)
[ "$st" = 0 ] && grep -q "^audit: 1034 items, 3 systems, answers compared on the items' databases" out.txt &&
  grep -q "EX without the flagged items" out.txt && [ "$(grep -c '^#[0-9]' out.txt)" = 5 ] &&
  ok "audit text: the summary line, 5 items' evidence, each system's EX without the flagged items" || fail "audit text: status $st: $(head -3 out.txt)"
st=$(status "$sqlsim" audit --gold "$S/dev_gold.sql" --tables "$S/tables.json")
[ "$st" = 2 ] && grep -q "with --pred" err.txt && ok "audit without --pred: exit 2, says so" || fail "audit without --pred: status $st"
st=$(status "$sqlsim" audit --gold "$S/dev_gold.sql" --tables "$S/tables.json" "${P[@]}" --format xml)
[ "$st" = 2 ] && grep -q "text or json" err.txt && ok "audit --format xml: exit 2" || fail "audit --format xml: status $st"
head -3 "$S/predictions/dailsql_gpt4.sql" > short.sql
st=$(status "$sqlsim" audit --gold "$S/dev_gold.sql" --tables "$S/tables.json" --pred short.sql)
[ "$st" = 1 ] && grep -q "must pair up" err.txt && ok "audit with a file that does not pair up: exit 1, says why" || fail "audit short file: status $st $(cat err.txt)"
printf 'SELECT 1\tno_such_db\n' > other_gold.sql; printf 'SELECT 1\n' > other_pred.sql
st=$(status "$sqlsim" audit --gold other_gold.sql --tables "$S/tables.json" --pred other_pred.sql)
[ "$st" = 1 ] && grep -q "no gold item's db_id has a schema" err.txt && ok "audit with another benchmark's schemas: exit 1, says so" ||
  fail "audit with no schema for any item: status $st $(cat err.txt)"
# spider2: a folder that names no task scores nothing: exit 1 and says so; one that does: exit 0
mkdir -p s2none s2one && echo "a" > s2none/nothing.csv
cp "$corpus/spider2/gold/exec_result/local002_a.csv" s2one/local002.csv
st=$(status "$sqlsim" spider2 -q --gold "$corpus/spider2/gold" --pred s2none)
[ "$st" = 1 ] && grep -q "names a task" err.txt && ok "spider2 with no prediction naming a task: exit 1, says so" ||
  fail "spider2 scoring nothing: status $st $(cat err.txt)"
st=$(status "$sqlsim" spider2 -q --gold "$corpus/spider2/gold" --pred s2one --format json)
[ "$st" = 0 ] && grep -q '"correct": *1' out.txt && ok "spider2 with a task's own gold: exit 0, correct" ||
  fail "spider2 one task: status $st $(cat out.txt err.txt | head -c 300)"
st=$(status "$sqlsim" analyze -q -j 2 --gold "$S/dev_gold.sql" --tables "$S/tables.json" --db-dir "$S/database" "${P[@]}" --audit --html audit.html --format json)
got=$(python3 -c "import json,sys; d=json.load(open('out.txt'))['benchmarks'][0]['audit']; print(d['summary']['items'], len(d['flagged']) == d['summary']['flagged'])")
[ "$st" = 0 ] && [ "$got" = "1034 True" ] && grep -q '<section class="audit">' audit.html &&
  ok "analyze --audit: the audit in the JSON summary and a section of the HTML report" || fail "analyze --audit: status $st, got '$got'"

st=$(status "$sqlsim" rewrite --sqlite "postgresql:///bird?host=/tmp" "SELECT 1")
[ "$st" = 2 ] && grep -q "proves on SQLite databases only" err.txt && ok "rewrite on a server URL: exit 2, says why" ||
  fail "rewrite on a server URL: status $st $(cat err.txt)"

[ "$fails" = 0 ] && echo "all checks passed" || { echo "$fails checks failed"; exit 1; }

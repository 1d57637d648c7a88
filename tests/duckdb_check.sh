#!/usr/bin/env bash
# duckdb_check.sh -- the DuckDB engine through the command (no server: a
# file): sqlsim load of Spider's databases into DuckDB files, a second load
# refused; the gold scored against itself (EX and Soft F1 1 wherever DuckDB
# runs it); the hostile set (writes, DDL, COPY, files, extensions, settings,
# several statements, runaway recursion, a 12-way cross join, huge results)
# each stopped with its reason, within the limits, every file byte for byte
# unchanged and nothing written beside them; synth and strict judged on
# DuckDB; the stream; Python's Evaluator(engine='duckdb://...').
# usage: duckdb_check.sh SQLSIM SPIDER_DIR WORKDIR [PYTHONPATH]
set -euo pipefail
SQLSIM=$1 SPIDER=$2 WORK=$3 PYPATH=${4:-}
rm -rf "$WORK" && mkdir -p "$WORK/db"
fail() { echo "FAIL: $*"; exit 1; }
URL="duckdb://$WORK/db/{db_id}.duckdb"

"$SQLSIM" load -q --into "$URL" "$SPIDER/database" || fail "load into DuckDB"
[ "$(ls "$WORK/db" | wc -l)" = 19 ] || fail "not 19 DuckDB files: $(ls "$WORK/db")"
if "$SQLSIM" load -q --into "$URL" "$SPIDER/database/singer/singer.sqlite" 2>"$WORK/again.err"; then
  fail "a second load was not refused"
fi
grep -q "exists" "$WORK/again.err" || fail "the refusal does not say the table exists: $(cat "$WORK/again.err")"
echo "ok: Spider's 19 databases loaded into DuckDB files; a second load refused"
sums() { (cd "$WORK/db" && ls -la --time-style=+ | awk '{print $5, $NF}' && md5sum ./*); }
before=$(sums)

# ---- the gold against itself
head -n 200 "$SPIDER/dev_gold.sql" >"$WORK/gold.sql"
cut -f1 "$WORK/gold.sql" >"$WORK/pred.sql"
"$SQLSIM" eval -q --metrics exec,soft_f1 -j 2 --gold "$WORK/gold.sql" --pred "$WORK/pred.sql" --engine "$URL" \
  --per-item "$WORK/self.jsonl" >/dev/null || fail "eval on DuckDB"
python3 - "$WORK/self.jsonl" <<'PY' || exit 1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
scored = [r for r in rows if r.get('ex')]
bad = [r['index'] for r in scored if r['ex']['bird'] != 1 or r['soft_f1'] != 1.0]
if len(scored) < 80 or bad:
    print(f"FAIL: the gold against itself on DuckDB: {len(scored)} scored, not 1 on {bad[:10]}")
    sys.exit(1)
print(f"ok: the gold against itself on DuckDB: EX and Soft F1 1 on all {len(scored)} items it runs")
PY

# ---- hostile predictions
cat >"$WORK/hostile.sql" <<'SQL'
DROP TABLE singer
INSERT INTO singer (singer_id) VALUES (99)
UPDATE singer SET age = 0
CREATE TABLE stolen AS SELECT * FROM singer
COPY singer TO '/tmp/sqlsim-duckdb-stolen.csv'
SELECT * FROM read_csv('/etc/passwd')
SELECT * FROM read_parquet('/tmp/sqlsim-x.parquet')
SELECT * FROM read_text('/etc/passwd')
SELECT * FROM '/etc/passwd'
ATTACH '/tmp/sqlsim-duckdb-other.duckdb' AS o
INSTALL httpfs
LOAD httpfs
SELECT * FROM read_csv('https://example.com/x.csv')
SET enable_external_access = true
SELECT 1; DELETE FROM singer
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r
SELECT a.singer_id FROM singer a, singer b, singer c, singer d, singer e, singer f, singer g, singer h, singer i, singer j, singer k, singer l
SELECT repeat('x', 1000000) FROM range(400)
SELECT * FROM query('SELECT 1')
EXPORT DATABASE '/tmp/sqlsim-duckdb-export'
SQL
n=$(wc -l <"$WORK/hostile.sql")
for _ in $(seq 1 "$n"); do printf 'SELECT 1\tconcert_singer\n'; done >"$WORK/hostile_gold.sql"
start=$(date +%s)
"$SQLSIM" eval -q --metrics exec --timeout 1 -j 2 --gold "$WORK/hostile_gold.sql" --pred "$WORK/hostile.sql" \
  --engine "$URL" --per-item "$WORK/hostile.jsonl" >/dev/null || fail "hostile eval on DuckDB"
took=$(( $(date +%s) - start ))
python3 - "$WORK/hostile.jsonl" "$took" <<'PY' || exit 1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
bad = [(r['index'], r.get('error')) for r in rows if not r.get('error') or r['ex']['bird'] != 0]
if bad:
    print(f"FAIL: hostile predictions on DuckDB not stopped with a reason: {bad}")
    sys.exit(1)
if int(sys.argv[2]) > 120:
    print(f"FAIL: hostile predictions on DuckDB took {sys.argv[2]} s")
    sys.exit(1)
kinds = sorted({r['error']['message'].split(':')[0][:40] for r in rows})
print(f"ok: {len(rows)} hostile predictions on DuckDB stopped in {sys.argv[2]} s: {'; '.join(kinds)}")
PY
for f in /tmp/sqlsim-duckdb-stolen.csv /tmp/sqlsim-duckdb-other.duckdb /tmp/sqlsim-duckdb-export; do
  [ -e "$f" ] && fail "$f was written"
done
after=$(sums)
[ "$before" = "$after" ] || fail "a DuckDB file changed, or one was written beside them"
echo "ok: every DuckDB file byte for byte unchanged, nothing written beside them"

# ---- synth and strict judged on DuckDB (its / divides as doubles)
printf 'SELECT age / 2 FROM singer\tconcert_singer\nSELECT age / 2 FROM singer\tconcert_singer\n' >"$WORK/div_gold.sql"
printf 'SELECT age // 2 FROM singer\nSELECT CAST(age AS DOUBLE) / 2 FROM singer\n' >"$WORK/div_pred.sql"
"$SQLSIM" eval -q --metrics strict --gold "$WORK/div_gold.sql" --pred "$WORK/div_pred.sql" \
  --tables "$SPIDER/tables.json" --engine "$URL" --per-item "$WORK/div.jsonl" >/dev/null || fail "strict on DuckDB"
python3 - "$WORK/div.jsonl" <<'PY' || exit 1
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
if [x.get('strict') for x in r] != [False, True]:
    print(f"FAIL: strict on DuckDB: {[(x.get('strict'), x.get('strict_why')) for x in r]}")
    sys.exit(1)
print("ok: strict judged on DuckDB: age / 2 against age // 2 refuted, against CAST(age AS DOUBLE) / 2 not")
PY

# ---- stream and Python
printf '{"gold":"SELECT count(*) FROM singer","pred":"SELECT count(*) FROM singer AS s","db_id":"concert_singer"}\n' |
  "$SQLSIM" stream --metrics exec --engine "$URL" >"$WORK/stream.out"
grep -q '"bird":1' "$WORK/stream.out" || fail "stream on DuckDB: $(cat "$WORK/stream.out")"
echo "ok: stream on DuckDB"
if [ -n "$PYPATH" ]; then
  PYTHONPATH=$PYPATH python3 - "$URL" <<'PY' || fail "Python on DuckDB"
import sys, sqlsim
ev = sqlsim.Evaluator(engine=sys.argv[1], metrics="exec,soft_f1", semantics="bird")
r = ev.score("SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age >= 31", "concert_singer")
assert r["ex"]["bird"] == 1 and r["soft_f1"] == 1.0, r
print("ok: Python's Evaluator(engine='duckdb://...')")
PY
fi

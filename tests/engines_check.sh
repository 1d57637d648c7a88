#!/usr/bin/env bash
# engines_check.sh -- the server engines through the command, on the
# throwaway servers of the "servers" fixture (SQLSIM_SERVERS_DIR):
#   - sqlsim load of Spider's databases into both; a second load refused, --replace taking it;
#   - the gold scored against itself on both: EX and Soft F1 1 wherever the gold runs;
#   - hostile predictions (writes, DDL, settings, files, several statements, sleep, recursion,
#     a 12-way cross join, huge results) each stopped with its reason, within the limits, and
#     every database byte-for-byte unchanged (a dump's checksum before and after);
#   - a password in the URL never printed; a server that is not there an error;
#   - stream and Python's Evaluator(engine=...) on a server.
# usage: engines_check.sh SQLSIM SPIDER_DIR WORKDIR [PYTHONPATH]
set -euo pipefail
SQLSIM=$1 SPIDER=$2 WORK=$3 PYPATH=${4:-}
[ -n "${SQLSIM_SERVERS_DIR:-}" ] || { echo "engines_check: SQLSIM_SERVERS_DIR is not set (run through ctest)"; exit 1; }
S=$SQLSIM_SERVERS_DIR
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PG_ADMIN="postgresql://sqlsim@/{db_id}?host=$S" PG="postgresql://reader@/{db_id}?host=$S"
MY_ADMIN="mysql://root@/{db_id}?socket=$S/my.sock" MY="mysql://reader@/{db_id}?socket=$S/my.sock"
rm -rf "$WORK" && mkdir -p "$WORK"
fail() { echo "FAIL: $*"; exit 1; }

# ---- loading
for url in "$PG_ADMIN" "$MY_ADMIN"; do
  "$SQLSIM" load -q --replace --into "$url" "$SPIDER/database" || fail "load into $url"
  if "$SQLSIM" load -q --into "$url" "$SPIDER/database/singer/singer.sqlite" 2>"$WORK/again.err"; then
    fail "a second load into $url was not refused"
  fi
  grep -q "exists" "$WORK/again.err" || fail "the refusal does not say the table exists: $(cat "$WORK/again.err")"
done
echo "ok: Spider's 19 databases loaded into both servers; a second load refused"

dumps() { # a checksum of every database of both servers (the dump kept in $1)
  for d in concert_singer singer world_1 car_1 pets_1; do
    # (pg_dump writes a random \restrict key each time: not the data)
    "$PGBIN/pg_dump" -h "$S" -U sqlsim -d "$d" --no-owner 2>/dev/null | grep -v '^\\\(un\)\?restrict '
    mariadb-dump --no-defaults -S "$S/my.sock" -uroot --skip-dump-date --databases "$d" 2>/dev/null
  done >"$1"
  md5sum <"$1" | cut -d' ' -f1
}
before=$(dumps "$WORK/before.dump")

# ---- the gold against itself
head -n 200 "$SPIDER/dev_gold.sql" >"$WORK/gold.sql"
cut -f1 "$WORK/gold.sql" >"$WORK/pred.sql"
for e in "$PG" "$MY"; do
  "$SQLSIM" eval -q --metrics exec,soft_f1 -j 2 --gold "$WORK/gold.sql" --pred "$WORK/pred.sql" --engine "$e" \
    --per-item "$WORK/self.jsonl" >/dev/null || fail "eval on $e"
  python3 - "$WORK/self.jsonl" "$e" <<'EOF' || exit 1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
scored = [r for r in rows if r.get('ex')]
bad = [r['index'] for r in scored if r['ex']['bird'] != 1 or r['soft_f1'] != 1.0]
if len(scored) < 100 or bad:
    print(f"FAIL: the gold against itself on {sys.argv[2]}: {len(scored)} scored, not 1 on {bad[:10]}")
    sys.exit(1)
print(f"ok: the gold against itself on {sys.argv[2].split(':')[0]}: EX and Soft F1 1 on all {len(scored)} items it runs")
EOF
done

# ---- hostile predictions
hostile() { # one prediction a line, each against the gold SELECT 1 of concert_singer
  local kind=$1 out=$2
  if [ "$kind" = pg ]; then
    cat <<'EOF'
DROP TABLE singer
INSERT INTO singer (singer_id) VALUES (99)
WITH x AS (DELETE FROM singer RETURNING *) SELECT * FROM x
SELECT * INTO stolen FROM singer
SELECT set_config('default_transaction_read_only', 'off', false)
SELECT pg_read_file('/etc/passwd')
SELECT 1; DELETE FROM singer
SELECT pg_sleep(30)
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r
SELECT count(*) FROM singer a, singer b, singer c, singer d, singer e, singer f, singer g, singer h, singer i, singer j, singer k, singer l
SELECT repeat('x', 1000000) FROM generate_series(1, 400)
TRUNCATE singer
EOF
  else
    cat <<'EOF'
DROP TABLE singer
INSERT INTO singer (singer_id) VALUES (99)
UPDATE singer SET age = 0
SELECT * FROM singer INTO OUTFILE '/tmp/sqlsim-stolen'
SELECT LOAD_FILE('/etc/passwd')
SELECT 1; DELETE FROM singer
SELECT SLEEP(30)
SELECT BENCHMARK(100000000000, MD5('x'))
SELECT count(*) FROM singer a, singer b, singer c, singer d, singer e, singer f, singer g, singer h, singer i, singer j, singer k, singer l
SELECT REPEAT('x', 1000000) FROM seq_1_to_400
SELECT GET_LOCK('x', 10)
TRUNCATE singer
EOF
  fi >"$out"
}
for kind in pg my; do
  url=$PG
  [ $kind = my ] && url=$MY
  hostile $kind "$WORK/hostile.sql"
  n=$(wc -l <"$WORK/hostile.sql")
  for _ in $(seq 1 "$n"); do printf 'SELECT 1\tconcert_singer\n'; done >"$WORK/hostile_gold.sql"
  start=$(date +%s)
  "$SQLSIM" eval -q --metrics exec --timeout 1 -j 2 --gold "$WORK/hostile_gold.sql" --pred "$WORK/hostile.sql" \
    --engine "$url" --per-item "$WORK/hostile.jsonl" >/dev/null || fail "hostile eval on $kind"
  took=$(( $(date +%s) - start ))
  python3 - "$WORK/hostile.jsonl" "$kind" "$took" <<'EOF' || exit 1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
bad = [(r['index'], r.get('error')) for r in rows if not r.get('error') or r['ex']['bird'] != 0]
if bad:
    print(f"FAIL: hostile predictions on {sys.argv[2]} not stopped with a reason: {bad}")
    sys.exit(1)
if int(sys.argv[3]) > 120:
    print(f"FAIL: hostile predictions on {sys.argv[2]} took {sys.argv[3]} s")
    sys.exit(1)
kinds = sorted({r['error']['message'].split(':')[0][:40] for r in rows})
print(f"ok: {len(rows)} hostile predictions on {sys.argv[2]} stopped in {sys.argv[3]} s: {'; '.join(kinds)}")
EOF
done
[ -e /tmp/sqlsim-stolen ] && fail "a file was written on the server"
after=$(dumps "$WORK/after.dump")
[ "$before" = "$after" ] || fail "a database changed: dump checksum $before before, $after after (diff $WORK/before.dump $WORK/after.dump)"
echo "ok: every database byte-for-byte unchanged (dump checksum $before)"

# ---- the password, a server that is not there
if "$SQLSIM" eval -q --metrics exec --gold "$WORK/gold.sql" --pred "$WORK/pred.sql" \
    --engine "postgresql://ann:hunter2@/{db_id}?host=$S/nothing-here" >"$WORK/nosrv.out" 2>&1; then
  fail "a server that is not there did not fail the run"
fi
grep -q hunter2 "$WORK/nosrv.out" && fail "the password was printed: $(cat "$WORK/nosrv.out")"
grep -q "ann:\*\*\*@" "$WORK/nosrv.out" || fail "the error does not name the server: $(cat "$WORK/nosrv.out")"
echo "ok: a server that is not there: exit 1, the URL shown without its password"

# ---- stream and Python
printf '{"gold":"SELECT count(*) FROM singer","pred":"SELECT count(*) FROM singer AS s","db_id":"concert_singer"}\n' |
  "$SQLSIM" stream --metrics exec --engine "$PG" >"$WORK/stream.out"
grep -q '"bird":1' "$WORK/stream.out" || fail "stream on PostgreSQL: $(cat "$WORK/stream.out")"
echo "ok: stream on PostgreSQL"
if [ -n "$PYPATH" ]; then
  PYTHONPATH=$PYPATH python3 - "$MY" <<'EOF' || fail "Python on MySQL"
import sys, sqlsim
ev = sqlsim.Evaluator(engine=sys.argv[1], metrics="exec,soft_f1", semantics="bird")
r = ev.score("SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age >= 31", "concert_singer")
assert r["ex"]["bird"] == 1 and r["soft_f1"] == 1.0, r
assert "reader@" in repr(ev), repr(ev)
print("ok: Python's Evaluator(engine=...) on MySQL")
EOF
fi

#!/usr/bin/env bash
# dialect_check.sh -- judging without the data in the engine's semantics
# (issue 46): pairs whose answers differ between SQLite and a server
# (tests/data/dialects/pairs.tsv: integer division, a date cast, collation,
# NULLs' order, GROUP BY's rules, and two controls) get, from strict, the
# verdict each engine's own answers give: on SQLite's generated databases,
# and on the same databases loaded into PostgreSQL and MariaDB (synth's
# mirror, over tables made like the real ones sqlsim load wrote).
# usage: dialect_check.sh SQLSIM DATA_DIR WORKDIR   (SQLSIM_SERVERS_DIR set by the fixture)
set -euo pipefail
SQLSIM=$1 DATA=$2 WORK=$3
S=${SQLSIM_SERVERS_DIR:?run through ctest (its servers fixture)}
rm -rf "$WORK" && mkdir -p "$WORK/dialects"
# the real database the servers hold (its types: what the mirror's tables are made like)
sqlite3 "$WORK/dialects/dialects.sqlite" <<'SQL'
CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER, y INTEGER, name TEXT, d DATE, a INTEGER);
INSERT INTO t VALUES (1, 7, 2, 'Abc', '2019-05-01', 3), (2, -7, 2, 'abc', '2018-12-31', NULL), (3, 9, 3, 'x', '2020-01-01', 1);
SQL
"$SQLSIM" load -q --replace --into "postgresql://sqlsim@/{db_id}?host=$S" "$WORK/dialects/dialects.sqlite"
"$SQLSIM" load -q --replace --into "mysql://root@/{db_id}?socket=$S/my.sock" "$WORK/dialects/dialects.sqlite"
grep -v '^#' "$DATA/pairs.tsv" | cut -f1 | sed 's/$/\tdialects/' >"$WORK/gold.sql"
grep -v '^#' "$DATA/pairs.tsv" | cut -f2 >"$WORK/pred.sql"
col=3 failed=0
for engine in sqlite "postgresql://reader@/{db_id}?host=$S" "mysql://reader@/{db_id}?socket=$S/my.sock"; do
  args=(--tables "$DATA/tables.json")
  [ "$engine" != sqlite ] && args+=(--engine "$engine")
  "$SQLSIM" eval -q --metrics strict "${args[@]}" --gold "$WORK/gold.sql" --pred "$WORK/pred.sql" \
    --per-item "$WORK/items.jsonl" >/dev/null
  name=${engine%%:*}
  python3 - "$WORK/items.jsonl" "$DATA/pairs.tsv" "$col" "$name" <<'PY' || failed=1
import json, sys
items = [json.loads(l) for l in open(sys.argv[1])]
pairs = [l.rstrip('\n').split('\t') for l in open(sys.argv[2]) if not l.startswith('#')]
col, name, bad = int(sys.argv[3]) - 1, sys.argv[4], 0
for it, p in zip(items, pairs):
    got = {True: 'pass', False: 'fail', None: 'none'}[it.get('strict')]
    if got != p[col]:
        bad += 1
        print(f"FAIL: {name}: {p[5]}: strict {got}, expected {p[col]} ({it.get('strict_why') or it.get('synth_why')})")
if not bad:
    print(f"ok: {name}: the {len(pairs)} pairs judged as {name} answers them")
sys.exit(1 if bad else 0)
PY
  col=$((col + 1))
done
exit $failed

#!/usr/bin/env bash
# analyze_check.sh -- the categories `sqlsim analyze` gives when it executes:
# structure and execution facts together (correct, correct written another way,
# empty result, execution error, dialect error, unparseable), on a small database
# built here; and the database is byte for byte the same afterwards (one of the
# predictions is a DELETE).
# usage: analyze_check.sh SQLSIM_BINARY DATA_DIR WORK_DIR
set -euo pipefail
sqlsim=$1 data=$2 work=$3
command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is not installed: skipped"; exit 77; }
mkdir -p "$work"
rm -f "$work/t.sqlite"
sqlite3 "$work/t.sqlite" < "$data/db.sql"
before=$(cksum < "$work/t.sqlite")
"$sqlsim" analyze --gold "$data/gold.sql" --sqlite "$work/t.sqlite" --pred "$data/pred.sql" \
  --per-item "$work/items.jsonl" --csv "$work/items.csv" > "$work/report.txt"
after=$(cksum < "$work/t.sqlite")
[ "$before" = "$after" ] || { echo "FAIL: the database was modified"; exit 1; }
# index and categories of each JSON line, without a JSON tool: the fields are flat
sed -E 's/.*"index":([0-9]+).*"categories":\[([^]]*)\].*/\1 \2/; s/[",]+/ /g; s/ +/ /g; s/ $//' \
  "$work/items.jsonl" > "$work/got.txt"
diff -u "$data/expected.txt" "$work/got.txt" || { echo "FAIL: categories differ"; exit 1; }
# the CSV has a header and one row per item
rows=$(($(wc -l < "$work/items.csv") - 1))
[ "$rows" = "$(wc -l < "$data/expected.txt")" ] || { echo "FAIL: CSV has $rows rows"; exit 1; }
echo "ok: $(wc -l < "$work/got.txt") items, database unchanged"

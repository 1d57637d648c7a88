#!/usr/bin/env bash
# literal_edges.sh -- numeric literals at and past the ends of 64-bit integers
# and doubles, in every clause that reads a literal's value, through the sqlsim
# command: eval (match, bis, synth; exec and result on a database), analyze,
# stream, diff and rewrite. A literal's text became a number in many places
# (the equivalent forms, the synthetic generator's ranges, LIMIT and OFFSET in
# the tie test), and casting a double past long long's range, or adding past
# it, is undefined behaviour: 1e91 reached one such cast (issue 36).
#
#   literal_edges.sh SQLSIM WORKDIR
#
# Every run must end with a status below 128 and one record per item, and
# print no sanitizer report: in the sanitizer build (ASan + UBSan with
# float-cast-overflow, CMakeLists.txt) a report fails the case, in the release
# build a crash does.
set -uo pipefail
SQLSIM=$1
WORK=$2
command -v sqlite3 >/dev/null || { echo "literal_edges: sqlite3 is not installed"; exit 77; }
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

LITS=(9223372036854775807 9223372036854775808 -9223372036854775808 -9223372036854775809
  18446744073709551615 18446744073709551616 99999999999999999999999999999999 1e19 -1e19 1e91 -1e91
  1.8e308 1e309 -1e309 1e-400 4e-320 9007199254740993.0 2147483648 -2147483649 4294967296
  0x7fffffffffffffff 0x8000000000000000 0xffffffffffffffff 0x10000000000000000 29.00 -0.0)
# {L} a literal; {B} the literal's digits inside a quoted date or text
CTX=("SELECT {L}" "SELECT -{L}" "SELECT name FROM t WHERE id = {L}" "SELECT name FROM t WHERE id >= {L}"
  "SELECT name FROM t WHERE id <= {L}" "SELECT name FROM t WHERE id > -{L} AND id < {L}"
  "SELECT name FROM t WHERE score < -{L} OR score > {L}" "SELECT name FROM t WHERE score BETWEEN -{L} AND {L}"
  "SELECT name FROM t LIMIT {L}" "SELECT name FROM t ORDER BY id LIMIT {L} OFFSET {L}"
  "SELECT name FROM t ORDER BY score DESC LIMIT 1 OFFSET {L}" "SELECT id FROM t GROUP BY id HAVING count(*) > {L}"
  "SELECT name FROM t GROUP BY name HAVING sum(score) = {L}" "SELECT name FROM t WHERE id IN ({L}, 1)"
  "SELECT name FROM t WHERE id NOT IN ({L})" "SELECT substr(name, {L}, {L}) FROM t" "SELECT id + {L}, id * {L} FROM t"
  "SELECT id / {L}, id % {L} FROM t" "SELECT CAST({L} AS INTEGER), round(score, {L}) FROM t"
  "SELECT name FROM t ORDER BY {L}" "SELECT max(id) - {L} FROM t"
  "SELECT name FROM t WHERE id = (SELECT tid FROM u ORDER BY v LIMIT {L})"
  "SELECT name FROM t JOIN u ON t.id = u.tid WHERE u.v <= -{L} OR u.v >= {L}"
  "SELECT name FROM t WHERE id = {L} UNION SELECT name FROM t WHERE id < {L}"
  "SELECT name FROM t WHERE strftime('%Y', d) > '{B}'" "SELECT name FROM t WHERE d BETWEEN '{B}-01-01' AND '{B}-12-31'"
  "SELECT name FROM t WHERE substr(d, 1, 4) = '{B}'" "SELECT name FROM t WHERE name = '{B}' OR name > '-{B}'")

printf '[{"db_id": "main", "table_names_original": ["t", "u"], "table_names": ["t", "u"],
  "column_names_original": [[-1, "*"], [0, "id"], [0, "name"], [0, "score"], [0, "d"], [1, "uid"], [1, "tid"], [1, "v"]],
  "column_names": [[-1, "*"], [0, "id"], [0, "name"], [0, "score"], [0, "d"], [1, "uid"], [1, "tid"], [1, "v"]],
  "column_types": ["text", "number", "text", "number", "time", "number", "number", "number"],
  "primary_keys": [1, 5], "foreign_keys": [[6, 1]]}]\n' >tables.json
sqlite3 main.sqlite "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL, d TEXT);
  CREATE TABLE u (uid INTEGER PRIMARY KEY, tid INTEGER REFERENCES t (id), v INTEGER);
  INSERT INTO t VALUES (1, 'a', 1.5, '2020-01-01'), (2, 'b', NULL, '2021-05-05'), (3, 'c', -2, NULL);
  INSERT INTO u VALUES (1, 1, 5), (2, 2, 7), (3, NULL, 9223372036854775807);"
sum_before=$(sha256sum main.sqlite)

# Each context with each literal: (edge, 1), (1, edge) and (edge, edge).
: >gold.sql
: >pred.sql
: >pairs.tsv
for c in "${CTX[@]}"; do
  for l in "${LITS[@]}"; do
    b=${l#-}
    e=${c//\{L\}/$l}
    e=${e//\{B\}/$b}
    o=${c//\{L\}/1}
    o=${o//\{B\}/2001}
    printf '%s\tmain\n%s\tmain\n%s\tmain\n' "$e" "$o" "$e" >>gold.sql
    printf '%s\n%s\n%s\n' "$o" "$e" "$e" >>pred.sql
    printf '%s\t%s\n' "$e" "$o" >>pairs.tsv
  done
done
items=$(wc -l <gold.sql)

# check NAME STATUS STDERR [JSONL EXPECTED-LINES]
check() {
  local name=$1 code=$2 err=$3
  if [ "$code" -ge 128 ]; then
    fail "$name: killed by signal $((code - 128)): $(grep -m1 -E 'runtime error|Sanitizer' "$err" | head -c 300)"
  elif grep -q -E 'runtime error|Sanitizer' "$err"; then
    fail "$name: $(grep -m1 -E 'runtime error|Sanitizer' "$err" | head -c 300)"
  elif [ $# -ge 5 ] && [ "$(wc -l <"$4")" != "$5" ]; then
    fail "$name: $(wc -l <"$4") records for $5 items"
  else
    echo "ok   $name"
  fi
}

"$SQLSIM" eval -q --metrics match,bis,synth --tables tables.json --gold gold.sql --pred pred.sql \
  --per-item out1.jsonl >/dev/null 2>err1
check "eval match,bis,synth ($items pairs)" $? err1 out1.jsonl "$items"
"$SQLSIM" eval -q --mode corrected --metrics match,bis,synth --tables tables.json --gold gold.sql --pred pred.sql \
  --per-item out2.jsonl >/dev/null 2>err2
check "eval match,bis,synth in corrected mode" $? err2 out2.jsonl "$items"
"$SQLSIM" eval -q --metrics exec,result,bis,synth --timeout 2 --sqlite main.sqlite --gold gold.sql --pred pred.sql \
  --per-item out3.jsonl >/dev/null 2>err3
check "eval exec,result,bis,synth on a database" $? err3 out3.jsonl "$items"
"$SQLSIM" analyze -q --gold gold.sql --tables tables.json --pred pred.sql --per-item out4.jsonl >/dev/null 2>err4
check "analyze without a database" $? err4 out4.jsonl "$items"
"$SQLSIM" analyze -q --gold gold.sql --sqlite main.sqlite --pred pred.sql --per-item out5.jsonl >/dev/null 2>err5
check "analyze with a database" $? err5 out5.jsonl "$items"

# The stream protocol: the pairs both ways, and a gold alone (the fuzzer's find:
# {"gold":"SELECT 1e91","pred":""}).
awk -F'\t' '{ for (i = 1; i <= 2; i++) { gsub(/"/, "\\\"", $i) }
  printf "{\"gold\":\"%s\",\"pred\":\"%s\",\"db_id\":\"main\"}\n{\"gold\":\"%s\",\"pred\":\"%s\",\"db_id\":\"main\"}\n{\"gold\":\"%s\",\"pred\":\"\"}\n", $1, $2, $2, $1, $1 }' \
  pairs.tsv >req.jsonl
nreq=$(wc -l <req.jsonl)
"$SQLSIM" stream --metrics match,bis,synth,categories --tables tables.json <req.jsonl >out6.jsonl 2>err6
check "stream match,bis,synth,categories ($nreq requests)" $? err6 out6.jsonl "$nreq"
"$SQLSIM" stream --reward --sqlite main.sqlite <req.jsonl >out7.jsonl 2>err7
check "stream --reward on a database" $? err7 out7.jsonl "$nreq"

# diff and rewrite: one process a pair, so a diagonal of the pairs (the next
# literal in the next context: every literal and every context at least once)
# and 1e91 in every context.
: >err8
: >err9
n=-1
bad8=0
bad9=0
nl=${#LITS[@]}
while IFS=$'\t' read -r g p; do
  n=$((n + 1))
  [ $((n % (nl + 1))) = 0 ] || [ "${LITS[$((n % nl))]}" = 1e91 ] || continue
  "$SQLSIM" diff --tables tables.json "$g" "$p" >/dev/null 2>>err8
  code=$?
  [ "$code" -lt 128 ] || bad8=$code
  "$SQLSIM" diff --format json --sqlite main.sqlite "$p" "$g" >/dev/null 2>>err8
  code=$?
  [ "$code" -lt 128 ] || bad8=$code
  "$SQLSIM" rewrite --sqlite main.sqlite --timeout 2 "$g" >/dev/null 2>>err9
  code=$?
  [ "$code" -lt 128 ] || bad9=$code
done <pairs.tsv
check "diff, text and JSON" "$bad8" err8
check "rewrite" "$bad9" err9

[ "$sum_before" = "$(sha256sum main.sqlite)" ] || fail "the database changed"
echo "== literal edges: ${#LITS[@]} literals x ${#CTX[@]} contexts, $fails failures"
[ "$fails" = 0 ]

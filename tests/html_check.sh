#!/usr/bin/env bash
# html_check.sh -- the analysis report in a real browser.
# Runs `sqlsim analyze` over the corpus's Spider prediction files (with execution),
# loads the HTML report in headless Chromium, and checks that it rendered every row
# of the item table without a JavaScript error, then takes a screenshot and checks it
# is a real image of the page. Exit 77 (skipped) when Chromium is not installed.
# usage: html_check.sh SQLSIM_BINARY SPIDER_CORPUS_DIR WORK_DIR
set -euo pipefail
sqlsim=$1 corpus=$2 work=$3
command -v chromium >/dev/null 2>&1 || { echo "chromium is not installed: skipped"; exit 77; }
mkdir -p "$work"
preds=()
for f in "$corpus"/predictions/*.sql; do preds+=(--pred "$f"); done
"$sqlsim" analyze -j 2 --gold "$corpus/dev_gold.sql" --tables "$corpus/tables.json" \
  --db-dir "$corpus/database" "${preds[@]}" --html "$work/report.html" --per-item "$work/items.jsonl" >/dev/null
expected=$(wc -l < "$work/items.jsonl")
# each Chromium run gets a profile of its own: a second run on the profile of
# the first (whose helpers may still hold it) can hand over to that session
# and never take its screenshot
rm -rf "$work/profile-dom" "$work/profile-shot"
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync)
timeout 180 chromium "${flags[@]}" --user-data-dir="$work/profile-dom" --virtual-time-budget=30000 \
  --enable-logging=stderr --v=0 \
  --dump-dom "file://$work/report.html" > "$work/dom.html" 2> "$work/console.log" || true
body=$(grep -o '<body[^>]*>' "$work/dom.html" | head -1)
echo "rendered: $body (expected $expected rows)"
case "$body" in
  *"data-ready=\"1\""*) ;;
  *) echo "FAIL: the page did not finish rendering"; exit 1 ;;
esac
case "$body" in *"data-errors=\"0\""*) ;; *) echo "FAIL: JavaScript errors"; exit 1 ;; esac
case "$body" in *"data-rows=\"$expected\""*) ;; *) echo "FAIL: the table does not have $expected rows"; exit 1 ;; esac
if grep -q 'CONSOLE.*\(Uncaught\|Error\)' "$work/console.log"; then
  grep 'CONSOLE' "$work/console.log" | head -5
  echo "FAIL: console errors"; exit 1
fi
rm -f "$work/report.png"
timeout 180 chromium "${flags[@]}" --user-data-dir="$work/profile-shot" --window-size=1400,1400 --virtual-time-budget=30000 \
  --screenshot="$work/report.png" "file://$work/report.html#open=13" >/dev/null 2>&1 || true
[ -s "$work/report.png" ] || { echo "FAIL: no screenshot"; exit 1; }
size=$(stat -c %s "$work/report.png")
# a blank 1400x1400 page compresses to a few KB; the rendered report is well over 50 KB
[ "$size" -gt 50000 ] || { echo "FAIL: the screenshot ($size bytes) looks blank"; exit 1; }
head -c 8 "$work/report.png" | od -An -tx1 | grep -q "89 50 4e 47" || { echo "FAIL: not a PNG"; exit 1; }
echo "ok: $expected rows, no errors, screenshot $size bytes at $work/report.png"

# The evidence (--witness, --repair): structure and generated databases only, one
# file; the first wrong row with a witness and a repair opened, the witness's
# tables, both answers and the repair drawn.
"$sqlsim" analyze -q -j 2 --witness --repair --gold "$corpus/dev_gold.sql" --tables "$corpus/tables.json" \
  --pred "$corpus/predictions/gpt4_zeroshot.sql" --html "$work/witness.html" --per-item "$work/witness.jsonl" >/dev/null
row=$(python3 -c "
import json, sys
for i, l in enumerate(open(sys.argv[1])):
    r = json.loads(l)
    w = r.get('witness')
    if w and w['database'] and r['repair'] and r['repair']['sql']: print(i, w['gold_count']); break
" "$work/witness.jsonl")
[ -n "$row" ] || { echo "FAIL: no item with a witness and a repair"; exit 1; }
set -- $row
rm -rf "$work/profile-wit"
timeout 180 chromium "${flags[@]}" --user-data-dir="$work/profile-wit" --virtual-time-budget=30000 \
  --dump-dom "file://$work/witness.html#open=$1" > "$work/witness-dom.html" 2>/dev/null || true
grep -q 'data-errors="0"' "$work/witness-dom.html" || { echo "FAIL: JavaScript errors with witnesses"; exit 1; }
grep -q '<b>Evidence</b> (s[a-z]*): a database of' "$work/witness-dom.html" || { echo "FAIL: row $1's evidence not drawn"; exit 1; }
grep -q "<caption>gold: $2 row" "$work/witness-dom.html" || { echo "FAIL: row $1's gold answer ($2 rows) not drawn"; exit 1; }
grep -q '<b>Repair</b>: the prediction with these parts fixed' "$work/witness-dom.html" || { echo "FAIL: row $1's repair not drawn"; exit 1; }
echo "ok: row $1's witness drawn (its tables, the gold's answer of $2 rows and the prediction's) and its repair"

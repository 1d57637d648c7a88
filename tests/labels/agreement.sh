#!/usr/bin/env bash
# agreement.sh -- runs `sqlsim analyze` on the 13 bundled BIRD mini-dev files
# (no database: structure and synthetic execution) and measures its agreement
# with the hand labels (agreement.py). The floors are the figures measured when
# the labels were written (tests/labels/README.md); a change that lowers one fails.
# usage: agreement.sh SQLSIM SOURCE_DIR WORK_DIR
set -euo pipefail
sqlsim=$1 src=$2 work=$3
command -v python3 >/dev/null 2>&1 || { echo "python3 is not installed: skipped"; exit 77; }
mkdir -p "$work"
preds=()
for f in "$src"/corpus/bird/mini_dev_predictions/*.json; do preds+=(--pred "$f"); done
"$sqlsim" analyze -q -j 2 --gold "$src/corpus/bird/mini_dev_sqlite.json" --tables "$src/corpus/bird/dev_tables.json" \
  "${preds[@]}" --per-item "$work/items.jsonl" > /dev/null
echo "== the 130 pairs the rules were written against (bird_minidev.tsv)"
python3 "$src/tests/labels/agreement.py" "$sqlsim" "$src/tests/labels/bird_minidev.tsv" "$work/items.jsonl" \
  --floor 76 86 1.65 86
echo "== the 40 held-out pairs (bird_minidev_heldout.tsv)"
python3 "$src/tests/labels/agreement.py" "$sqlsim" "$src/tests/labels/bird_minidev_heldout.tsv" "$work/items.jsonl" \
  --floor 84 89 1.7 90
echo "== the 60 pairs of the second held-out set (bird_minidev_heldout2.tsv)"
python3 "$src/tests/labels/agreement.py" "$sqlsim" "$src/tests/labels/bird_minidev_heldout2.tsv" "$work/items.jsonl" \
  --floor 77 88 1.65 88

#!/usr/bin/env python3
"""Draws the labelled sample of BIRD mini-dev pairs (tests/labels/README.md).

Prints one block per pair (model, index, question, evidence, gold, prediction)
for a person to read; the labels are written by hand into bird_minidev.tsv.
Deterministic: random.Random(20261123) over every (model, item) pair of the
13 bundled baseline files."""
import glob, json, os, random, sys

root = os.path.join(os.path.dirname(__file__), "..", "..", "corpus", "bird")
gold = json.load(open(os.path.join(root, "mini_dev_sqlite.json")))
files = sorted(glob.glob(os.path.join(root, "mini_dev_predictions", "*.json")))
pairs = []
for f in files:
    model = os.path.basename(f)[len("predict_mini_dev_"):].rsplit("_", 1)[0]
    preds = json.load(open(f))
    for k in range(len(gold)):
        pairs.append((model, k, preds[str(k)].split("\t----- bird -----\t")[0]))
n = int(sys.argv[1]) if len(sys.argv) > 1 else 130
for model, k, pred in random.Random(20261123).sample(pairs, n):
    g = gold[k]
    print(f"=== {model}\t{k}\t{g['db_id']}\t{g['difficulty']}")
    print("Q:", g["question"])
    print("E:", g["evidence"])
    print("G:", " ".join(g["SQL"].split()))
    print("P:", " ".join(pred.split()))

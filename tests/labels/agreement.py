#!/usr/bin/env python3
"""Agreement of `sqlsim analyze` (structure and synthetic execution, no
database) with the hand labels of bird_minidev.tsv (README.md).

usage: agreement.py SQLSIM LABELS ITEMS_JSONL [--floor MAIN AMONG PER_ITEM CORRECT] [-v]
ITEMS_JSONL is written by the caller (`sqlsim analyze --per-item` over the 13
bundled BIRD mini-dev files). Prints the four figures of issue 17; with
--floor, exits 1 when one is worse than the floor given (per item: above)."""
import json, sys

args = sys.argv[1:]
verbose = '-v' in args
args = [a for a in args if a != '-v']
floor = None
if '--floor' in args:
    i = args.index('--floor')
    floor = [float(x) for x in args[i + 1:i + 5]]
    args = args[:i] + args[i + 5:]
labels_path, items_path = args[1], args[2]
labels = {}
for line in open(labels_path, encoding='utf-8'):
    if line.startswith('#') or not line.strip():
        continue
    f = line.rstrip('\n').split('\t')
    labels[(f[0], int(f[1]))] = (f[2], f[3], f[4] if len(f) > 4 else '')
got = {}
for line in open(items_path, encoding='utf-8'):
    r = json.loads(line)
    m = r['model']
    if m.startswith('predict_mini_dev_'):
        m = m[len('predict_mini_dev_'):]
    got[(m.rsplit('_', 1)[0], r['index'])] = r
wrong = main_ok = among = ncat = corr = corr_ok = 0
for k, (verdict, main, note) in sorted(labels.items()):
    r = got.get(k)
    if r is None:
        sys.exit(f'no line for {k} in {items_path}')
    cats = r['categories']
    if verdict == 'wrong':
        wrong += 1
        ncat += len(cats)
        main_ok += r['category'] == main
        among += main in cats
        if verbose and r['category'] != main:
            print(f'{k[0]} #{k[1]}: label {main}, sqlsim {cats} | {note}')
    else:
        corr += 1
        ok = r['category'] in ('correct', 'correct_other_form')
        corr_ok += ok
        if verbose and not ok:
            print(f'{k[0]} #{k[1]}: judged correct, sqlsim {cats} | {note}')
fig = [100 * main_ok / wrong, 100 * among / wrong, ncat / wrong, 100 * corr_ok / corr]
print(f'{len(labels)} labelled pairs: {wrong} wrong, {corr} correct')
print(f'wrong items: main category = the label {main_ok}/{wrong} ({fig[0]:.1f}%), label among the categories '
      f'{among}/{wrong} ({fig[1]:.1f}%), {fig[2]:.2f} categories per item')
print(f'correct items: called correct or correct_other_form {corr_ok}/{corr} ({fig[3]:.1f}%)')
if floor:
    bad = fig[0] < floor[0] or fig[1] < floor[1] or fig[2] > floor[2] or fig[3] < floor[3]
    if bad:
        print(f'FAIL: below the floor {floor}')
        sys.exit(1)

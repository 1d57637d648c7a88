#!/usr/bin/env python3
"""Agreement of `sqlsim analyze` with people's judgements of BIRD dev predictions:
the NL2SQL-BUGs benchmark (Liu et al., KDD 2025), 2,018 (question, SQL) pairs on the
BIRD dev databases, each judged correct or not by annotators and, when not, given
one or more error types of a 31-type taxonomy, the first listed taken as the
person's main reason.

usage: nl2sql_bugs.py SQLSIM DATA_JSON [--per-item FILE] [-v] [-b] [--repair]

DATA_JSON is data/NL2SQL-Bugs-with-evidence.json of
https://github.com/HKUSTDial/NL2SQL-Bugs-Benchmark (not shipped here: the
repository gives it no licence; fetch it yourself). The gold SQL of each pair is
BIRD dev's (corpus/bird/dev.json, matched by database and question); no BIRD
database is needed: the run is structure and synthetic execution, as
tests/labels/agreement.sh. The pairs are split in two halves by a hash of
database and question (every pair of one question in one half): half A is the
one whose disagreements were read to write rules, half B was not read
(tests/labels/README.md). Prints, per half and in all:
  - wrong pairs: sqlsim's main category is one the person's first type maps
    to (MAP below); that type is among sqlsim's categories; any of the person's
    types is; categories per wrong pair;
  - pairs judged correct: called correct or correct_other_form;
  - people among themselves: of two wrong pairs sqlsim reads as the same change
    (the same categories and evidence), how often the annotators' first types
    agree: what any reading of the structure alone can reach on such pairs.
-b adds the figures per first type, -v every disagreement of half A. --repair runs
`sqlsim analyze --repair` and scores the categories of each wrong pair's repair
(the parts whose fix gives the gold's answer) where one was found, the structural
categories elsewhere, and says how many wrong pairs had a repair."""
import json, os, subprocess, sys, tempfile, zlib
from collections import Counter, defaultdict

# The taxonomy's 31 types, each as the sqlsim categories that say the same thing.
# A type a person may mean in several clauses maps to each clause's category
# (an attribute is a column returned or a column filtered on; a clause missing is
# a GROUP BY, an ORDER BY/LIMIT or a WHERE).
MAP = {
    'Attribute Mismatch': {'wrong_column', 'filter_column'},
    'Attribute Missing': {'missing_column'},
    'Attribute Redundancy': {'extra_column'},
    'Table Mismatch': {'wrong_table'},
    'Table Missing': {'missing_table'},
    'Table Redundancy': {'extra_table'},
    'Join Condition Mismatch': {'join'},
    'Join Type Mismatch': {'join'},
    'Value Mismatch': {'filter_value'},
    'Data Format Mismatch': {'filter_value'},
    'Explicit Condition Mismatch': {'filter_column', 'filter_value', 'filter_operator'},
    'Explicit Condition Missing': {'missing_filter'},
    'Explicit Condition Redundancy': {'extra_filter'},
    'Implicit Condition Missing': {'missing_filter'},
    'Comparison Operator Mismatch': {'filter_operator'},
    'Logical Operator Mismatch': {'filter_operator'},
    'Aggregate Functions': {'wrong_aggregate'},
    'Window Functions': {'group_having', 'wrong_column'},
    'Conditional Functions': {'wrong_column', 'filter_column'},
    'Conversion Functions': {'wrong_column', 'filter_column'},
    'Date/Time Functions': {'wrong_column', 'filter_column', 'dialect_error'},
    'Math Functions': {'wrong_column', 'filter_column'},
    'String Functions': {'wrong_column', 'filter_column', 'dialect_error'},
    'Clause Missing': {'group_having', 'order_limit', 'missing_filter'},
    'Clause Redundancy': {'group_having', 'order_limit', 'extra_filter'},
    'Subquery Missing': {'nesting'},
    'Subquery Mismatch': {'nesting'},
    'Partial Query': {'nesting'},
    'ASC/DESC': {'order_limit'},
    'DISTINCT': {'distinct'},
    'Other': {'other'},
}
ACCEPT = ('correct', 'correct_other_form')


def half_of(x):
    return 'B' if zlib.crc32((x['db_id'] + x['question']).encode()) % 2 else 'A'


def main():
    args = sys.argv[1:]
    verbose, by_type, repair = '-v' in args, '-b' in args, '--repair' in args
    args = [a for a in args if a not in ('-v', '-b', '--repair')]
    per_item = None
    if '--per-item' in args:
        i = args.index('--per-item')
        per_item = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    sqlsim, data_path = args
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    try:
        data = json.load(open(data_path, encoding='utf-8'))
    except (OSError, ValueError) as e:
        sys.exit(f'{data_path}: {e}')
    if not isinstance(data, list) or not data:
        sys.exit(f'{data_path}: not a list of judged pairs (data/NL2SQL-Bugs-with-evidence.json)')
    for n, x in enumerate(data):
        if not isinstance(x, dict) or any(k not in x for k in ('db_id', 'question', 'sql', 'label', 'error_types')):
            sys.exit(f'{data_path}: pair {n} lacks db_id, question, sql, label or error_types')
        if not x['label'] and (not x['error_types'] or any(e.get('sub_error_type') not in MAP for e in x['error_types'])):
            sys.exit(f'{data_path}: pair {n} is judged wrong without an error type of the 31 known')
    dev = json.load(open(os.path.join(root, 'corpus', 'bird', 'dev.json'), encoding='utf-8'))
    by_question = {}
    for g in dev:
        by_question.setdefault((g['db_id'], g['question'].strip()), g)
    gold, pred = [], {}
    for n, x in enumerate(data):
        g = by_question.get((x['db_id'], x['question'].strip()))
        if g is None:
            sys.exit(f'pair {n}: no BIRD dev question of {x["db_id"]} reads {x["question"]!r}')
        gold.append({'question_id': n, 'db_id': g['db_id'], 'question': g['question'], 'evidence': g['evidence'],
                     'SQL': g['SQL'], 'difficulty': g.get('difficulty', 'simple')})
        sql = x['sql'].replace('\r', ' ').replace('\n', ' ')  # one line, literals as written
        pred[str(n)] = sql + '\t----- bird -----\t' + x['db_id']
    with tempfile.TemporaryDirectory() as tmp:
        gp, pp = os.path.join(tmp, 'gold.json'), os.path.join(tmp, 'pred.json')
        json.dump(gold, open(gp, 'w'))
        json.dump(pred, open(pp, 'w'))
        items_path = per_item or os.path.join(tmp, 'items.jsonl')
        subprocess.run([sqlsim, 'analyze', '-q', '-j', '2', '--gold', gp, '--tables',
                        os.path.join(root, 'corpus', 'bird', 'dev_tables.json'), '--pred', 'nl2sql_bugs=' + pp,
                        '--per-item', items_path] + (['--repair'] if repair else []), check=True,
                       stdout=subprocess.DEVNULL)
        items = {}
        repaired = 0
        for line in open(items_path, encoding='utf-8'):
            r = json.loads(line)
            if repair and r.get('repair') and r['repair'].get('sql') is not None:
                repaired += not data[r['index']]['label']
                r.update(category=r['repair']['category'], categories=r['repair']['categories'],
                         evidence=r['repair']['evidence'])
            items[r['index']] = r
    if repair:
        wrong = sum(not x['label'] for x in data)
        print(f"repair: {repaired} of {wrong} wrong pairs ({100 * repaired / wrong:.1f}%) have a repair; "
              f"their categories are the repair's")
    fig = defaultdict(Counter)
    types = defaultdict(Counter)
    for n, x in enumerate(data):
        r = items[n]
        cats = r['categories']
        for h in (half_of(x), 'all'):
            f = fig[h]
            if x['label']:
                f['correct'] += 1
                f['accepted'] += r['category'] in ACCEPT
                continue
            first = MAP[x['error_types'][0]['sub_error_type']]
            every = set().union(*(MAP[e['sub_error_type']] for e in x['error_types']))
            f['wrong'] += 1
            f['ncat'] += len(cats)
            f['main'] += r['category'] in first
            f['among'] += bool(first & set(cats))
            f['any'] += bool(every & set(cats))
            if h == 'all':
                t = types[x['error_types'][0]['sub_error_type']]
                t['n'] += 1
                t['main'] += r['category'] in first
                t['among'] += bool(first & set(cats))
        if verbose and not x['label'] and half_of(x) == 'A' and r['category'] not in MAP[x['error_types'][0]['sub_error_type']]:
            print(f'#{n}: people {[e["sub_error_type"] for e in x["error_types"]]}, sqlsim {cats}')
    for h, name in (('A', 'half A (read)'), ('B', 'half B (not read)'), ('all', 'all')):
        f = fig[h]
        w = f['wrong'] or 1
        print(f"{name}: {f['wrong']} wrong pairs: main category = the person's first type {f['main']} "
              f"({100 * f['main'] / w:.1f}%), first type among the categories {f['among']} ({100 * f['among'] / w:.1f}%), "
              f"any of the person's types among them {f['any']} ({100 * f['any'] / w:.1f}%), "
              f"{f['ncat'] / w:.2f} categories per pair; {f['correct']} pairs judged correct: called correct or "
              f"correct_other_form {f['accepted']} ({100 * f['accepted'] / (f['correct'] or 1):.1f}%)")
    # People among themselves: wrong pairs that sqlsim reads as the same change
    # (the same categories with the same evidence, for one question or another)
    # can get only one main category from it; how often do their annotators'
    # first types agree (map to a common category)?
    same = defaultdict(list)
    for n, x in enumerate(data):
        if not x['label']:
            same[(json.dumps(items[n]['categories']), json.dumps(items[n]['evidence'], sort_keys=True))].append(n)
    pairs = agree = 0
    for group in same.values():
        for i in range(len(group)):
            for j in range(i + 1, len(group)):
                a, b = (MAP[data[k]['error_types'][0]['sub_error_type']] for k in (group[i], group[j]))
                pairs += 1
                agree += bool(a & b)
    print(f"people among themselves: {pairs} pairs of wrong pairs sqlsim reads as the same change (same categories "
          f"and evidence): their first types agree in {agree} ({100 * agree / (pairs or 1):.1f}%)")
    if by_type:
        for t, c in sorted(types.items(), key=lambda kv: -kv[1]['n']):
            print(f"  {t:32s} {c['n']:4d} pairs: main {c['main']:4d}, among {c['among']:4d}")


if __name__ == '__main__':
    main()

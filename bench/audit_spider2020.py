#!/usr/bin/env python3
"""audit_spider2020.py -- a check of sqlsim audit you can run: Spider's
maintainers corrected dev golds in June 2020 (taoyds/spider commit 25fcd85,
"corrected annotated errors/mismatches", over e0b7bc9). Put each corrected
item's previous gold back into today's gold file, audit it with the corpus'
prediction files, and see where those items rank: a good audit flags them.
The same items audited with today's gold are printed beside them.

usage: audit_spider2020.py --sqlsim build/sqlsim --spider-repo DIR --corpus ../shared/corpus [-j 2]

DIR is a clone of github.com/taoyds/spider (a bare one is fine: the files
are read with git show). Nothing is written but a temporary directory.
"""
import argparse, glob, json, os, re, sqlite3, subprocess, sys, tempfile

OLD, NEW = 'e0b7bc9', '25fcd85'


def dev_sql(repo, commit):
    text = subprocess.run(['git', '--git-dir', repo, 'show', f'{commit}:evaluation_examples/dev.sql'],
                          capture_output=True, text=True, check=True).stdout
    items, q = {}, None
    for line in text.splitlines():
        m = re.match(r'Question (\d+):', line)
        if m:
            q = int(m.group(1)) - 1
        elif line.startswith('SQL:') and q is not None:
            items[q] = line[4:].strip()
            q = None
    return items


def norm(s):
    return ' '.join(s.split()).rstrip(';').strip().lower()


def answer_changed(corpus, db, old_sql, new_sql):
    """Whether the correction changed the answer on the item's database (sets of rows); None: no database
    or a query fails there."""
    path = os.path.join(corpus, 'spider', 'database', db, f'{db}.sqlite')
    if not os.path.exists(path):
        return None
    con = sqlite3.connect(f'file:{path}?mode=ro', uri=True)
    try:
        return set(con.execute(old_sql).fetchall()) != set(con.execute(new_sql).fetchall())
    except sqlite3.Error:
        return None
    finally:
        con.close()


def audit(sqlsim, gold, corpus, jobs):
    sp = os.path.join(corpus, 'spider')
    cmd = [sqlsim, 'audit', '--gold', gold, '--tables', f'{sp}/tables.json', '--db-dir', f'{sp}/database',
           '--format', 'json', '--all', '-j', str(jobs)]
    for f in sorted(glob.glob(f'{sp}/predictions/*.sql')):
        cmd += ['--pred', f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    ranked = [json.loads(l) for l in out.splitlines()]
    return {d['index']: (r + 1, d) for r, d in enumerate(ranked)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sqlsim', required=True)
    ap.add_argument('--spider-repo', required=True)
    ap.add_argument('--corpus', required=True)
    ap.add_argument('-j', type=int, default=2)
    a = ap.parse_args()
    repo = a.spider_repo
    if os.path.isdir(os.path.join(repo, '.git')):
        repo = os.path.join(repo, '.git')
    old, new = dev_sql(repo, OLD), dev_sql(repo, NEW)
    changed = sorted(i for i in new if i in old and norm(old[i]) != norm(new[i]))
    gold_path = os.path.join(a.corpus, 'spider', 'dev_gold.sql')
    lines = open(gold_path, encoding='utf-8').read().splitlines()
    today = [l.rsplit('\t', 1) for l in lines]
    same = sum(1 for i in changed if norm(today[i][0]) == norm(new[i]))
    print(f'{len(changed)} golds changed by {NEW}; {same} of them read as today\'s gold file has them')
    with tempfile.TemporaryDirectory() as tmp:
        old_gold = os.path.join(tmp, 'dev_gold_2019.sql')
        with open(old_gold, 'w', encoding='utf-8') as f:
            for i, (sql, db) in enumerate(today):
                f.write(f'{old[i] if i in changed else sql}\t{db}\n')
        before = audit(a.sqlsim, old_gold, a.corpus, a.j)
        after = audit(a.sqlsim, gold_path, a.corpus, a.j)
    n = len(before)
    print(f'{"item":>5} {"answer":>8} {"rank old":>9} {"score old":>9} {"rank now":>9} {"score now":>9}  evidence with the old gold')
    flagged = top50 = top150 = 0
    moved, moved50 = 0, 0
    for i in changed:
        (ro, do), (rn, dn) = before[i], after[i]
        flagged += do['flagged']
        top50 += ro <= 50
        top150 += ro <= 150
        ch = answer_changed(a.corpus, today[i][1], old[i], new[i])
        moved += ch is True
        moved50 += ch is True and ro <= 50
        shown = {True: 'changed', False: 'same', None: '?'}[ch]
        print(f'{i:>5} {shown:>8} {ro:>9} {do["score"]:>9.3f} {rn:>9} {dn["score"]:>9.3f}  {",".join(do["kinds"]) or "-"}')
    k = len(changed)
    print(f'\nof the {k} corrected items audited with their old gold (of {n} items): {flagged} flagged, '
          f'{top50} in the top 50, {top150} in the top 150 (random: {k * 50 / n:.1f} and {k * 150 / n:.1f})')
    # the baseline the issue names: the share of systems that do not give the gold's answer, as the score
    # (ties broken by item order, as a stable sort of the items would)
    share = sorted(before, key=lambda i: (-(1 - len(before[i][1]['agree']) / before[i][1]['systems']), i))
    rank = {i: r + 1 for r, i in enumerate(share)}
    b50 = sum(rank[i] <= 50 for i in changed)
    b150 = sum(rank[i] <= 150 for i in changed)
    print(f'baseline (share of systems not giving the gold\'s answer): {b50} in the top 50, {b150} in the top 150')
    print(f'{moved} of the {k} corrections changed the answer on the item\'s database ("same": the text changed, '
          f'not the answer; "?": no database or a query fails); {moved50} of those {moved} are in the top 50')


if __name__ == '__main__':
    sys.exit(main())

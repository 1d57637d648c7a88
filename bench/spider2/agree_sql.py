"""sqlsim spider2 in SQL mode against Spider 2.0-lite's own evaluate.py, item for item.

usage: agree_sql.py --repo SPIDER2_CHECKOUT --corpus corpus/spider2 --sqlsim build/sqlsim [--out DIR]
Spider 2.0's SQLite files are a separate download of several GB; here each of the 30 databases is
made from its schema folder (DDL.csv, with the table's JSON columns where SQLite cannot read a
statement) holding its sample rows. The gold of the tasks with public SQL is their SQL's result
there, saved by the official script itself (its SQL mode copies each result CSV to <pred>_csv).
Then folders of predictions -- the gold SQL, mutants of it (synth.py's kinds), the SQL inside a
```sql block, broken and hostile files -- are scored by both; one line per folder, the totals,
exit 1 when any item differs."""
import argparse, csv, json, os, shutil, sqlite3, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from synth import MUTANTS, mutate  # noqa: E402


def make_db(folder, path):
    con = sqlite3.connect(path)
    docs = {}
    for f in os.listdir(folder):
        if f.endswith('.json'):
            d = json.load(open(os.path.join(folder, f)))
            docs[d['table_name'].lower()] = d
    for r in csv.DictReader(open(os.path.join(folder, 'DDL.csv'), newline='')):
        t = r['table_name']
        if t.startswith('sqlite_'):
            continue
        d = docs.get(t.lower())
        try:
            con.execute(r['DDL'])
        except sqlite3.Error:
            con.execute('CREATE TABLE "%s" (%s)' % (t, ', '.join('"%s" %s' % (n, ty) for n, ty in
                                                                 zip(d['column_names'], d['column_types']))))
        if not d:
            continue
        cols = [c[1] for c in con.execute('PRAGMA table_info("%s")' % t)]
        for row in d.get('sample_rows', []):
            vals = [None if row.get(c, '') == '' else row.get(c) for c in cols]
            con.execute('INSERT INTO "%s" VALUES (%s)' % (t, ','.join('?' * len(cols))), vals)
    con.commit()
    con.close()


def lines(path):
    with open(path) as f:
        return {r['instance_id']: r for r in map(json.loads, f) if r}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repo', required=True)
    ap.add_argument('--corpus', required=True)
    ap.add_argument('--sqlsim', required=True)
    ap.add_argument('--out', default='/tmp/sqlsim_spider2_sql')
    ap.add_argument('--python', default='/usr/bin/python3')
    a = ap.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    root = os.path.join(a.out, 'spider2-lite')  # laid out as the script expects its repository
    suite, dbs = os.path.join(root, 'evaluation_suite'), os.path.join(root, 'resource', 'databases')
    os.makedirs(suite)
    os.makedirs(dbs)
    shutil.copy(os.path.join(a.repo, 'spider2-lite', 'evaluation_suite', 'evaluate.py'), suite)
    shutil.copy(os.path.join(a.corpus, 'spider2-lite.jsonl'), root)
    tasks = {json.loads(l)['instance_id']: json.loads(l) for l in open(os.path.join(a.corpus, 'spider2-lite.jsonl'))}
    loose = lambda n: n.lower().replace('-', '_')
    folders = {loose(d): os.path.join(a.corpus, 'databases', d) for d in os.listdir(os.path.join(a.corpus, 'databases'))}
    for db in sorted({t['db'] for i, t in tasks.items() if i.startswith('local')}):
        make_db(folders[loose(db)], os.path.join(dbs, db + '.sqlite'))
    sqls = {f[:-4]: open(os.path.join(a.corpus, 'gold', 'sql', f)).read()
            for f in sorted(os.listdir(os.path.join(a.corpus, 'gold', 'sql')))}
    gold = os.path.join(a.out, 'gold')
    os.makedirs(os.path.join(gold, 'exec_result'))
    shutil.copy(os.path.join(a.corpus, 'gold', 'spider2lite_eval.jsonl'), gold)
    preds = os.path.join(a.out, 'pred')

    def folder(name, files):
        d = os.path.join(preds, name)
        os.makedirs(d)
        for i, text in files.items():
            open(os.path.join(d, i + '.sql'), 'w').write(text)
        return d

    def official(d):
        out = subprocess.run([a.python, os.path.join(HERE, 'official.py'), 'lite', os.path.join(suite, 'evaluate.py'),
                              gold, d, 'sql'], capture_output=True, text=True, check=True).stdout
        return {r['instance_id']: r for r in map(json.loads, out.splitlines())}

    # the gold: each public SQL's result, as the script saves it
    d = folder('gold_sql', sqls)
    official(d)
    for f in os.listdir(d + '_csv'):
        shutil.copy(os.path.join(d + '_csv', f), os.path.join(gold, 'exec_result', f))
    kinds = {'fenced': {i: 'Here is the query:\n```sql\n%s\n```\nDone.' % s for i, s in sqls.items()},
             'broken': {i: s[:len(s) // 2] for i, s in sqls.items()},
             'hostile': {i: x for i, x in zip(sorted(sqls), [
                 '', 'DELETE FROM orders', "ATTACH DATABASE '/tmp/x.db' AS x", 'SELECT 1; SELECT 2',
                 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r LIMIT 100000',
                 "SELECT x'00ff', 1e308 * 10, -0.0, 'a\x00b'", 'SELECT NULL', 'PRAGMA table_info(orders)',
                 'SELECT * FROM sqlite_master', "SELECT load_extension('x')", '\ufeffSELECT 1',
                 'SELECT 1 AS a, 2 AS a'])}}
    for kind, pat, rep in MUTANTS:
        ms = {i: mutate(s, kind, pat, rep, 0) for i, s in sqls.items()}
        kinds['mut_' + kind] = {i: m for i, m in ms.items() if m}
    for name, files in kinds.items():
        folder(name, files)
    tot = items = bad = passed = 0
    for name in ['gold_sql'] + list(kinds):
        d = os.path.join(preds, name)
        o = official(d)
        mine = os.path.join(a.out, name + '.sqlsim')
        subprocess.run([a.sqlsim, 'spider2', '--gold', gold, '--pred', d, '--mode', 'sql', '--db-dir', dbs,
                        '--tasks', os.path.join(root, 'spider2-lite.jsonl'), '-q', '--per-item', mine],
                       stdout=subprocess.DEVNULL)
        m = lines(mine)
        diff = sorted(i for i in set(o) | set(m) if (o.get(i) or {}).get('score') != (m.get(i) or {}).get('score'))
        tot += 1
        items += len(o)
        bad += len(diff)
        passed += sum(r['score'] for r in o.values())
        print('%-20s items %3d  official pass %3d  sqlsim pass %3d  differ %d %s' % (
            name, len(o), sum(r['score'] for r in o.values()), sum(r['score'] for r in m.values()), len(diff),
            ' '.join(diff[:5])))
    print('sql mode: %d folders, %d items, %d passing officially, %d differ' % (tot, items, passed, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

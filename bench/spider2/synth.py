"""Synthetic execution on Spider 2.0-lite's SQLite tasks without their databases.

usage: synth.py --corpus corpus/spider2 --sqlsim build/sqlsim [--out DIR]
Each public gold SQL (gold/sql/<id>.sql, its database from spider2-lite.jsonl) is paired with
mutants of itself, one textual change each (a comparison made inclusive or strict, DISTINCT
dropped, an order reversed, a LIMIT moved, MIN/MAX and SUM/AVG swapped, an inner join made
LEFT, a number literal moved, AND made OR), and with itself (an equivalent control).
sqlsim eval --metrics synth,strict --witness judges each pair on databases generated from the
schema (--tables the databases/ folder: DDL.csv and the sample rows). Printed: pairs per kind,
the share strict refutes, the share without a verdict, and how many witnesses load into the
schema DDL.csv declares (a fresh SQLite made from DDL.csv alone, each witness's INSERTs run
there with foreign keys on)."""
import argparse, csv, json, os, re, sqlite3, subprocess, sys, tempfile

MUTANTS = [
    ('ge_gt', r'>=', '>'), ('gt_ge', r'(?<![<>=!])>(?!=)', '>='),
    ('le_lt', r'<=', '<'), ('lt_le', r'(?<![<>=!])<(?![=>])', '<='),
    ('distinct', r'(?i)\bDISTINCT\s+', ''), ('desc_asc', r'(?i)\bDESC\b', 'ASC'),
    ('asc_desc', r'(?i)\bASC\b', 'DESC'), ('limit', r'(?i)\bLIMIT\s+(\d+)', None),
    ('max_min', r'(?i)\bMAX\(', 'MIN('), ('min_max', r'(?i)\bMIN\(', 'MAX('),
    ('sum_avg', r'(?i)\bSUM\(', 'AVG('), ('count_distinct', r'(?i)\bCOUNT\(\s*DISTINCT\s+', 'COUNT('),
    ('left_join', r'(?i)(?<!LEFT )(?<!OUTER )\bJOIN\b', 'LEFT JOIN'), ('literal', r'(?<![\w.])(\d+)(?![\w.])', None),
    ('and_or', r'(?i)\bAND\b', 'OR'),
]


def mutate(sql, kind, pat, rep, nth):
    ms = list(re.finditer(pat, sql))
    if nth >= len(ms):
        return None
    m = ms[nth]
    if kind == 'limit':
        new = 'LIMIT %d' % (int(m.group(1)) + 1)
    elif kind == 'literal':
        new = str(int(m.group(1)) + 1)
    else:
        new = rep
    return sql[:m.start()] + new + sql[m.end():]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--corpus', required=True)
    ap.add_argument('--sqlsim', required=True)
    ap.add_argument('--out', default=tempfile.mkdtemp(prefix='s2synth.'))
    ap.add_argument('--per-gold', type=int, default=2, help='occurrences mutated per kind')
    a = ap.parse_args()
    tasks = {json.loads(l)['instance_id']: json.loads(l) for l in open(os.path.join(a.corpus, 'spider2-lite.jsonl'))}
    sqldir = os.path.join(a.corpus, 'gold', 'sql')
    gold, pred, kinds = [], {}, []
    for f in sorted(os.listdir(sqldir)):
        i = f[:-4]
        sql = open(os.path.join(sqldir, f)).read().strip().rstrip(';')
        db = tasks[i]['db']
        pairs = [('equivalent', sql + '\n')]
        for kind, pat, rep in MUTANTS:
            for nth in range(a.per_gold):
                m = mutate(sql, kind, pat, rep, nth)
                if m and m != sql:
                    pairs.append((kind, m))
        for kind, p in pairs:
            pred[str(len(gold))] = p + '\t----- bird -----\t' + db
            gold.append({'question_id': len(gold), 'db_id': db, 'SQL': sql, 'instance_id': i})
            kinds.append(kind)
    os.makedirs(a.out, exist_ok=True)
    gp, pp, out = (os.path.join(a.out, x) for x in ('gold.json', 'pred.json', 'items.jsonl'))
    json.dump(gold, open(gp, 'w'))
    json.dump(pred, open(pp, 'w'))
    subprocess.run([a.sqlsim, 'eval', '--metrics', 'synth,strict', '--witness', '-q', '--tables',
                    os.path.join(a.corpus, 'databases'), '--gold', gp, '--pred', pp, '--per-item', out],
                   stdout=subprocess.DEVNULL, check=False)
    recs = [json.loads(l) for l in open(out)]
    ddl = {}

    def fresh(db):
        if db not in ddl:
            stmts = []
            loose = lambda n: n.lower().replace('-', '_')  # as sqlsim's catalog finds it
            path = [os.path.join(a.corpus, 'databases', d) for d in os.listdir(os.path.join(a.corpus, 'databases'))
                    if loose(d) == loose(db)][0]
            cols = {}
            for f in os.listdir(path):
                if f.endswith('.json'):
                    d = json.load(open(os.path.join(path, f)))
                    cols[d['table_name'].lower()] = d
            for r in csv.DictReader(open(os.path.join(path, 'DDL.csv'), newline='')):
                if r['table_name'].startswith('sqlite_'):
                    continue
                try:
                    sqlite3.connect(':memory:').execute(r['DDL'])
                    stmts.append(r['DDL'])
                except sqlite3.Error:  # a column named as a keyword: the JSON's names, quoted
                    d = cols[r['table_name'].lower()]
                    stmts.append('CREATE TABLE "%s" (%s)' % (r['table_name'], ', '.join(
                        '"%s" %s' % (n, t) for n, t in zip(d['column_names'], d['column_types']))))
            ddl[db] = ';\n'.join(stmts)
        con = sqlite3.connect(':memory:')
        con.execute('PRAGMA foreign_keys = ON')
        con.executescript(ddl[db])
        return con

    by = {}
    loads = wit = 0
    for k, g, r in zip(kinds, gold, recs):
        b = by.setdefault(k, [0, 0, 0])
        b[0] += 1
        if r.get('strict') is False:
            b[1] += 1
            w = r.get('witness') or {}
            if w.get('database'):
                wit += 1
                con = fresh(g['db_id'])
                ok = True
                buf = ''
                for line in w['database'].splitlines(True):
                    buf += line
                    if sqlite3.complete_statement(buf):
                        if buf.lstrip().upper().startswith('INSERT'):
                            try:
                                con.execute(buf)
                            except sqlite3.Error:
                                ok = False
                        buf = ''
                loads += ok
        elif r.get('strict') is None:
            b[2] += 1
    print('%-16s %6s %9s %11s' % ('kind', 'pairs', 'refuted', 'no verdict'))
    wrong = [0, 0, 0]
    for k in sorted(by):
        b = by[k]
        print('%-16s %6d %8.1f%% %10.1f%%' % (k, b[0], 100.0 * b[1] / b[0], 100.0 * b[2] / b[0]))
        if k != 'equivalent':
            wrong = [x + y for x, y in zip(wrong, b)]
    print('%-16s %6d %8.1f%% %10.1f%%' % ('all mutants', wrong[0], 100.0 * wrong[1] / max(wrong[0], 1),
                                          100.0 * wrong[2] / max(wrong[0], 1)))
    print('witnesses %d, loading into DDL.csv\'s schema %d' % (wit, loads))
    print('(a mutant may be equivalent to its gold: refuted is a floor on what strict tells apart)')


if __name__ == '__main__':
    main()

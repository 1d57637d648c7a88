#!/usr/bin/env python3
"""bench_strict_engines.py -- strict (and synth) judged on each engine: pairs a
second on SQLite, PostgreSQL, MariaDB and DuckDB, with the gold's suite cached (the
pairs of one gold together, as RL samples come: every mini-dev question with
the predictions of its 9 baselines in a row), and without (the 9 files one
after another: each gold met once a file).

usage: bench_strict_engines.py --sqlsim BIN --gen-minidev BIN --corpus DIR [--jobs 2] [--questions N]

Servers: tests/servers.sh's throwaway ones; data: mini-dev's schemas with the
databases bench/gen_minidev generates, loaded with sqlsim load (the mirror's
tables are made like them; DuckDB: one file). DuckDB reads mini-dev's
PostgreSQL gold and baselines (its grammar is PostgreSQL's). Prints pairs/s
per engine and order, and the share of pairs strict passes."""
import argparse, json, os, shutil, subprocess, sys, tempfile, time


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sqlsim', required=True)
    ap.add_argument('--gen-minidev', required=True)
    ap.add_argument('--corpus', required=True)
    ap.add_argument('--servers-script', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                                                             'tests', 'servers.sh'))
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--questions', type=int, default=500)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix='sqlsim-strict.')
    os.chmod(tmp, 0o755)
    servers = os.path.join(tmp, 'servers')
    bird = os.path.join(os.path.abspath(a.corpus), 'bird')
    dd = os.path.join(bird, 'mini_dev_dialects')
    try:
        sh([a.servers_script, 'start', servers])
        env = {}
        for line in open(os.path.join(servers, 'env')):
            k, v = line[7:].strip().split('=', 1)
            env[k] = v.strip("'")
        mdb = os.path.join(tmp, 'minidev')
        sh([a.gen_minidev, '--tables', os.path.join(bird, 'dev_tables.json'), '--gold',
            os.path.join(bird, 'mini_dev_sqlite.json'), '--out', mdb], stdout=subprocess.DEVNULL)
        sh([a.sqlsim, 'load', '-q', '--into', env['SQLSIM_PG_ADMIN'].replace('{db_id}', 'bird'), mdb])
        sh([a.sqlsim, 'load', '-q', '--into', env['SQLSIM_MY_ADMIN'].replace('{db_id}', 'BIRD'), mdb])
        duck = 'duckdb://' + os.path.join(tmp, 'bird.duckdb')
        sh([a.sqlsim, 'load', '-q', '--into', duck, mdb])
        print(f'{"engine":12s} {"order":22s} {"pairs":>6s} {"seconds":>8s} {"pairs/s":>8s} {"strict pass":>12s}')
        for name, tag, url, gold_name in (
                ('SQLite', 'sqlite', None, 'mini_dev_sqlite.json'),
                ('PostgreSQL', 'postgresql', env['SQLSIM_PG'].replace('{db_id}', 'bird'), 'mini_dev_postgresql.json'),
                ('MariaDB', 'mysql', env['SQLSIM_MY'].replace('{db_id}', 'BIRD'), 'mini_dev_mysql.json'),
                ('DuckDB', 'postgresql', duck, 'mini_dev_postgresql.json')):
            gold = json.load(open(os.path.join(dd if tag != 'sqlite' else bird, gold_name)))[:a.questions]
            pdir = os.path.join(dd, 'predictions') if tag != 'sqlite' else os.path.join(bird, 'mini_dev_predictions')
            files = sorted(f for f in os.listdir(pdir) if (f'_{tag}' in f) or tag == 'sqlite')[:9]
            preds = [json.load(open(os.path.join(pdir, f))) for f in files]
            for order in ('by gold (suite cached)', 'by file'):
                items, pairs = [], {}
                if order.startswith('by gold'):
                    for i, g in enumerate(gold):
                        for p in preds:
                            pairs[str(len(items))] = p.get(str(i), ' \t----- bird -----\t' + g['db_id'])
                            items.append(g)
                else:
                    for p in preds:
                        for i, g in enumerate(gold):
                            pairs[str(len(items))] = p.get(str(i), ' \t----- bird -----\t' + g['db_id'])
                            items.append(g)
                gf, pf = os.path.join(tmp, 'gold.json'), os.path.join(tmp, 'pred.json')
                json.dump(items, open(gf, 'w'))
                json.dump(pairs, open(pf, 'w'))
                args = [a.sqlsim, 'eval', '-q', '--metrics', 'strict', '-j', str(a.jobs), '--gold', gf, '--pred', pf,
                        '--tables', os.path.join(bird, 'dev_tables.json'), '--per-item', os.path.join(tmp, 'i.jsonl')]
                if url:
                    args += ['--engine', url]
                t0 = time.time()
                sh(args, stdout=subprocess.DEVNULL)
                secs = time.time() - t0
                recs = [json.loads(l) for l in open(os.path.join(tmp, 'i.jsonl'))]
                judged = [r for r in recs if r.get('strict') is not None]
                share = sum(r['strict'] for r in judged) / max(len(judged), 1)
                print(f'{name:12s} {order:22s} {len(items):6d} {secs:8.1f} {len(items) / secs:8.1f} '
                      f'{share:12.3f}', flush=True)
        return 0
    finally:
        subprocess.run([a.servers_script, 'stop', servers])
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""agree_servers.py -- sqlsim beside BIRD mini-dev's own evaluation scripts
(evaluation_ex.py, evaluation_f1.py) on the same PostgreSQL and MariaDB
servers and the same prediction files: EX and Soft F1 item for item, and the
time each takes.

usage: agree_servers.py --sqlsim BIN --gen-minidev BIN --corpus DIR --mini-dev SRC
                        [--servers-script tests/servers.sh] [--jobs 2] [--keep DIR]
                        [--only spider|minidev]

SRC is a checkout of github.com/bird-bench/mini_dev (a directory, or a git
directory read with git show); its evaluation scripts are copied into a
temporary folder and run from there with Debian's python3 (psycopg2,
PyMySQL), never kept. What the copy changes, and nothing else:
  - connect_db: their scripts connect to a fixed server (localhost, their
    password, database bird / BIRD); here to the throwaway servers, as the
    same read-only role sqlsim uses, to the database of the item's db_id for
    Spider (one database per db_id: Spider's tables collide across db_ids)
    and to bird / BIRD for mini-dev, as theirs do;
  - func_timeout (a PyPI package, not in Debian): a stand-in with the same
    call that runs the function under a SIGALRM timer.
Their per-item results are read from exec_result after run_sqls_parallel, as
their __main__ would average them.

The data: Spider's 19 dev databases (sqlsim load, a database per db_id), and
for mini-dev, databases generated from dev_tables.json (bench/gen_minidev:
sqlsim's synthetic databases for each mini-dev gold, merged per db_id) loaded
into one database holding every db_id's tables, mini-dev's own layout. The
cases: the 7 Spider prediction files on each server (SQLite SQL: what fails
there fails for both), mini-dev's 9 PostgreSQL files on PostgreSQL and its 9
MySQL files on MariaDB.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile, time

PY = '/usr/bin/python3'  # Debian's: psycopg2 and PyMySQL are its packages

FUNC_TIMEOUT = '''"""Stand-in for PyPI's func_timeout (not in Debian): the same call, a SIGALRM timer."""
import signal
class FunctionTimedOut(Exception):
    pass
def func_timeout(timeout, func, args=(), kwargs=None):
    def fire(signum, frame):
        raise FunctionTimedOut()
    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return func(*args, **(kwargs or {}))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
'''

RUNNER = '''import json, sys, time
sys.path.insert(0, sys.argv[1])
import psycopg2, pymysql, evaluation_utils
cfg = json.load(open(sys.argv[2]))
def connect_db(sql_dialect, db_path):
    db = cfg["db"] or db_path.rstrip("/").split("/")[-2]
    if sql_dialect == "PostgreSQL":
        return psycopg2.connect(host=cfg["pg_host"], user="reader", dbname=db)
    return pymysql.connect(unix_socket=cfg["my_socket"], user="reader", database=db)
evaluation_utils.connect_db = connect_db
mod = __import__(cfg["module"])
mod.connect_db = connect_db
mod.exec_result = []
pred, _ = evaluation_utils.package_sqls(cfg["pred"], cfg["db_root"], mode="pred")
gold, places = evaluation_utils.package_sqls(cfg["gold"], cfg["db_root"], mode="gt")
t0 = time.time()
mod.run_sqls_parallel(list(zip(pred, gold)), db_places=places, num_cpus=cfg["jobs"], meta_time_out=30.0,
                      sql_dialect=cfg["dialect"])
res = evaluation_utils.sort_results(mod.exec_result)
json.dump({"seconds": time.time() - t0, "res": [r["res"] for r in res], "idx": [r["sql_idx"] for r in res]},
          open(cfg["out"], "w"))
'''


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def copy_scripts(src, dst):
    for f in ('evaluation_utils.py', 'evaluation_ex.py', 'evaluation_f1.py'):
        if os.path.isdir(os.path.join(src, 'evaluation')):
            shutil.copy(os.path.join(src, 'evaluation', f), dst)
        else:  # a git directory
            text = subprocess.run(['git', '--git-dir', src, 'show', 'HEAD:evaluation/' + f], check=True,
                                  capture_output=True).stdout
            open(os.path.join(dst, f), 'wb').write(text)
    open(os.path.join(dst, 'func_timeout.py'), 'w').write(FUNC_TIMEOUT)
    open(os.path.join(dst, 'run_theirs.py'), 'w').write(RUNNER)


def read_env(path):
    env = {}
    for line in open(path):
        if line.startswith('export '):
            k, v = line[7:].strip().split('=', 1)
            env[k] = v.strip("'")
    return env


def bird_pred_json(sql_file, gold_lines, out):
    """A Spider .sql prediction file in BIRD's submission format."""
    preds = [l.rstrip('\r\n') for l in open(sql_file, encoding='utf-8', newline='')]
    while len(preds) < len(gold_lines):
        preds.append('')
    obj = {str(i): preds[i] + '\t----- bird -----\t' + gold_lines[i].split('\t')[-1] for i in range(len(gold_lines))}
    json.dump(obj, open(out, 'w'))


def run_sqlsim(a, gold, pred, url, per_item):
    t0 = time.time()
    sh([a.sqlsim, 'eval', '-q', '--metrics', 'exec,soft_f1', '-j', str(a.jobs), '--gold', gold, '--pred', pred,
        '--engine', url, '--per-item', per_item], stdout=subprocess.DEVNULL)
    secs = time.time() - t0
    ex, f1, err = [], [], []
    for line in open(per_item):
        d = json.loads(line)
        ex.append(d['ex']['bird'] if d.get('ex') else None)
        f1.append(d.get('soft_f1'))
        err.append(d['error']['message'] if d.get('error') else None)
    return secs, ex, f1, err


def run_theirs(a, tmp, module, dialect, pred_json, gold_sql, db, env, out):
    cfg = {'module': module, 'dialect': dialect, 'pred': pred_json, 'gold': gold_sql, 'db_root': '/nonexistent/',
           'db': db, 'jobs': a.jobs, 'out': out, 'pg_host': env['SQLSIM_SERVERS_DIR'],
           'my_socket': env['SQLSIM_SERVERS_DIR'] + '/my.sock'}
    cfgf = out + '.cfg.json'
    json.dump(cfg, open(cfgf, 'w'))
    t0 = time.time()
    sh([PY, os.path.join(tmp, 'run_theirs.py'), tmp, cfgf], cwd=tmp, stdout=subprocess.DEVNULL,
       stderr=subprocess.DEVNULL)
    secs = time.time() - t0
    r = json.load(open(out))
    assert r['idx'] == list(range(len(r['idx']))), 'their results are not one per item'
    return secs, r['res']


def answers(dialect, env, db, sql, runs=40):
    """The distinct answers (sets of rows) the server gives sql over fresh sessions."""
    import psycopg2, pymysql
    seen = set()
    for _ in range(runs):
        try:
            if dialect == 'PostgreSQL':
                con = psycopg2.connect(host=env['SQLSIM_SERVERS_DIR'], user='reader', dbname=db)
            else:
                con = pymysql.connect(unix_socket=env['SQLSIM_SERVERS_DIR'] + '/my.sock', user='reader', database=db)
            cur = con.cursor()
            cur.execute(sql)
            seen.add(repr(cur.fetchall()))
            con.close()
        except Exception as e:
            seen.add('error: ' + str(e)[:60])
    return seen


def explain(d, env):
    """Why sqlsim and their script differ on an item: 'multi' (a prediction of several statements: sqlsim
    refuses it, psycopg2 runs them all and their script scores the last one's rows; on SQLite their script
    scores it 0), 'unstable' (the server answers the gold or the prediction differently from one session to
    the next: ties at a LIMIT), else 'unexplained'."""
    name, i, what, ours, theirs, ctx = d
    if ctx['error'] and 'more than one statement' in ctx['error']:
        return 'multi'
    db = ctx['db']
    if len(answers(ctx['dialect'], env, db, ctx['gold'])) > 1 or len(answers(ctx['dialect'], env, db, ctx['pred'])) > 1:
        return 'unstable'
    return 'unexplained'


def compare(name, n, ours_ex, ours_f1, their_ex, their_f1, t_ours, t_ex, t_f1, diffs, ctx):
    ex_same = f1_same = f1_bits = unscored = 0
    for i in range(n):
        oe = ours_ex[i] if ours_ex[i] is not None else 0
        of = ours_f1[i] if ours_f1[i] is not None else 0.0
        unscored += ours_ex[i] is None
        if oe == their_ex[i]:
            ex_same += 1
        else:
            diffs.append((name, i, 'ex', oe, their_ex[i], ctx(i)))
        if abs(of - their_f1[i]) <= 1e-12:
            f1_same += 1
            f1_bits += of == their_f1[i]
        else:
            diffs.append((name, i, 'soft_f1', of, their_f1[i], ctx(i)))
    print(f'{name:58s} {n:5d} {ex_same:5d} {f1_same:5d} {f1_bits:5d} {unscored:5d}  {t_ours:6.2f} {t_ex:6.2f} '
          f'{t_f1:6.2f} {(t_ex + t_f1) / t_ours:6.1f}x {t_ex / t_ours:6.1f}x', flush=True)
    return ex_same, f1_same


def reading(a, env):
    """For mini-dev's PostgreSQL and MySQL gold and predictions: what the server accepts (EXPLAIN
    succeeds) against what sqlsim reads in that dialect (sqlsim.parse); the texts the server accepts
    and sqlsim does not are the front end's misses."""
    import collections, psycopg2, pymysql
    sys.path.insert(0, a.pythonpath)
    import sqlsim
    dd = os.path.join(a.corpus, 'bird', 'mini_dev_dialects')
    for dialect, tag in (('postgres', 'postgresql'), ('mysql', 'mysql')):
        files = [os.path.join(dd, f'mini_dev_{tag}.json')] + sorted(
            os.path.join(dd, 'predictions', f) for f in os.listdir(os.path.join(dd, 'predictions')) if f'_{tag}' in f)
        if dialect == 'postgres':
            con = psycopg2.connect(host=env['SQLSIM_SERVERS_DIR'], user='reader', dbname='bird')
            con.autocommit = True
        else:
            con = pymysql.connect(unix_socket=env['SQLSIM_SERVERS_DIR'] + '/my.sock', user='reader', database='BIRD')
        counts, missed, lax = collections.Counter(), collections.Counter(), collections.Counter()
        examples = {}
        for f in files:
            data = json.load(open(f))
            texts = [d['SQL'] for d in data] if isinstance(data, list) else \
                [v.split('\t----- bird -----\t')[0] for v in data.values()]
            for t in texts:
                try:
                    sqlsim.parse(t, dialect=dialect)
                    ours = True
                except Exception as e:
                    ours, why = False, str(e).split(' (at offset')[0][:70]
                several = not ours and 'more than one statement' in why
                try:
                    cur = con.cursor()
                    cur.execute('EXPLAIN ' + t)
                    cur.fetchall()
                    server = not several
                except Exception:
                    server = False
                    if dialect == 'postgres':
                        con.rollback() if not con.autocommit else None
                counts[(server, ours)] += 1
                if server and not ours:
                    missed[why] += 1
                    examples.setdefault(why, t[:160])
                if ours and not server:
                    lax['read'] += 1
        n = sum(counts.values())
        acc = counts[(True, True)] + counts[(True, False)]
        print(f'reading {dialect}: {n} texts (gold and {len(files) - 1} prediction files); the server accepts {acc}, '
              f'sqlsim reads {counts[(True, True)]} of those ({100 * counts[(True, True)] / max(acc, 1):.2f}%) and '
              f'{counts[(False, True)]} the server refuses; neither: {counts[(False, False)]}')
        for why, k in missed.most_common(8):
            print(f'  missed {k}: {why}: {examples[why]!r}')
        con.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sqlsim', required=True)
    ap.add_argument('--gen-minidev', required=True)
    ap.add_argument('--corpus', required=True)
    ap.add_argument('--mini-dev', required=True)
    ap.add_argument('--servers-script', default=os.path.join(os.path.dirname(__file__), '..', 'tests', 'servers.sh'))
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--keep')
    ap.add_argument('--only', choices=['spider', 'minidev', 'reading'])
    ap.add_argument('--pythonpath', help='the built Python package (build/python): also measure how much of each '
                    'dialect\'s SQL sqlsim reads, against what the server accepts')
    a = ap.parse_args()
    for k in ('sqlsim', 'gen_minidev', 'corpus', 'mini_dev', 'servers_script', 'keep'):
        if getattr(a, k):
            setattr(a, k, os.path.abspath(getattr(a, k)))
    tmp = tempfile.mkdtemp(prefix='sqlsim-agree.')
    os.chmod(tmp, 0o755)  # the servers run as another user
    work = a.keep or tmp
    os.makedirs(work, exist_ok=True)
    servers = os.path.join(tmp, 'servers')
    try:
        copy_scripts(a.mini_dev, tmp)
        sh([a.servers_script, 'start', servers])
        env = read_env(os.path.join(servers, 'env'))
        pg_admin, my_admin = env['SQLSIM_PG_ADMIN'], env['SQLSIM_MY_ADMIN']
        spider, bird = os.path.join(a.corpus, 'spider'), os.path.join(a.corpus, 'bird')
        t0 = time.time()
        sh([a.sqlsim, 'load', '-q', '--into', pg_admin, os.path.join(spider, 'database')])
        sh([a.sqlsim, 'load', '-q', '--into', my_admin, os.path.join(spider, 'database')])
        mdb = os.path.join(tmp, 'minidev_dbs')
        sh([a.gen_minidev, '--tables', os.path.join(bird, 'dev_tables.json'), '--gold',
            os.path.join(bird, 'mini_dev_sqlite.json'), '--out', mdb], stdout=subprocess.DEVNULL)
        sh([a.sqlsim, 'load', '-q', '--into', pg_admin.replace('{db_id}', 'bird'), mdb])
        sh([a.sqlsim, 'load', '-q', '--into', my_admin.replace('{db_id}', 'BIRD'), mdb])
        print(f'servers started and loaded in {time.time() - t0:.1f} s (Spider: 19 databases each; mini-dev: '
              f'11 generated databases in bird / BIRD)\n')
        print(f'{"case":58s} {"items":>5s} {"EX=":>5s} {"F1=":>5s} {"bits":>5s} {"unsc":>5s}  {"sqlsim":>6s} '
              f'{"ex.py":>6s} {"f1.py":>6s} {"both/":>7s} {"ex/":>7s}')
        if a.pythonpath:
            reading(a, env)
        cases = []
        if a.only == 'reading':
            return 0
        if a.only != 'minidev':
            gold = os.path.join(spider, 'dev_gold.sql')
            for f in sorted(os.listdir(os.path.join(spider, 'predictions'))):
                for dialect, url in (('PostgreSQL', env['SQLSIM_PG']), ('MySQL', env['SQLSIM_MY'])):
                    cases.append((f'spider {f} on {dialect}', gold, gold, os.path.join(spider, 'predictions', f),
                                  dialect, url, None))
        if a.only != 'spider':
            dd = os.path.join(bird, 'mini_dev_dialects')
            for dialect, tag, db in (('PostgreSQL', 'postgresql', 'bird'), ('MySQL', 'mysql', 'BIRD')):
                url = (env['SQLSIM_PG'] if tag == 'postgresql' else env['SQLSIM_MY']).replace('{db_id}', db)
                for f in sorted(os.listdir(os.path.join(dd, 'predictions'))):
                    if f'_{tag}' in f:
                        cases.append((f'mini-dev {f}', os.path.join(dd, f'mini_dev_{tag}.json'),
                                      os.path.join(dd, f'mini_dev_{tag}_gold.sql'),
                                      os.path.join(dd, 'predictions', f), dialect, url, db))
        diffs, tot = [], [0, 0, 0, 0.0, 0.0, 0.0]
        for k, (name, gold, gold_sql, pred, dialect, url, db) in enumerate(cases):
            base = os.path.join(work, f'case{k:02d}')
            gold_lines = [l.rstrip('\n') for l in open(gold_sql, encoding='utf-8')]
            pred_json = pred
            if pred.endswith('.sql'):
                pred_json = base + '.pred.json'
                bird_pred_json(pred, gold_lines, pred_json)
            t_ours, ours_ex, ours_f1, ours_err = run_sqlsim(a, gold, pred, url, base + '.sqlsim.jsonl')
            t_ex, their_ex = run_theirs(a, tmp, 'evaluation_ex', dialect, pred_json, gold_sql, db, env,
                                        base + '.ex.json')
            t_f1, their_f1 = run_theirs(a, tmp, 'evaluation_f1', dialect, pred_json, gold_sql, db, env,
                                        base + '.f1.json')
            n = len(gold_lines)
            preds = json.load(open(pred_json))

            def ctx(i, gold_lines=gold_lines, preds=preds, ours_err=ours_err, dialect=dialect, db=db):
                return {'gold': gold_lines[i].split('\t')[0], 'pred': preds[str(i)].split('\t----- bird -----\t')[0],
                        'db': db or gold_lines[i].split('\t')[-1], 'dialect': dialect, 'error': ours_err[i]}
            ex_same, f1_same = compare(name, n, ours_ex, ours_f1, their_ex, their_f1, t_ours, t_ex, t_f1, diffs,
                                       ctx)
            for i, v in enumerate((n, ex_same, f1_same, t_ours, t_ex, t_f1)):
                tot[i] += v
        print(f'\nall: {tot[0]} items; EX equal {tot[1]} ({100 * tot[1] / max(tot[0], 1):.2f}%), Soft F1 equal '
              f'{tot[2]} ({100 * tot[2] / max(tot[0], 1):.2f}%); sqlsim {tot[3]:.1f} s, their EX {tot[4]:.1f} s + '
              f'F1 {tot[5]:.1f} s: {(tot[4] + tot[5]) / max(tot[3], 1e-9):.1f}x ({tot[4] / max(tot[3], 1e-9):.1f}x '
              f'against EX alone)')
        kinds = {}
        for d in diffs:
            k = explain(d, env)
            kinds[k] = kinds.get(k, 0) + 1
            print(f'differs ({k}): {d[0]} item {d[1]} {d[2]}: sqlsim {d[3]}, theirs {d[4]}')
        print(f'differences: {len(diffs)}' + ''.join(f', {k} {v}' for k, v in sorted(kinds.items())) +
              ' (multi: a prediction of several statements, which sqlsim refuses and psycopg2 runs, their '
              'script scoring the last one; unstable: the server answers the gold or the prediction '
              'differently from one session to the next)')
        return 0 if not kinds.get('unexplained') else 1
    finally:
        subprocess.run([a.servers_script, 'stop', servers])
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())

"""sqlsim spider2 against Spider 2.0's own evaluate.py, item for item, on prediction folders.

usage: agree.py --repo SPIDER2_CHECKOUT --flavor lite|snow --sqlsim build/sqlsim
                [--folders DIR] [--out DIR] [--python /usr/bin/python3]
The folders default to perturb.py's output made under --out (every gold variant as a
prediction, and perturbations of the gold: one kind per folder). The official script's results
are kept in --out (it is the slow side) and reused on the next run. Prints one line per folder
and the totals; exits 1 when any item differs."""
import argparse, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def lines(path):
    with open(path) as f:
        return {r['instance_id']: r for r in map(json.loads, f) if r}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repo', required=True)
    ap.add_argument('--flavor', choices=('lite', 'snow'), required=True)
    ap.add_argument('--sqlsim', required=True)
    ap.add_argument('--folders')
    ap.add_argument('--out', default='/tmp/sqlsim_spider2_agree')
    ap.add_argument('--python', default='/usr/bin/python3')
    ap.add_argument('--mode', default='exec_result', choices=('exec_result', 'sql'))
    ap.add_argument('--db-dir', help='sql mode: the folder of <db>.sqlite files')
    a = ap.parse_args()
    suite = os.path.join(a.repo, 'spider2-%s' % a.flavor, 'evaluation_suite')
    gold = os.path.join(suite, 'gold')
    out = os.path.join(a.out, a.flavor)
    os.makedirs(out, exist_ok=True)
    folders = a.folders
    if not folders:
        folders = os.path.join(out, 'folders')
        if not os.path.isdir(folders):
            subprocess.run([a.python, os.path.join(HERE, 'perturb.py'), gold, a.flavor, folders], check=True)
    tot = items = bad = passed = 0
    for name in sorted(os.listdir(folders)):
        d = os.path.join(folders, name)
        if not os.path.isdir(d):
            continue
        off = os.path.join(out, name + '.official')
        if not os.path.exists(off) or os.path.getsize(off) == 0:
            with open(off + '.part', 'w') as f:
                subprocess.run([a.python, os.path.join(HERE, 'official.py'), a.flavor,
                                os.path.join(suite, 'evaluate.py'), gold, d, a.mode], stdout=f, check=True)
            os.replace(off + '.part', off)
        mine = os.path.join(out, name + '.sqlsim')
        cmd = [a.sqlsim, 'spider2', '--gold', gold, '--flavor', a.flavor, '--pred', d, '-q',
               '--per-item', mine, '--mode', 'result' if a.mode == 'exec_result' else 'sql']
        if a.db_dir:
            cmd += ['--db-dir', a.db_dir]
        subprocess.run(cmd, stdout=subprocess.DEVNULL)
        o, m = lines(off), lines(mine)
        diff = sorted(i for i in set(o) | set(m) if (o.get(i) or {}).get('score') != (m.get(i) or {}).get('score'))
        tot += 1
        items += len(o)
        bad += len(diff)
        passed += sum(r['score'] for r in o.values())
        print('%-22s items %4d  official pass %4d  sqlsim pass %4d  differ %d %s' % (
            name, len(o), sum(r['score'] for r in o.values()), sum(r['score'] for r in m.values()),
            len(diff), ' '.join(diff[:5])))
    print('%s: %d folders, %d items, %d passing officially, %d differ' % (a.flavor, tot, items, passed, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

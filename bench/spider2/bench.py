"""Speed and memory of sqlsim spider2 against Spider 2.0's own evaluate.py in result mode.

usage: bench.py --repo SPIDER2_CHECKOUT --sqlsim build/sqlsim [--flavor lite] [--runs 3]
The predictions are each task's first gold variant (every task passes: the whole judgement
runs). Prints the best wall time of each side, the ratio, and sqlsim's peak memory on the
two halves of the tasks and on all (flat: all costs what its larger half does)."""
import argparse, json, os, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    """wall seconds and peak RSS (MiB) of one child"""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status:
        sys.exit('failed: %s' % ' '.join(cmd))
    return time.perf_counter() - t, ru.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repo', required=True)
    ap.add_argument('--sqlsim', required=True)
    ap.add_argument('--flavor', default='lite', choices=('lite', 'snow'))
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--python', default='/usr/bin/python3')
    a = ap.parse_args()
    suite = os.path.join(a.repo, 'spider2-%s' % a.flavor, 'evaluation_suite')
    gold = os.path.join(suite, 'gold')
    res = os.path.join(gold, 'exec_result')
    tmp = tempfile.mkdtemp(prefix='s2bench.')
    try:
        full, halves = os.path.join(tmp, 'all'), [os.path.join(tmp, 'half1'), os.path.join(tmp, 'half2')]
        for d in [full] + halves:
            os.makedirs(d)
        files = set(os.listdir(res))
        ids = [json.loads(l)['instance_id'] for l in open(os.path.join(gold, 'spider2%s_eval.jsonl' % a.flavor))]
        firsts = {}
        for i in ids:  # <id>.csv, or <id>_a.csv its first variant; a task whose gold is missing is left out
            f = i + '.csv' if i + '.csv' in files else i + '_a.csv' if i + '_a.csv' in files else None
            if f:
                firsts[i] = f
        for k, (i, f) in enumerate(sorted(firsts.items())):
            shutil.copy(os.path.join(res, f), os.path.join(full, i + '.csv'))
            shutil.copy(os.path.join(res, f), os.path.join(halves[k % 2], i + '.csv'))
        off = [a.python, os.path.join(HERE, 'official.py'), a.flavor, os.path.join(suite, 'evaluate.py'), gold, full,
               'exec_result']
        mine = lambda d, j: [a.sqlsim, 'spider2', '--gold', gold, '--flavor', a.flavor, '--pred', d, '--mode', 'result',
                             '-q', '-j', str(j)]
        t_off = min(run(off)[0] for _ in range(a.runs))
        t1 = min(run(mine(full, 1))[0] for _ in range(a.runs))
        t2, rss_all = min(run(mine(full, 2)) for _ in range(a.runs))
        rss_h = [min(run(mine(h, 2))[1] for _ in range(a.runs)) for h in halves]
        print('%s result mode, %d tasks (each its first gold variant)' % (a.flavor, len(firsts)))
        print('official evaluate.py  %7.2f s' % t_off)
        print('sqlsim -j 1           %7.2f s   %5.1fx' % (t1, t_off / t1))
        print('sqlsim -j 2           %7.2f s   %5.1fx' % (t2, t_off / t2))
        print('sqlsim peak memory    %7.1f MiB on all %d; %.1f and %.1f MiB on each half (flat: all = the larger half)'
              % (rss_all, len(firsts), rss_h[0], rss_h[1]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()

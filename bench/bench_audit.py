#!/usr/bin/env python3
"""bench_audit.py -- sqlsim audit's figures on the bundled benchmarks.

usage: bench_audit.py --sqlsim build/sqlsim --corpus ../shared/corpus [-j 2]

1. Speed and memory: BIRD mini-dev with its 13 baseline files, without
   databases (answers compared on generated ones; the issue's target: under
   60 s on 2 cores, memory flat), and Spider dev with its 7 files on its
   databases. Wall time and peak memory (the child's maximum resident set).
2. Stability without labels: the systems split into two disjoint halves (by
   their order in the directory: odd and even), each half audited alone;
   how many of one half's top 50 are in the other's top 50 and top 150.
   A ranking that came from one system's quirks would not survive the split.
"""
import argparse, glob, json, os, subprocess, sys, tempfile, time


def run(cmd):
    """stdout, wall seconds and the run's peak resident set in KiB (its own rusage, by wait4)."""
    with tempfile.TemporaryFile('w+') as out, tempfile.TemporaryFile('w+') as err:
        t0 = time.time()
        p = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        secs = time.time() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        if p.returncode:
            sys.exit(f'failed: {" ".join(cmd[:6])} ...\n{err.read()}')
        return out.read(), secs, usage.ru_maxrss


def benchmarks(corpus):
    bird, sp = os.path.join(corpus, 'bird'), os.path.join(corpus, 'spider')
    return [
        ('mini-dev, 13 files, no databases',
         ['--gold', f'{bird}/mini_dev_sqlite.json', '--tables', f'{bird}/dev_tables.json'],
         sorted(glob.glob(f'{bird}/mini_dev_predictions/*.json'))),
        ('Spider dev, 7 files, databases',
         ['--gold', f'{sp}/dev_gold.sql', '--tables', f'{sp}/tables.json', '--db-dir', f'{sp}/database'],
         sorted(glob.glob(f'{sp}/predictions/*.sql'))),
    ]


def ranked(sqlsim, args, preds, jobs):
    cmd = [sqlsim, 'audit', *args, '--format', 'json', '--all', '-j', str(jobs)]
    for p in preds:
        cmd += ['--pred', p]
    out, secs, rss = run(cmd)
    return [json.loads(l)['index'] for l in out.splitlines()], secs, rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sqlsim', required=True)
    ap.add_argument('--corpus', required=True)
    ap.add_argument('-j', type=int, default=2)
    a = ap.parse_args()
    print(f'{"benchmark":<36} {"items":>6} {"seconds":>8} {"peak MB":>8}  target')
    halves = []
    for name, args, preds in benchmarks(a.corpus):
        order, secs, rss = ranked(a.sqlsim, args, preds, a.j)
        target = f'{secs / 60:.2f} of 60 s' if 'mini-dev' in name else ''
        print(f'{name:<36} {len(order):>6} {secs:>8.2f} {rss / 1024:>8.1f}  {target}')
        halves.append((name, args, preds))
    print(f'\n{"benchmark":<36} {"half A":>7} {"half B":>7} {"top 50 shared":>14} {"A top 50 in B top 150":>22}')
    for name, args, preds in halves:
        a_half, b_half = preds[0::2], preds[1::2]
        ra, _, _ = ranked(a.sqlsim, args, a_half, a.j)
        rb, _, _ = ranked(a.sqlsim, args, b_half, a.j)
        shared = len(set(ra[:50]) & set(rb[:50]))
        in150 = len(set(ra[:50]) & set(rb[:150]))
        print(f'{name:<36} {len(a_half):>7} {len(b_half):>7} {shared:>14} {in150:>22}')


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""agree_duckdb.py -- sqlsim's EX on DuckDB against DuckDB's own client,
item by item, and the time each takes.

usage: agree_duckdb.py --sqlsim BIN --node-modules DIR --corpus DIR [--jobs N]

DIR (--node-modules) holds @duckdb/node-api, installed by the caller in a
temporary folder (npm install @duckdb/node-api@1.5.6-r.1; never committed).
Spider's 19 bundled databases are loaded into DuckDB files with sqlsim load;
then the 7 Spider prediction files are scored on them by sqlsim eval
(--metrics exec, BIRD's set semantics) and by bench/duckdb_client.mjs (the
node client: each query run, its rows compared as sets, values compared as
DuckDB's Python client's compare). Prints the agreement, every item where
the two differ (with both queries), and the seconds of each."""
import argparse, json, os, shutil, subprocess, sys, tempfile, time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sqlsim', required=True)
    ap.add_argument('--node-modules', required=True)
    ap.add_argument('--corpus', required=True)
    ap.add_argument('--jobs', type=int, default=1)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    sp = os.path.join(os.path.abspath(a.corpus), 'spider')
    preds = sorted(os.path.join(sp, 'predictions', f) for f in os.listdir(os.path.join(sp, 'predictions')))
    tmp = tempfile.mkdtemp(prefix='sqlsim-duckdb.')
    try:
        t = time.time()
        subprocess.run([a.sqlsim, 'load', '-q', '--into', f'duckdb://{tmp}/{{db_id}}.duckdb',
                        os.path.join(sp, 'database')], check=True)
        print(f'sqlsim load: 19 databases into DuckDB files in {time.time() - t:.2f} s')
        pattern = f'{tmp}/{{db_id}}.duckdb'
        t = time.time()
        out = subprocess.run(['node', os.path.join(here, 'duckdb_client.mjs'), a.node_modules, pattern,
                              os.path.join(sp, 'dev_gold.sql')] + preds, check=True, capture_output=True, text=True)
        node_s = time.time() - t
        ref = {(r['file'], r['index']): r['ex'] for r in map(json.loads, out.stdout.splitlines())}
        t = time.time()
        subprocess.run(['node', os.path.join(here, 'duckdb_client.mjs'), '--gold-per-file', a.node_modules, pattern,
                        os.path.join(sp, 'dev_gold.sql')] + preds, check=True, capture_output=True, text=True)
        node_file_s = time.time() - t
        flags = []
        for p in preds:
            flags += ['--pred', p]
        t = time.time()
        subprocess.run([a.sqlsim, 'eval', '-q', '--metrics', 'exec', '-j', str(a.jobs), '--gold',
                        os.path.join(sp, 'dev_gold.sql')] + flags + ['--engine', 'duckdb://' + pattern, '--per-item',
                        os.path.join(tmp, 'items.jsonl')], check=True, stdout=subprocess.DEVNULL)
        sqlsim_s = time.time() - t
        gold = [l.rstrip('\n').split('\t') for l in open(os.path.join(sp, 'dev_gold.sql'))]
        agree = differ = scored = 0
        for r in map(json.loads, open(os.path.join(tmp, 'items.jsonl'))):
            f = r['model'] + '.sql'
            mine = r['ex']['bird'] if r.get('ex') else None
            theirs = ref[(f, r['index'])]
            if mine is None and theirs is None:
                continue
            scored += 1
            if mine == theirs:
                agree += 1
                continue
            differ += 1
            pred = open(os.path.join(sp, 'predictions', f), newline='').read().split('\n')[r['index']].strip()
            print(f'differs: {f} item {r["index"]}: sqlsim {mine}, the client {theirs}'
                  f'{" (" + r["error"]["message"][:120] + ")" if r.get("error") else ""}\n  gold: {gold[r["index"]][0]}'
                  f'\n  pred: {pred}')
        print(f'items scored by either: {scored}; agree {agree} ({100 * agree / max(scored, 1):.2f}%), differ {differ}')
        print(f'seconds: sqlsim -j {a.jobs} {sqlsim_s:.2f}; DuckDB\'s node client {node_s:.2f} with each gold run once '
              f'({node_s / sqlsim_s:.1f}x), {node_file_s:.2f} with each file scored on its own as BIRD\'s evaluator '
              f'does ({node_file_s / sqlsim_s:.1f}x)')
    finally:
        shutil.rmtree(tmp)


if __name__ == '__main__':
    main()

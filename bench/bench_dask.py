#!/usr/bin/env python3
"""bench_dask.py -- sqlsim.dask on a 2-worker LocalCluster against one process.

Scores N structural pairs (the bundled Spider dev predictions of all seven
models, repeated) and M EX pairs both ways, and prints throughput, whether the
results are identical (a SHA-256 per partition of the records as JSON, the
same partitions both ways), and each worker's peak memory (ru_maxrss).

usage: PYTHONPATH=build/python /usr/bin/python3 bench/bench_dask.py [--structural 1000000] [--ex 100000]
"""
import argparse
import hashlib
import json
import os
import resource
import tempfile
import time

from distributed import Client, LocalCluster

import sqlsim
import sqlsim.dask

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "corpus", "spider")
TABLES = os.path.join(CORPUS, "tables.json")
DB_DIR = os.path.join(CORPUS, "database")


def corpus_pairs(with_db):
    with open(os.path.join(CORPUS, "dev_gold.sql"), encoding="utf-8") as f:
        gold = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    pairs = []
    for name in sorted(os.listdir(os.path.join(CORPUS, "predictions"))):
        with open(os.path.join(CORPUS, "predictions", name), encoding="utf-8") as f:
            pred = [line.rstrip("\n") for line in f]
        pairs += [(g[0], p, g[1]) for g, p in zip(gold, pred)]
    if with_db:
        pairs = [t for t in pairs if os.path.exists(os.path.join(DB_DIR, t[2], t[2] + ".sqlite"))]
    return pairs


def digest(records):
    h = hashlib.sha256()
    for r in records:
        h.update(json.dumps(r, sort_keys=True).encode())
    return [(len(records), h.hexdigest())]


def score_digest(pairs, ev):
    return digest(ev.score_many(list(pairs)))


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(label, ev, pairs, nparts, client, tmp):
    """The pairs as nparts JSON Lines files; one process reads and scores them
    in turn, the cluster's workers read and score them (sqlsim.dask.read_pairs)."""
    size = (len(pairs) + nparts - 1) // nparts
    paths = []
    for k in range(0, len(pairs), size):
        paths.append(os.path.join(tmp, f"part{k // size:04d}.jsonl"))
        with open(paths[-1], "w", encoding="utf-8") as f:
            for g, p, d in pairs[k:k + size]:
                f.write(json.dumps({"gold": g, "pred": p, "db_id": d}) + "\n")
    t = time.perf_counter()
    local = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            local += score_digest([sqlsim.dask._pair(line) for line in f], ev)
    t_local = time.perf_counter() - t
    t = time.perf_counter()
    remote = sqlsim.dask.read_pairs(paths).map_partitions(score_digest, ev).compute()
    t_dask = time.perf_counter() - t
    for path in paths:
        os.unlink(path)
    parts = paths
    same = remote == local
    print(f"{label}: {len(pairs):,} pairs, {len(parts)} partitions")
    print(f"  one process: {len(pairs) / t_local:,.0f} pairs/s ({t_local:.1f} s)")
    print(f"  dask, 2 workers: {len(pairs) / t_dask:,.0f} pairs/s ({t_dask:.1f} s), {t_local / t_dask:.2f}x;"
          f" results identical: {same}")
    print(f"  peak memory per worker (MiB): {sorted(round(v) for v in client.run(peak_rss_mib).values())}")
    return same


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--structural", type=int, default=1_000_000)
    ap.add_argument("--ex", type=int, default=100_000)
    args = ap.parse_args()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        base = corpus_pairs(False)
        pairs = (base * (args.structural // len(base) + 1))[:args.structural]
        tmp = tempfile.mkdtemp(prefix="sqlsim_dask_")
        ok = run("structural score (bis)", sqlsim.Evaluator(tables=TABLES, metrics="bis"), pairs, 50, client, tmp)
        base = corpus_pairs(True)
        pairs = (base * (args.ex // len(base) + 1))[:args.ex]
        ok &= run("EX (exec)", sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec"), pairs, 20, client, tmp)
        os.rmdir(tmp)
    print(f"one process peak memory (MiB): {peak_rss_mib():.0f}")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()

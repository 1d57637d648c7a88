#!/usr/bin/env python3
"""bench_python.py -- the Python package and the streaming mode against the C engine.

Prints, in one run on the bundled Spider dev corpus (DAIL-SQL's predictions,
the 972 items whose database is bundled):
  1. per-pair cost from C (bench_engine) and from Python (Evaluator.score), for
     the structural score and for EX, and Python's overhead over C;
  2. score_many on 2 threads against 1;
  3. a typical Python reward function (sqlite3 + a thread timeout, as RL
     recipes write it) against Evaluator.reward_many: throughput, and whether
     each stops a runaway query within its limit;
  4. `sqlsim stream` against `sqlsim eval` (the batch command) on N requests;
  5. RL as a GRPO step sees it: 8 samples per question (the 7 bundled models'
     predictions and the gold, 7,776 pairs), Evaluator.reward_many(jobs=2)
     against the usual Python reward in a multiprocessing Pool of 2 with a
     timeout per task, each round reported; and small batches: reward_many of
     1 and of a question's 8 samples against a loop of reward().

usage: PYTHONPATH=build/python python3 bench/bench_python.py [--build build] [--stream-n 100000]
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import sqlsim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "corpus", "spider")
TABLES = os.path.join(CORPUS, "tables.json")
DB_DIR = os.path.join(CORPUS, "database")


def spider_pairs(model="dailsql_gpt4"):
    with open(os.path.join(CORPUS, "dev_gold.sql"), encoding="utf-8") as f:
        gold = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    with open(os.path.join(CORPUS, "predictions", model + ".sql"), encoding="utf-8") as f:
        pred = [line.rstrip("\n") for line in f]
    pairs = [(g[0], p, g[1]) for g, p in zip(gold, pred)]
    return [t for t in pairs if os.path.exists(db_path(t[2]))]


def db_path(db_id):
    return os.path.join(DB_DIR, db_id, db_id + ".sqlite")


def best_of(rounds, fn):
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


# The C loop is also measured with glibc's trim and mmap thresholds raised
# (freed memory kept instead of handed back to the OS), since a small C
# process and the Python interpreter's large heap could pay differently for
# that: it tells a malloc effect apart from the package's own overhead.
TUNED = "glibc.malloc.mmap_threshold=4194304:glibc.malloc.trim_threshold=67108864"


def c_us_per_pair(build, metrics, tsv, rounds, tuned=False):
    env = dict(os.environ, GLIBC_TUNABLES=TUNED) if tuned else None
    out = subprocess.run([os.path.join(build, "bench", "bench_engine"), "--metrics", metrics, "--tables", TABLES,
                          "--db-dir", DB_DIR, "--rounds", str(rounds), tsv], capture_output=True, text=True, check=True,
                         env=env)
    return float(dict(line.split() for line in out.stdout.splitlines())["us_per_pair"])


# A reward function as text-to-SQL RL recipes write it: sqlite3 opened
# read-write, the queries run in a thread, the caller waits `timeout` seconds.
def python_reward(gold, pred, db_id, timeout):
    result = {}

    def run():
        try:
            con = sqlite3.connect(db_path(db_id), check_same_thread=False)
            result["pred"] = con.execute(pred).fetchall()
            result["gold"] = con.execute(gold).fetchall()
            con.close()
        except Exception as e:  # noqa: BLE001 -- any failure is reward 0
            result["error"] = e

    th = threading.Thread(target=run, daemon=True)
    th.start()
    th.join(timeout)
    if th.is_alive() or "error" in result:
        return 0.0, th
    return float(set(result["pred"]) == set(result["gold"])), th


def pool_reward(task):
    """One pair in a worker process: sqlite3 read-only, BIRD's set comparison."""
    gold, pred, db_id = task
    try:
        con = sqlite3.connect("file:" + db_path(db_id) + "?mode=ro", uri=True)
        ok = set(con.execute(pred).fetchall()) == set(con.execute(gold).fetchall())
        con.close()
        return float(ok)
    except Exception:  # noqa: BLE001 -- any failure is reward 0
        return 0.0


def samples_per_question():
    """(gold, sample, db_id) for every item with a database: the 7 models' predictions and the gold."""
    models = sorted(f[:-4] for f in os.listdir(os.path.join(CORPUS, "predictions")) if f.endswith(".sql"))
    per_model = [spider_pairs(m) for m in models]
    out = []
    for k in range(len(per_model[0])):
        g, _, db = per_model[0][k]
        out += [(g, pm[k][1], db) for pm in per_model] + [(g, g, db)]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--stream-n", type=int, default=100000)
    args = ap.parse_args()
    pairs = spider_pairs()
    tmp = tempfile.mkdtemp(prefix="sqlsim_bench_")
    tsv = os.path.join(tmp, "pairs.tsv")
    with open(tsv, "w", encoding="utf-8") as f:
        for g, p, db in pairs:
            f.write(f"{g}\t{p}\t{db}\n")
    print(f"pairs: {len(pairs)} (Spider dev, dailsql_gpt4, items with a bundled database)")

    print("\n1. per-pair cost, one thread (best of %d rounds)" % args.rounds)
    print(f"{'metric':<18}{'C us/pair':>11}{'C tuned':>9}{'Python':>9}{'over C':>9}{'over tuned':>12}")
    for label, metrics in (("structural (bis)", "bis"), ("EX (exec)", "exec")):
        c = c_us_per_pair(args.build, metrics, tsv, args.rounds)
        ct = c_us_per_pair(args.build, metrics, tsv, args.rounds, tuned=True)
        ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics=metrics)
        score = ev.score
        ev.score(*pairs[0])
        py = best_of(args.rounds, lambda: [score(g, p, d) for g, p, d in pairs]) / len(pairs) * 1e6
        print(f"{label:<18}{c:>11.1f}{ct:>9.1f}{py:>9.1f}{(py / c - 1) * 100:>8.1f}%{(py / ct - 1) * 100:>11.1f}%")
    print(f"(C tuned: GLIBC_TUNABLES={TUNED})")

    print("\n2. score_many, structural score, threads")
    ev = sqlsim.Evaluator(tables=TABLES, metrics="bis")
    many = pairs * 5
    t1 = best_of(args.rounds, lambda: ev.score_many(many, jobs=1))
    t2 = best_of(args.rounds, lambda: ev.score_many(many, jobs=2))
    print(f"{len(many)} pairs: 1 thread {len(many) / t1:,.0f} pairs/s, 2 threads {len(many) / t2:,.0f} pairs/s, "
          f"speedup {t1 / t2:.2f}x (machine: {os.cpu_count()} cores)")

    print("\n3. RL reward: a typical Python reward function against Evaluator.reward_many (1 thread)")
    ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,bis", semantics="bird", timeout=5)
    tp = best_of(1, lambda: [python_reward(g, p, d, 5)[0] for g, p, d in pairs])
    ts = best_of(1, lambda: ev.reward_many(pairs, jobs=1))
    print(f"python sqlite3 + thread: {len(pairs) / tp:,.0f} pairs/s; sqlsim reward_many: {len(pairs) / ts:,.0f} pairs/s;"
          f" ratio {tp / ts:.2f}x")
    runaway = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
    gold, db = "SELECT count(*) FROM singer", "concert_singer"
    limit = 1.0
    t = time.perf_counter()
    _, th = python_reward(gold, runaway, db, limit)
    returned = time.perf_counter() - t
    time.sleep(2.0)
    still = th.is_alive()
    print(f"runaway query, limit {limit:.0f} s: python reward returns after {returned:.2f} s, "
          f"the query {'is still running 2 s later (it cannot be stopped)' if still else 'stopped'}")
    ev1 = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,bis", timeout=limit)
    t = time.perf_counter()
    r = ev1.reward(gold, runaway, db)
    print(f"runaway query, limit {limit:.0f} s: sqlsim reward returns {r} after {time.perf_counter() - t:.2f} s, "
          "the query stopped inside SQLite (nothing left running)")

    n = args.stream_n
    print(f"\n4. streaming: {n:,} requests through `sqlsim stream` against `sqlsim eval` (-j 2, metrics bis)")
    reps = (n + len(pairs) - 1) // len(pairs)
    sel = (pairs * reps)[:n]
    gold_f, pred_f, req_f = (os.path.join(tmp, x) for x in ("gold.sql", "pred.sql", "req.jsonl"))
    with open(gold_f, "w") as g, open(pred_f, "w") as p, open(req_f, "w") as r:
        for k, (gs, ps, db) in enumerate(sel):
            g.write(f"{gs}\t{db}\n")
            p.write(ps + "\n")
            r.write(json.dumps({"gold": gs, "pred": ps, "db_id": db, "id": k}) + "\n")
    sq = os.path.join(args.build, "sqlsim")
    te = best_of(1, lambda: subprocess.run([sq, "eval", "--metrics", "bis", "-j", "2", "--tables", TABLES, "--gold",
                                            gold_f, "--pred", pred_f, "--per-item", os.devnull],
                                           stdout=subprocess.DEVNULL, check=True))
    with open(req_f) as fin:
        t = time.perf_counter()
        subprocess.run([sq, "stream", "--metrics", "bis", "-j", "2", "--tables", TABLES], stdin=fin,
                       stdout=subprocess.DEVNULL, check=True)
        ts = time.perf_counter() - t
    print(f"eval (batch): {n / te:,.0f} pairs/s; stream: {n / ts:,.0f} pairs/s; stream/batch {te / ts * 100:.0f}%")
    for f in (tsv, gold_f, pred_f, req_f):
        os.unlink(f)
    os.rmdir(tmp)

    import multiprocessing
    samples = samples_per_question()
    print(f"\n5. RL: {len(samples):,} pairs, 8 samples per question; Evaluator.reward_many(jobs=2) against "
          "sqlite3 in a multiprocessing Pool of 2 (timeout 5 s a task), BIRD's semantics, each round")
    ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,bis", semantics="bird", timeout=5)
    with multiprocessing.get_context("fork").Pool(2) as pool:
        for rnd in range(args.rounds):
            t = time.perf_counter()
            futures = [pool.apply_async(pool_reward, (x,)) for x in samples]
            base = []
            for f in futures:
                try:
                    base.append(f.get(timeout=5))
                except multiprocessing.TimeoutError:
                    base.append(0.0)
            tp = time.perf_counter() - t
            t = time.perf_counter()
            ev.reward_many(samples, jobs=2)
            ts = time.perf_counter() - t
            print(f"round {rnd + 1}: Pool of 2 {len(samples) / tp:,.0f} pairs/s, reward_many(jobs=2) "
                  f"{len(samples) / ts:,.0f} pairs/s: {tp / ts:.2f}x")
    print("small batches (one question; best of %d rounds of 200 calls):" % args.rounds)
    one = samples[:1]
    eight = samples[8:16]  # a question's 8 samples
    for label, batch in (("1 pair", one), ("8 samples", eight)):
        loop = best_of(args.rounds, lambda: [[ev.reward(*x) for x in batch] for _ in range(200)]) / 200
        many = best_of(args.rounds, lambda: [ev.reward_many(batch) for _ in range(200)]) / 200
        print(f"  {label}: a loop of reward() {loop * 1e6:,.0f} us, reward_many {many * 1e6:,.0f} us: "
              f"{many / loop:.2f}x the loop (target <= 1.5x)")


if __name__ == "__main__":
    main()

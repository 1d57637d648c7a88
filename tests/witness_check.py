#!/usr/bin/env python3
"""witness_check.py -- every failing synthetic verdict's witness replays in plain SQLite.

usage: witness_check.py SQLSIM CORPUS_DIR [--keep DIR] [--files N] [--no-solver]

Scores the bundled corpus without databases (`sqlsim eval --metrics strict --witness`): the
7 Spider dev files (Spider's semantics) and the 13 BIRD mini-dev files (BIRD's). For every
item whose synth or strict verdict fails, its witness must:
  - exist;
  - load into a fresh in-memory database with Python's sqlite3 (SQLite without sqlsim's
    functions or sandbox) with foreign keys enforced (PRAGMA foreign_keys = ON; its CREATE
    TABLE carries the schema's keys and CHECKs), and be no larger than 40 rows;
  - answer as it says: the gold's and the prediction's queries (as run) return the counts it
    reports and begin with the rows it shows (a prediction it reports failing fails here;
    a query that reads the clock, 'now', is checked for its counts only);
  - tell them apart as the verdict compares: Spider's result comparison (rows as a multiset,
    columns in any order that fits, in order when the gold has ORDER BY) or BIRD's (sets of
    rows); a prediction that fails differs; for a synth witness, the gold returns a value
    that is not NULL.
--no-solver leaves strict's solver out (the sanitizer build: test_solver and fuzz_synth
run the solver there; its witnesses replay in the release build's run).
--files N scores the first N prediction files of each benchmark only (the sanitizer build
runs a few: its point there is memory, the replay itself is the release build's).
Prints the witnesses' sizes (median, largest) per benchmark and exits 1 on the first
benchmark with a witness that does not replay (each such item named, at most 20).
"""
import itertools
import json
import math
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile


def value_eq(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, bytes):
        return False  # shown as text by sqlsim; not compared
    return a == b


def rows_eq(shown, got):
    if len(shown) != len(got):
        return False
    for s, g in zip(shown, got):
        if len(s) != len(g):
            return False
        for x, y in zip(s, g):
            if isinstance(y, bytes):
                continue
            if not value_eq(y, x):
                return False
    return True


def spider_eq(g, p, ordered):
    """Spider's execution comparison (the test-suite evaluator's result_eq)."""
    if not g and not p:
        return True
    if len(g) != len(p):
        return False
    n = len(g[0])
    if len(p[0]) != n:
        return False
    perms = itertools.permutations(range(n)) if n <= 6 else [tuple(range(n))]
    for perm in perms:
        q = [tuple(row[i] for i in perm) for row in p]
        if ordered:
            if g == q:
                return True
        elif set(g) == set(q) and sorted(map(repr, g)) == sorted(map(repr, q)):
            return True
    return False


def run(db, sql):
    try:
        return [tuple(r) for r in db.execute(sql).fetchall()], None
    except sqlite3.Error as e:
        return None, str(e)


def check(item, bird):
    w = item.get("witness")
    if not w:
        return "no witness"
    if w.get("database") is None or w.get("gold_count") is None:
        return "a synthetic verdict's witness without a database"
    if w["rows"] > 40:
        return "%d rows" % w["rows"]
    db = sqlite3.connect(":memory:")
    try:
        db.execute("PRAGMA foreign_keys = ON")  # the declared schema's keys enforced, as its CHECKs are
        db.executescript(w["database"])
    except sqlite3.Error as e:
        return "does not load: %s" % e
    n = sum(db.execute('SELECT count(*) FROM "%s"' % t.replace('"', '""')).fetchone()[0]
            for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    if n != w["rows"]:
        return "holds %d rows, says %d" % (n, w["rows"])
    clock = "'now'" in (w["gold_sql"] + w["pred_sql"]).lower()  # reads the clock: counts only
    g, gerr = run(db, w["gold_sql"])
    if g is None:
        return "the gold fails: %s" % gerr
    if len(g) != w["gold_count"] or not (clock or rows_eq(w["gold_rows"], g[:len(w["gold_rows"])])):
        return "the gold returns %d rows %r, the witness says %d %r" % (len(g), g[:3], w["gold_count"], w["gold_rows"][:3])
    if w["pred_count"] is None and (w.get("pred_error") or "").startswith("stopped"):
        return None  # it ran past sqlsim's limits there: not run again here, which has none
    p, perr = run(db, w["pred_sql"])
    if w["pred_count"] is None:  # it failed there
        return None if p is None else "the prediction runs (%d rows), the witness says it fails" % len(p)
    if p is None:
        return "the prediction fails: %s" % perr
    if len(p) != w["pred_count"] or not (clock or rows_eq(w["pred_rows"], p[:len(w["pred_rows"])])):
        return "the prediction returns %d rows, the witness says %d" % (len(p), w["pred_count"])
    if w["verdict"] == "synth" and not any(v is not None for row in g for v in row):
        return "a synth witness on which the gold returns no value"
    if clock:
        return None
    same = set(g) == set(p) if bird else spider_eq(g, p, "order by" in w["gold_sql"].lower())
    return "the answers do not differ" if same else None


def main():
    args = sys.argv[1:]
    keep = None
    if "--keep" in args:
        i = args.index("--keep")
        keep = args[i + 1]
        del args[i:i + 2]
    nfiles = None
    if "--files" in args:
        i = args.index("--files")
        nfiles = int(args[i + 1])
        del args[i:i + 2]
    solver = ["--solver-budget", "0.005"]
    if "--no-solver" in args:
        args.remove("--no-solver")
        solver = ["--no-solver"]
    if len(args) != 2:
        sys.exit(__doc__)
    sqlsim, corpus = args
    work = keep or tempfile.mkdtemp(prefix="witness_check.")
    os.makedirs(work, exist_ok=True)
    spider = os.path.join(corpus, "spider")
    bird = os.path.join(corpus, "bird")
    runs = [
        ("spider", False, ["--gold", os.path.join(spider, "dev_gold.sql"), "--tables", os.path.join(spider, "tables.json")],
         sorted(os.path.join(spider, "predictions", f) for f in os.listdir(os.path.join(spider, "predictions")))),
        ("mini-dev", True, ["--gold", os.path.join(bird, "mini_dev_sqlite.json"), "--tables", os.path.join(bird, "dev_tables.json")],
         sorted(os.path.join(bird, "mini_dev_predictions", f) for f in os.listdir(os.path.join(bird, "mini_dev_predictions")))),
    ]
    status = 0
    for name, is_bird, base, preds in runs:
        out = os.path.join(work, name + ".jsonl")
        # (a short solver budget: its refutations take a few milliseconds; the rest of its
        # time goes to bounding equivalent pairs, which have no witness)
        cmd = [sqlsim, "eval", "-q", "-j", "2", "--metrics", "strict", "--witness"] + solver + base
        for p in preds[:nfiles]:
            cmd += ["--pred", p]
        cmd += ["--per-item", out]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        failing, sizes, bad = 0, [], []
        with open(out) as f:
            for line in f:
                item = json.loads(line)
                if item.get("synth_pass") is not False and item.get("strict") is not False:
                    continue
                failing += 1
                why = check(item, is_bird)
                if why:
                    bad.append("%s #%d: %s" % (item["model"], item["index"], why))
                elif item["witness"]:
                    sizes.append(item["witness"]["rows"])
        print("%s: %d failing verdicts, %d witnesses replay; rows median %g, largest %d"
              % (name, failing, failing - len(bad), statistics.median(sizes) if sizes else 0, max(sizes, default=0)))
        for b in bad[:20]:
            print("  " + b)
        if bad or (sizes and (statistics.median(sizes) > 8 or max(sizes) > 40)):
            status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()

"""The Python package against the C engine, on the bundled Spider corpus.

Run by ctest (tests/CMakeLists.txt) with PYTHONPATH=build/python and
SQLSIM_CORPUS pointing at corpus/spider.
"""
import hashlib
import json
import os
import pickle
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import sqlsim

CORPUS = os.environ.get("SQLSIM_CORPUS", os.path.join(os.path.dirname(__file__), "..", "..", "corpus", "spider"))
TABLES = os.path.join(CORPUS, "tables.json")
DB_DIR = os.path.join(CORPUS, "database")


def spider_pairs(model="dailsql_gpt4", limit=None):
    """(gold, pred, db_id) of Spider dev, with a bundled model's predictions."""
    with open(os.path.join(CORPUS, "dev_gold.sql"), encoding="utf-8") as f:
        gold = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    with open(os.path.join(CORPUS, "predictions", model + ".sql"), encoding="utf-8") as f:
        pred = [line.rstrip("\n") for line in f]
    pairs = [(g[0], p, g[1]) for g, p in zip(gold, pred)]
    # keep the items whose database is bundled (the execution metrics need it)
    pairs = [t for t in pairs if os.path.exists(os.path.join(DB_DIR, t[2], t[2] + ".sqlite"))]
    return pairs[:limit] if limit else pairs


def same(a, b, rel=1e-5):
    """Equal, with floats to the 6 significant digits JSON carries."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= rel * max(1.0, abs(a))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b and type(a) is type(b)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class TestScore(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="match,exec,result,bis,categories,synth")
        cls.pairs = spider_pairs(limit=300)

    def test_fields_match_json(self):
        """The dict has exactly the fields and values of the JSON record the command line writes."""
        for g, p, db in self.pairs:
            d = self.ev.score(g, p, db)
            j = json.loads(self.ev.score_json(g, p, db))
            self.assertTrue(same(d, j), (g, p, d, j))

    def test_known_answers(self):
        d = self.ev.score("SELECT count(*) FROM singer", "SELECT count(singer_id) FROM singer", "concert_singer")
        self.assertEqual(d["ex"], {"spider": 1, "bird": 1})
        self.assertEqual(d["hardness"], "easy")
        self.assertIsNone(d["error"])
        d = self.ev.score("SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age < 30", "concert_singer")
        self.assertEqual(d["ex"]["bird"], 0)
        self.assertIn("filter_operator", d["categories"])
        d = self.ev.score("SELECT name FROM singer", "SELECT name FROM singer WHERE", "concert_singer")
        self.assertEqual(d["error"]["side"], "pred")
        self.assertEqual(d["categories"], ["unparseable"])
        d = self.ev.score("SELECT 1", "SELECT 1", "no_such_database")
        self.assertEqual(d["error"]["side"], "gold")
        self.assertIn("no_such_database", d["error"]["message"])

    def test_synth_without_databases(self):
        """Schema only: written another way passes synthetic execution; a wrong filter does not."""
        ev = sqlsim.Evaluator(tables=TABLES, metrics="synth", synth_databases=4)
        d = ev.score("SELECT max(age) FROM singer", "SELECT age FROM singer ORDER BY age DESC LIMIT 1", "concert_singer")
        self.assertEqual((d["synth"], d["synth_pass"], d["synth_databases"]), (1, True, 4))
        self.assertGreater(d["score"], d["score_structure"])
        d = ev.score("SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age > 28", "concert_singer")
        self.assertIs(d["synth_pass"], False)
        self.assertIn("database", d["synth_why"])

    def test_test_suite_options(self):
        """keep_distinct and plug_value reach the engine (the command line's --keep-distinct, --plug-value)."""
        g, p = "SELECT DISTINCT country FROM singer", "SELECT country FROM singer"
        self.assertEqual(self.ev.score(g, p, "concert_singer")["ex"]["spider"], 1)
        self.assertEqual(self.ev.score(g, p, "concert_singer")["databases"], 1)
        keep = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec", keep_distinct=True)
        self.assertEqual(keep.score(g, p, "concert_singer")["ex"]["spider"], 0)
        g, p = "SELECT name FROM singer WHERE age > 40", "SELECT name FROM singer WHERE age > 45"
        self.assertEqual(self.ev.score(g, p, "concert_singer")["ex"]["spider"], 0)
        plug = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec", plug_value=True)
        self.assertEqual(plug.score(g, p, "concert_singer")["ex"]["spider"], 1)

    def test_score_many_matches_score(self):
        one = [self.ev.score(*t) for t in self.pairs]
        for jobs in (1, 2, 3):
            self.assertEqual(self.ev.score_many(self.pairs, jobs=jobs), one)
        self.assertEqual(self.ev.score_many(iter(self.pairs[:10])), one[:10])  # any iterable
        self.assertEqual(self.ev.score_many([]), [])

    def test_score_many_bad_input(self):
        with self.assertRaisesRegex(ValueError, "pair 1"):
            self.ev.score_many([("SELECT 1", "SELECT 1"), ("SELECT 1",)])
        with self.assertRaisesRegex(TypeError, "pair 0"):
            self.ev.score_many([("SELECT 1", 2)])
        with self.assertRaises(TypeError):
            self.ev.score_many(5)

    def test_threads_share_an_evaluator(self):
        want = [self.ev.score(*t) for t in self.pairs[:100]]
        got = [None] * 4
        def work(k):
            got[k] = [self.ev.score(*t) for t in self.pairs[:100]]
        th = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in th:
            t.start()
        for t in th:
            t.join()
        for g in got:
            self.assertEqual(g, want)

    def test_databases_untouched(self):
        path = os.path.join(DB_DIR, "concert_singer", "concert_singer.sqlite")
        before = digest(path)
        for sql in ("DELETE FROM singer", "DROP TABLE singer", "UPDATE singer SET age = 0",
                    "ATTACH DATABASE '/tmp/x.db' AS x", "PRAGMA journal_mode = DELETE"):
            d = self.ev.score("SELECT count(*) FROM singer", sql, "concert_singer")
            self.assertEqual(d["ex"]["bird"], 0, sql)
            self.assertEqual(d["error"]["side"], "pred", sql)
        self.assertEqual(digest(path), before)


class TestEvidence(unittest.TestCase):
    """strict and the witness: the fields, and a witness a person can replay."""

    def test_strict_and_generated_witness(self):
        ev = sqlsim.Evaluator(tables=TABLES, metrics="strict", witness=True)
        gold, pred = "SELECT count(*) FROM singer", "SELECT count(age) FROM singer"
        d = ev.score(gold, pred, "concert_singer")
        self.assertTrue(same(d, json.loads(ev.score_json(gold, pred, "concert_singer"))))
        self.assertIs(d["strict"], False)  # a NULL age, which no real row of singer holds
        self.assertGreaterEqual(d["suite"], 1)
        w = d["witness"]
        self.assertEqual(w["verdict"], "strict")
        db = sqlite3.connect(":memory:")
        db.executescript(w["database"])
        g = db.execute(w["gold_sql"]).fetchall()
        p = db.execute(w["pred_sql"]).fetchall()
        self.assertNotEqual(g, p)
        self.assertEqual([list(r) for r in g], w["gold_rows"])
        self.assertEqual((len(g), len(p)), (w["gold_count"], w["pred_count"]))
        d = ev.score(gold, "SELECT count(singer_id) FROM singer", "concert_singer")
        self.assertIs(d["strict"], True)
        self.assertIsNone(d["witness"])
        self.assertNotIn("witness", sqlsim.Evaluator(tables=TABLES, metrics="strict").score(gold, pred, "concert_singer"))

    def test_real_database_witness(self):
        ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec", witness=True)
        d = ev.score("SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age > 28", "concert_singer")
        w = d["witness"]
        self.assertEqual(d["ex"]["spider"], 0)
        self.assertIsNone(w["database"])
        self.assertGreater(w["pred_count"], w["gold_count"])
        self.assertTrue(w["pred_rows"])


    def test_repair(self):
        ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,categories", repair=True)
        gold = "SELECT name FROM singer WHERE country = 'France' ORDER BY age DESC"
        d = ev.score(gold, "SELECT T1.name FROM singer AS T1 WHERE T1.country = 'france' ORDER BY T1.age DESC",
                     "concert_singer")
        r = d["repair"]
        self.assertEqual(r["category"], "filter_value")
        self.assertEqual(r["categories"], ["filter_value"])
        self.assertIn("'France'", r["sql"])
        self.assertIsNone(r["no_effect"])
        self.assertGreaterEqual(r["checks"], 1)
        self.assertIsNone(ev.score(gold, r["sql"], "concert_singer")["repair"])  # the repair is right
        with self.assertRaises(sqlsim.ConfigError):  # nothing to run the repairs on
            sqlsim.Evaluator(tables=TABLES, metrics="bis,categories", repair=True)
        with self.assertRaises(sqlsim.ConfigError):  # no error analysis to repair
            sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec", repair=True)
        self.assertNotIn("repair", sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,categories").score(
            "SELECT name FROM singer", "SELECT name FROM singer WHERE age > 99", "concert_singer"))

    def test_copied_records(self):
        """Identical wrong predictions in one batch: the engine copies the first's record for the others
        (record_copy), and each dict is made, then its record cleared, in turn. Every copy is whole: the
        repair, its evidence and the witness read the same after their source was cleared (a shallow
        copy once read freed memory here)."""
        gold = "SELECT name FROM singer WHERE country = 'France' ORDER BY age DESC"
        wrong = "SELECT T1.name FROM singer AS T1 WHERE T1.country = 'france' ORDER BY T1.age DESC"
        for kw in (dict(db_dir=DB_DIR, metrics="exec,categories"), dict(metrics="synth,strict,categories")):
            ev = sqlsim.Evaluator(tables=TABLES, repair=True, witness=True, **kw)
            for jobs in (1, 2):
                ds = ev.score_many([(gold, wrong, "concert_singer")] * 5 + [(gold, gold, "concert_singer")], jobs=jobs)
                self.assertIsNotNone(ds[0]["repair"]["sql"], ds[0])
                self.assertIsNotNone(ds[0]["witness"], ds[0])
                for d in ds[1:5]:
                    self.assertEqual(d, ds[0])
                self.assertIsNone(ds[5]["repair"])

SHAPES = [  # completions as models write them, each around the same SQL
    "<think>count the singers</think>\n```sql\n{sql}\n```",
    "```\n{sql}\n```",
    "Final answer: {sql};",
    "<answer>{sql}</answer>",
    "{sql}; This query counts the rows.",
    "Here is the query:\n{sql}",
]


class TestAnswers(unittest.TestCase):
    """Model answers: the SQL read out of them, in every face; never an exception."""

    @classmethod
    def setUpClass(cls):
        cls.ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,bis", extract=True)
        cls.bare = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,bis")
        cls.pairs = spider_pairs(limit=120)

    def test_shapes_score_as_their_sql(self):
        for g, p, db in self.pairs[:40]:
            want = self.bare.reward(g, p, db)
            for shape in SHAPES:
                answer = shape.format(sql=p.rstrip().rstrip(";"))
                for form in (answer, [{"role": "user", "content": "q"}, {"role": "assistant", "content": answer}]):
                    self.assertEqual(self.ev.reward(g, form, db), want, (answer, p))
            self.assertEqual(sqlsim.extract_sql(SHAPES[0].format(sql="SELECT 1")), "SELECT 1")
        d = self.ev.score("SELECT count(*) FROM singer", "I do not know.", "concert_singer")
        self.assertEqual(d["error"]["message"], "no SQL found in the answer")
        self.assertEqual(d["answer"], {"from": "none", "sql": None})
        self.assertEqual(self.ev.reward("SELECT count(*) FROM singer", "I do not know.", "concert_singer"), 0.0)
        # without extraction, a fenced answer says what it is instead of SQLite's "syntax error"
        d = self.bare.score("SELECT count(*) FROM singer", SHAPES[0].format(sql="SELECT 1"), "concert_singer")
        self.assertIn("model's answer, not SQL", d["error"]["message"])

    def test_no_exception_from_model_text(self):
        import random
        rng = random.Random(7)
        texts = ["SELECT count(*) FROM singer\x00 junk", "\x00", "SELECT \ud800", "\udfff" * 3,
                 "SELECT " + "a" * (1 << 20), [], [{"role": "assistant"}], [{"content": 5}],
                 "".join(chr(rng.randrange(1, 0x10FFFF)) for _ in range(200)).encode("utf-8", "surrogatepass").decode("utf-8", "replace")]
        texts += [bytes(rng.randrange(256) for _ in range(300)).decode("latin-1") for _ in range(20)]
        g, db = "SELECT count(*) FROM singer", "concert_singer"
        for ev in (self.ev, self.bare):
            many = ev.reward_many([(g, t, db) for t in texts])
            records = ev.score_many([(g, t, db) for t in texts])
            for t, r_many, rec in zip(texts, many, records):
                r = ev.reward(g, t, db)
                self.assertEqual(r, r_many, repr(t)[:60])
                self.assertIsNotNone(r)
                self.assertTrue(same(ev.score(g, t, db), rec))
                json.loads(ev.score_json(g, t, db))
            self.assertEqual(ev.reward(g, "SELECT count(*) FROM singer\x00 junk", db), 0.0)  # not cut at the NUL
            self.assertIn("NUL", ev.score(g, "SELECT 1\x00", db)["error"]["message"])
            self.assertIn("surrogate", ev.score(g, "SELECT \ud800", db)["error"]["message"])

    def test_unknown_db_id_is_never_silent(self):
        with self.assertWarns(RuntimeWarning):
            self.assertIsNone(self.ev.reward("SELECT 1", "SELECT 1", "no_such_db"))
        with self.assertWarns(RuntimeWarning):
            self.assertEqual(self.ev.reward_many([("SELECT 1", "SELECT 1", None)]), [None])
        self.assertEqual(self.ev.score("SELECT 1", "SELECT 1", "no_such_db")["error"]["side"], "gold")

    def test_trainers(self):
        """Called exactly as TRL's GRPOTrainer and verl's reward managers call them."""
        import sqlsim.rl
        ev = sqlsim.rl.evaluator(db_dir=DB_DIR, tables=TABLES)
        bare = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,bis", semantics="bird")
        pairs = self.pairs[:8]
        golds, sqls, dbs = [], [], []
        for g, p, db in pairs:  # 8 questions x 8 samples = 64 chat completions
            for k in range(8):
                golds.append(g)
                sqls.append(p if k % 2 == 0 else g)
                dbs.append(db)
        completions = [[{"role": "assistant", "content": SHAPES[k % len(SHAPES)].format(sql=s.rstrip(";"))}]
                       for k, s in enumerate(sqls)]
        f = sqlsim.rl.trl_reward(ev)
        got = f(prompts=[[{"role": "user", "content": "q"}]] * 64, completions=completions,
                completion_ids=[[1, 2]] * 64, gold=golds, db_id=dbs, trainer_state=None)
        want = bare.reward_many(list(zip(golds, sqls, dbs)))
        self.assertEqual(got, [float(w) for w in want])
        self.assertTrue(all(isinstance(x, float) for x in got))
        self.assertEqual(f.__name__, "sqlsim")
        plain = f(completions=[c[0]["content"] for c in completions], gold=golds, db_id=dbs)
        self.assertEqual(plain, got)
        score = sqlsim.rl.verl_score(ev)
        for g, s, db in zip(golds[:16], sqls[:16], dbs[:16]):
            r = score(data_source="spider", solution_str=SHAPES[2].format(sql=s.rstrip(";")), ground_truth=g,
                      extra_info={"db_id": db, "index": 0})
            self.assertEqual(r, float(bare.reward(g, s, db)))
        with self.assertWarns(RuntimeWarning):
            self.assertEqual(score("spider", "SELECT 1", "SELECT 1", None), 0.0)  # no db_id: 0.0, never None
        fmt = sqlsim.rl.format_reward()
        self.assertEqual(fmt(completions=["```sql\nSELECT 1\n```", "SELECT 1", "no"]), [1.0, 0.0, 0.0])


class TestReward(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,bis", semantics="bird", timeout=1.0)

    def test_rule(self):
        g, db = "SELECT name FROM singer WHERE age > 30", "concert_singer"
        self.assertEqual(self.ev.reward(g, "SELECT name FROM singer WHERE 30 < age", db), 1.0)
        self.assertEqual(self.ev.reward(g, "SELECT name FROM singer WHERE", db), 0.0)
        self.assertEqual(self.ev.reward(g, "SELECT nope FROM singer", db), 0.0)
        wrong = self.ev.reward(g, "SELECT name FROM singer WHERE age < 30", db)
        self.assertGreater(wrong, 0.0)
        self.assertLessEqual(wrong, 0.2)
        self.assertLessEqual(self.ev.reward(g, "SELECT name FROM singer WHERE age < 30", db, partial=0.05), 0.05)
        self.assertIsNone(self.ev.reward("SELECT FROM", "SELECT 1", db))  # no signal from a broken gold
        structural = sqlsim.Evaluator(tables=TABLES, metrics="bis")
        self.assertAlmostEqual(structural.reward(g, g, db), 1.0)
        pairs = [(g, "SELECT name FROM singer WHERE 30 < age", db), (g, "SELECT", db)]
        self.assertEqual(self.ev.reward_many(pairs, jobs=2), [1.0, 0.0])

    def test_runaway_query_stops_at_the_limit(self):
        runaway = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        # CPU time (all threads): the 1 s limit stops the query, and what it used
        # is not stretched by the machine's load as the wall time is
        t = time.process_time()
        r = self.ev.reward("SELECT count(*) FROM singer", runaway, "concert_singer")
        took = time.process_time() - t
        self.assertEqual(r, 0.0)
        self.assertLess(took, 3.0)
        d = self.ev.score("SELECT count(*) FROM singer", runaway, "concert_singer")
        self.assertIn("time", d["error"]["message"])


class TestErrorsAndPickling(unittest.TestCase):
    def test_config_errors(self):
        with self.assertRaisesRegex(sqlsim.ConfigError, "nonexistent"):
            sqlsim.Evaluator(tables="/nonexistent/tables.json")
        with self.assertRaisesRegex(sqlsim.ConfigError, "exac"):
            sqlsim.Evaluator(tables=TABLES, metrics="exac")
        with self.assertRaisesRegex(sqlsim.ConfigError, "databases"):
            sqlsim.Evaluator(metrics="exec")
        with self.assertRaises(sqlsim.ConfigError):
            sqlsim.Evaluator(db_dir=DB_DIR, metrics="exec", timeout=0)
        self.assertTrue(issubclass(sqlsim.ParseError, sqlsim.Error))

    def test_parse(self):
        self.assertEqual(sqlsim.parse("select a from t where x in (1,2)"), "SELECT a FROM t WHERE x IN (1, 2)")
        with self.assertRaises(sqlsim.ParseError) as cm:
            sqlsim.parse("select from where")
        self.assertEqual(cm.exception.offset, 12)
        ev = sqlsim.Evaluator(tables=TABLES)
        tree = ev.parse("SELECT T1.name FROM singer AS T1", db_id="concert_singer", format="json")
        self.assertIsInstance(json.loads(tree), dict)
        with self.assertRaises(ValueError):
            sqlsim.parse("SELECT 1", format="xml")

    def test_diff(self):
        d = sqlsim.diff("SELECT name FROM singer", "SELECT name, age FROM singer")
        self.assertLess(d["score"], 1)
        self.assertEqual([e["action"] for e in d["edits"]], ["insert"])
        self.assertEqual(sqlsim.diff("SELECT a, b FROM t", "SELECT b, a FROM t")["score"], 1.0)

    def test_diff_as_scored(self):
        """diff's bis is BIS on the trees as parsed and its score the calibrated one, as score() gives them
        (before, its bis came from the trees with the equivalent forms made one)."""
        ev = sqlsim.Evaluator(tables=TABLES, metrics="bis")
        g, p = "SELECT count(*) FROM singer", "SELECT count(Singer_ID) FROM singer"
        d, r = ev.diff(g, p, "concert_singer"), ev.score(g, p, "concert_singer")
        self.assertLess(d["bis"], 1)
        self.assertEqual(d["score"], 1.0)
        self.assertAlmostEqual(d["bis"], r["bis"], places=6)
        self.assertAlmostEqual(d["score"], r["score"], places=6)

    def test_diff_past_the_bound(self):
        """A prediction whose normalized form outgrows the diff: BIS, no score, and why."""
        big = "SELECT name FROM singer WHERE " + " AND ".join("age BETWEEN %d AND %d" % (i, i + 1) for i in range(4000))
        d = sqlsim.diff("SELECT name FROM singer", big)
        self.assertGreater(d["bis"], 0)
        self.assertIsNone(d["score"])
        self.assertIn("no calibrated score", d["error"])
        self.assertIsNone(sqlsim.diff("SELECT name FROM singer", "SELECT name FROM singer")["error"])

    def test_pickle(self):
        ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics=("exec", "bis"))
        ev2 = pickle.loads(pickle.dumps(ev))
        self.assertEqual(ev2.config, ev.config)
        pairs = spider_pairs(limit=50)
        self.assertEqual(ev2.score_many(pairs), ev.score_many(pairs))

    def test_worker_processes(self):
        """An Evaluator sent to other processes rebuilds there and scores the same."""
        code = ("import pickle, sys, sqlsim; ev, pairs = pickle.load(sys.stdin.buffer); "
                "pickle.dump(ev.score_many(pairs), sys.stdout.buffer)")
        ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,bis")
        pairs = spider_pairs(limit=40)
        out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps((ev, pairs)), capture_output=True,
                             check=True, env=dict(os.environ))
        self.assertEqual(pickle.loads(out.stdout), ev.score_many(pairs))


class TestAudit(unittest.TestCase):
    """sqlsim.audit: the same engine as sqlsim audit, from files or lists."""

    def test_files_and_lists(self):
        preds = {m: os.path.join(CORPUS, "predictions", m + ".sql") for m in ("dailsql_gpt4", "gpt4_fewshot", "c3sql_gpt35")}
        r = sqlsim.audit(os.path.join(CORPUS, "dev_gold.sql"), preds, tables=TABLES, db_dir=DB_DIR, jobs=2)
        self.assertEqual(len(r["items"]), 1034)
        self.assertTrue(r["with_db"])
        scores = [it["score"] for it in r["items"]]
        self.assertEqual(scores, sorted(scores, reverse=True))
        self.assertEqual(r["flagged"], sum(it["flagged"] for it in r["items"]))
        top = r["items"][0]
        self.assertIn("consensus", top["kinds"])
        self.assertTrue(all(e["kind"] in top["kinds"] for e in top["evidence"]))
        for s in r["systems"]:
            self.assertLessEqual(s["ex"], s["ex_kept"])
        # the same systems as lists of SQL, the gold as pairs
        with open(os.path.join(CORPUS, "dev_gold.sql"), encoding="utf-8") as f:
            gold = [tuple(l.rstrip("\n").rsplit("\t", 1)) for l in f][:40]
        lists = {}
        for m, path in preds.items():
            with open(path, encoding="utf-8") as f:
                lists[m] = [l.strip() for l in f][:40]
        lists["none"] = [None] * 40
        r2 = sqlsim.audit(gold, lists, tables=TABLES, db_dir=DB_DIR, witness=False)
        self.assertEqual(len(r2["items"]), 40)
        self.assertEqual(sorted(it["index"] for it in r2["items"]), list(range(40)))
        none = [s for s in r2["systems"] if s["name"] == "none"][0]
        self.assertEqual((none["weight"], none["ex"]), (0, 0))  # no prediction: judged on nothing, right on nothing
        self.assertFalse(any("witness" in e for it in r2["items"] for e in it["evidence"]))

    def test_errors(self):
        with self.assertRaises(sqlsim.ConfigError):
            sqlsim.audit([("SELECT 1", "concert_singer")], {"a": ["SELECT 1", "SELECT 2"]}, tables=TABLES)
        with self.assertRaises(sqlsim.ConfigError):
            sqlsim.audit([("SELECT 1", "concert_singer")], {"a": ["SELECT 1"]})
        with self.assertRaises(sqlsim.Error):
            sqlsim.audit("/nonexistent/gold.sql", {"a": ["SELECT 1"]}, tables=TABLES)
        r = sqlsim.audit([("SELEC 1", "concert_singer")], {"a": ["SELECT 1"]}, tables=TABLES)
        self.assertIn("gold_fails", r["items"][0]["kinds"])


class TestRewrite(unittest.TestCase):
    def test_rewrite_reads_only(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.sqlite")
            con = sqlite3.connect(path)
            con.executescript("CREATE TABLE a (id INTEGER PRIMARY KEY, v INT);"
                              "CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INT);")
            con.executemany("INSERT INTO a VALUES (?, ?)", [(i, i % 7) for i in range(2000)])
            con.executemany("INSERT INTO b VALUES (?, ?)", [(i, i % 500) for i in range(2000)])
            con.commit()
            con.close()
            before = digest(path)
            r = sqlsim.rewrite("SELECT v FROM a WHERE id IN (SELECT a_id FROM b)", path, iterations=5)
            self.assertIn(r["verdict"], ("offered", "not_faster", "changes_result", "no_rule", "unchecked"))
            self.assertEqual(r["offered"], r["sql"] is not None)
            self.assertEqual(digest(path), before)
            with self.assertRaises(sqlsim.Error):
                sqlsim.rewrite("SELECT nope FROM a", path)
            with self.assertRaisesRegex(sqlsim.ConfigError, "no_such_rule"):
                sqlsim.rewrite("SELECT 1", path, rules=["no_such_rule"])
            # the race and the fixed protocol: runs, interval and the time spent are reported
            q = "SELECT v FROM a WHERE id IN (SELECT a_id FROM b)"
            for kw in (dict(time_budget=2.0), dict(fixed=True, iterations=3)):
                r = sqlsim.rewrite(q, path, **kw)
                self.assertGreaterEqual(r["candidates"], 1)
                self.assertIsInstance(r["timing_s"], float)
                if r["runs"] is not None:
                    self.assertEqual(len(r["interval"]), 2)
                    if kw.get("fixed"):
                        self.assertEqual(r["runs"], [3, 3])
                    else:
                        self.assertGreaterEqual(min(r["runs"]), 2)
            with self.assertRaises(sqlsim.ConfigError):
                sqlsim.rewrite(q, path, time_budget=-1)
            self.assertEqual(digest(path), before)

    def test_adaptive_iterations(self):
        with self.assertRaisesRegex(sqlsim.ConfigError, "auto_width"):
            sqlsim.Evaluator(auto_width=0.2)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.sqlite")
            con = sqlite3.connect(path)
            con.execute("CREATE TABLE a (id INTEGER PRIMARY KEY, v INT)")
            con.executemany("INSERT INTO a VALUES (?, ?)", [(i, i % 7) for i in range(500)])
            con.commit()
            con.close()
            ev = sqlsim.Evaluator(sqlite=path, metrics="exec,ves", iterations="auto", auto_width=0.5)
            r = ev.score("SELECT count(*) FROM a", "SELECT count(v) FROM a")
            self.assertTrue(10 <= r["iterations"] <= 100, r)
            self.assertIsNotNone(r["ves_ratio"])
            r = sqlsim.Evaluator(sqlite=path, metrics="exec,ves", iterations=7).score("SELECT 1", "SELECT 1")
            self.assertEqual(r["iterations"], 7)

    def test_noise_floor(self):
        ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,rves", iterations=5, noise_every=1)
        self.assertEqual(ev.config["noise_every"], 1)
        recs = ev.score_many([("SELECT count(*) FROM singer", "SELECT count(*) FROM singer", "concert_singer"),
                              ("SELECT count(*) FROM singer", "SELECT 1", "concert_singer")])
        self.assertIsNotNone(recs[0]["self_ratio"])
        self.assertEqual(len(recs[0]["self_interval"]), 2)
        self.assertNotIn("self_ratio", recs[1])  # a wrong answer is not timed
        nf = sqlsim.noise_floor(recs)
        self.assertEqual(nf["items"], 1)
        self.assertEqual(nf["median"], recs[0]["self_ratio"])
        self.assertEqual(sqlsim.noise_floor([{"self_ratio": 0.9}, {"self_ratio": 1.1}])["rves"],
                         100 * (0.75 ** 0.5 + 1) / 2)
        self.assertEqual(sqlsim.noise_floor([])["items"], 0)
        with self.assertRaises(ValueError):
            sqlsim.noise_floor([{"self_ratio": float("nan")}])
        ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,ves", iterations=4, connection="reuse")
        self.assertEqual(ev.score("SELECT count(*) FROM singer", "SELECT count(*) FROM singer",
                                  "concert_singer")["iterations"], 4)
        self.assertEqual(pickle.loads(pickle.dumps(ev)).config["connection"], "reuse")
        with self.assertRaisesRegex(sqlsim.ConfigError, "connection"):
            sqlsim.Evaluator(connection="pooled")
        r = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,ves", iterations=3, noise_every=-1).score(
            "SELECT count(*) FROM singer", "SELECT count(*) FROM singer", "concert_singer")
        self.assertNotIn("self_ratio", r)


SQLSIM_BIN = os.environ.get("SQLSIM_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "build", "sqlsim"))


class TestStream(unittest.TestCase):
    """`sqlsim stream` as a co-process and as a pipe."""

    ARGS = ["stream", "--metrics", "exec,bis", "--tables", TABLES, "--db-dir", DB_DIR, "--reward"]

    def test_request_response(self):
        """The next request is sent only after the previous answer is read:
        each answer must come without more input or an end of input."""
        ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,bis")
        p = subprocess.Popen([SQLSIM_BIN] + self.ARGS, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            for k, (g, q, db) in enumerate(spider_pairs(limit=30)):
                p.stdin.write(json.dumps({"gold": g, "pred": q, "db_id": db, "id": k}) + "\n")
                p.stdin.flush()
                answer = json.loads(p.stdout.readline())
                self.assertEqual(answer.pop("id"), k)
                self.assertEqual(answer.pop("line"), k + 1)
                self.assertTrue(same(answer.pop("reward"), ev.reward(g, q, db)))
                self.assertTrue(same(answer, ev.score(g, q, db)), answer)
            p.stdin.write("{not json\n")
            p.stdin.flush()
            self.assertEqual(json.loads(p.stdout.readline())["error"]["side"], "request")
        finally:
            p.stdin.close()
            self.assertEqual(p.wait(timeout=30), 0)

    def test_pipe_in_order(self):
        pairs = spider_pairs(limit=600)
        lines = [json.dumps({"gold": g, "pred": q, "db_id": db, "id": str(k)}) for k, (g, q, db) in enumerate(pairs)]
        lines.insert(100, "[1, 2]")  # not a request, answered in its place
        out = subprocess.run([SQLSIM_BIN] + self.ARGS + ["-j", "2"], input="\n".join(lines), capture_output=True,
                             text=True, check=True).stdout.splitlines()
        self.assertEqual(len(out), len(lines))
        answers = [json.loads(x) for x in out]
        self.assertEqual(answers[100]["error"]["message"], "not a JSON object")
        del answers[100]
        self.assertEqual([a["id"] for a in answers], [str(k) for k in range(len(pairs))])
        ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,bis")
        for a, r in zip(answers, ev.score_many(pairs)):
            for k in ("id", "line", "reward"):
                a.pop(k)
            self.assertTrue(same(a, r))


class TestStreamHostile(unittest.TestCase):
    """Lines a broken or hostile writer sends: each gets its answer, in order, and the stream goes on."""

    def test_hostile_lines(self):
        good = json.dumps({"gold": "SELECT name FROM singer", "pred": "SELECT name FROM singer", "id": "ok"}).encode()
        lines = [
            b"x" * (17 << 20),                                    # past the 16 MiB line limit
            b'{"gold": "SELECT 1", "pred": "SELECT \xff\xfe", "id": "bad-utf8"}',
            b'{"gold": "SELECT 1", "pred": "SEL\x00ECT 1", "id": "nul"}',
            b"[" * 100000 + b"]" * 100000,                       # nesting past any parser's depth
            b'{"gold": "SELECT 1", "pred": "SELECT 1", "db_id": "../../etc", "id": 1e308}',
            b'{"gold": "' + b"(" * 5000 + b'1' + b")" * 5000 + b'", "pred": "SELECT 1"}',
            b'{"gold": 1, "pred": "SELECT 1"}',
            good,
        ]
        out = subprocess.run([SQLSIM_BIN, "stream", "--metrics", "bis", "--tables", TABLES], input=b"\n".join(lines),
                             capture_output=True, check=True, timeout=120).stdout.decode("utf-8")  # strict UTF-8
        answers = [json.loads(x) for x in out.splitlines()]
        self.assertEqual([a["line"] for a in answers], list(range(1, len(lines) + 1)))
        self.assertIn("16 MiB", answers[0]["error"]["message"])
        self.assertEqual(answers[1]["id"], "bad-utf8")
        self.assertEqual(answers[3]["error"]["side"], "request")
        self.assertEqual(answers[4]["id"], 1e308)
        self.assertEqual(answers[5]["error"]["side"], "gold")
        self.assertEqual(answers[6]["error"]["side"], "request")
        self.assertEqual((answers[7]["id"], answers[7]["score"], answers[7]["error"]), ("ok", 1, None))

    def test_bad_configuration_exits_non_zero(self):
        # 2: an option's value, or the configuration, is refused (as eval does); 1: a file cannot be read
        for args, want, code in ((["--metrics", "exec"], "databases", 2), (["--db-dir", "/nonexistent"], "/nonexistent", 2),
                                 (["--metrics", "nope"], "nope", 2), (["--tables", "/nonexistent.json"], "nonexistent", 1)):
            p = subprocess.run([SQLSIM_BIN, "stream"] + args, input="", capture_output=True, text=True)
            self.assertEqual(p.returncode, code, args)
            self.assertIn(want, p.stderr, args)



SPIDER2 = os.path.join(CORPUS, "..", "spider2")


class TestSpider2(unittest.TestCase):
    """sqlsim.spider2 on a gold folder of one task (a, b: 1 x / 2 y) and on the bundled one."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sqlsim_s2py.")
        self.gold = os.path.join(self.dir, "gold")
        os.makedirs(os.path.join(self.gold, "exec_result"))
        with open(os.path.join(self.gold, "exec_result", "local900.csv"), "w") as f:
            f.write("a,b\n1,x\n2,y\n")
        with open(os.path.join(self.gold, "spider2lite_eval.jsonl"), "w") as f:
            f.write(json.dumps({"instance_id": "local900", "condition_cols": [], "ignore_order": True}) + "\n")
        with open(os.path.join(self.dir, "spider2-lite.jsonl"), "w") as f:
            f.write(json.dumps({"instance_id": "local900", "db": "tiny"}) + "\n")
        self.db = os.path.join(self.dir, "tiny.sqlite")
        con = sqlite3.connect(self.db)
        con.executescript("CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y');")
        con.close()

    def tearDown(self):
        subprocess.run(["rm", "-rf", self.dir], check=True)

    def item(self, preds, **kw):
        out = sqlsim.spider2(self.gold, preds, **kw)
        self.assertEqual(len(out["items"]), 1)
        return out["items"][0]

    def test_rows_in_memory(self):
        self.assertEqual(self.item({"local900": [[2, "y", 0.5], [1, "x", 0.25]]})["score"], 1)  # order, extra column
        self.assertEqual(self.item({"local900": [[1.004, "x"], [2, "y"]]})["score"], 1)  # within 0.01
        self.assertEqual(self.item({"local900": [[1.02, "x"], [2, "y"]]})["score"], 0)
        self.assertEqual(self.item({"local900": [[None, "x"], [2, "y"]]})["score"], 0)  # NaN reads as 0
        it = self.item({"local900": [[1, "y"], [2, "x"]]}, rows=True)  # #226: each column right, rows wrong
        self.assertEqual((it["score"], it["rows"]), (1, 0))
        it = self.item({"local900": "a,b\n1,x\n2,y\n"}, rows=True)  # CSV text as it is
        self.assertEqual((it["score"], it["rows"], it["variant"]), (1, 1, "local900.csv"))

    def test_csv_saved_as_the_scripts_save_it(self):
        self.assertEqual(sqlsim.spider2_csv([[1, "x"], [2.5, None]]), "0,1\n1.0,x\n2.5,\n")
        self.assertEqual(sqlsim.spider2_csv([[True, b"\x00"]]), "0,1\nTrue,b'\\x00'\n")

    def test_sql_mode(self):
        tasks = os.path.join(self.dir, "spider2-lite.jsonl")
        good = self.item({"local900": "```sql\nSELECT b, a FROM t\n```"}, mode="sql", db_dir=self.dir, tasks=tasks)
        self.assertEqual(good["score"], 1)
        bad = self.item({"local900": "SELECT a FROM nowhere"}, mode="sql", db_dir=self.dir, tasks=tasks)
        self.assertEqual(bad["score"], 0)
        self.assertIn("nowhere", str(bad["error"]))
        before = open(self.db, "rb").read()
        wr = self.item({"local900": "DELETE FROM t"}, mode="sql", db_dir=self.dir, tasks=tasks)
        self.assertEqual(wr["score"], 0)
        self.assertEqual(open(self.db, "rb").read(), before)

    def test_folder_with_bad_files(self):
        pred = os.path.join(self.dir, "pred")
        os.makedirs(pred)
        with open(os.path.join(pred, "local900.csv"), "wb") as f:
            f.write(b"a,b\n1,\xff\n")  # not UTF-8: pandas refuses it
        with open(os.path.join(pred, "notatask.csv"), "w") as f:
            f.write("a\n1\n")
        it = self.item(pred)
        self.assertEqual(it["score"], 0)
        self.assertTrue(it["error"])
        with self.assertRaises(sqlsim.ConfigError):
            sqlsim.spider2(self.gold, pred, mode="nonsense")

    def test_bundled_gold(self):
        gold = os.path.join(SPIDER2, "gold")
        res = os.path.join(gold, "exec_result")
        firsts = {}
        for f in sorted(os.listdir(res)):
            stem = f[:-4]
            firsts.setdefault(stem[:-2] if stem[-2:-1] == "_" else stem, f)
        preds = {}
        for i, f in firsts.items():
            with open(os.path.join(res, f), encoding="utf-8") as fh:
                preds[i] = fh.read()
        out = sqlsim.spider2(gold, preds)
        self.assertEqual(out["summary"]["submitted"], len(preds))
        self.assertEqual(sum(it["score"] for it in out["items"]), len(preds))  # each task's own gold passes


@unittest.skipUnless(__import__("importlib").util.find_spec("distributed"), "python3-distributed is not installed")
class TestDask(unittest.TestCase):
    def test_local_cluster_same_as_one_process(self):
        import dask.bag as db
        from distributed import Client, LocalCluster
        import sqlsim.dask
        ev = sqlsim.Evaluator(tables=TABLES, db_dir=DB_DIR, metrics="exec,bis")
        pairs = spider_pairs(limit=400)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            got = sqlsim.dask.score_bag(db.from_sequence(pairs, npartitions=4), ev).compute()
            rewards = sqlsim.dask.reward_bag(db.from_sequence(pairs, npartitions=3), ev).compute()
        self.assertEqual(got, ev.score_many(pairs))
        self.assertEqual(rewards, ev.reward_many(pairs))


if __name__ == "__main__":
    unittest.main()

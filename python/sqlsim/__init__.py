"""sqlsim: score, compare and rewrite SQL written by text-to-SQL systems.

A thin layer over sqlsim's C engine (the same code as the ``sqlsim`` command):

    >>> import sqlsim
    >>> ev = sqlsim.Evaluator(tables="corpus/spider/tables.json",
    ...                       db_dir="corpus/spider/database",
    ...                       metrics=("match", "exec", "bis"))
    >>> r = ev.score("SELECT count(*) FROM singer", "SELECT count(singer_id) FROM singer",
    ...              db_id="concert_singer")
    >>> r["ex"], r["exact"], round(r["score"], 3)
    ({'spider': 1, 'bird': 1}, 0, 1.0)

Every call releases the GIL while the engine works; ``score_many`` runs the
engine's own threads. Queries run through sqlsim's sandboxed executor: the
database is opened read-only, and the timeout is enforced inside SQLite, so a
runaway query stops at its limit.
"""
from __future__ import annotations

import os

from typing import Iterable, List, Optional, Sequence, Tuple, Union

from . import _sqlsim
from ._sqlsim import ConfigError, Error, ParseError

__all__ = ["Evaluator", "Error", "ParseError", "ConfigError", "parse", "diff", "rewrite", "noise_floor", "extract_sql",
           "audit", "spider2", "spider2_csv",
           "METRICS", "__version__"]

__version__: str = _sqlsim.version

#: Metric names an Evaluator accepts.
METRICS = ("match", "exec", "ves", "rves", "result", "bis", "categories", "synth", "strict", "soft_f1", "spider2")

Pair = Union[Tuple[str, str], Tuple[str, str, Optional[str]]]


class Evaluator:
    """Scores (gold, prediction) pairs with every requested metric.

    Args:
        tables: a Spider/BIRD ``tables.json`` (schemas: names, hardness, Spider matching).
        db_dir: databases laid out as ``DIR/<db_id>/<db_id>.sqlite``; the other ``*.sqlite``
            files of ``DIR/<db_id>/`` are its test suite (correct only if it matches on all).
        sqlite: or one SQLite file for every pair (its schema is read when no tables).
        engine: or a server: ``postgresql://[user@][host]/DB[?host=/socket/dir]`` or
            ``mysql://user@[host]/DB[?socket=PATH]``, or a DuckDB file ``duckdb://PATH``,
            ``{db_id}`` in it naming a database per db_id (without it one database holds every
            db_id's tables, as BIRD's mini-dev); the password from the URL,
            ``password_file=PATH``, PGPASSWORD or MYSQL_PWD, never shown (docs/engines.md).
        dialect: the SQL's dialect, "sqlite", "postgres", "mysql" or "duckdb"; "engine" (the
            default): the engine's (SQLite's for files; a MySQL server's sql_mode is read).
        metrics: names from METRICS (a tuple or "a,b"): ``match`` Spider exact set match,
            ``exec`` execution accuracy (Spider's and BIRD's semantics), ``ves``/``rves``
            timing, ``result`` BIS result similarity, ``bis`` BIS similarity and the
            calibrated execution-free score, ``categories`` error categories, ``synth``
            execution on small databases generated from the schema alone (no database
            needed; the calibrated score then combines it with structure), ``strict``
            equivalence under the schema: the gold's distilled suite of generated databases
            and the pair's own (implies ``synth``).
        mode: Spider matching, "compatible" (the official evaluator, item for item) or "corrected".
        semantics: which EX decides correctness for categories and rewards: "spider" or "bird".
        timeout: seconds per query, enforced inside SQLite.
        iterations: VES timing runs per pair, or "auto": each pair stops once the 95%
            interval of its ratio is narrower than ``auto_width`` times the ratio (at
            most 100 runs; the papers' protocol is a fixed 100).
        auto_width: with ``iterations="auto"``, that width (0: the default, 0.1).
        alternate: VES: alternate the order of gold and prediction every run.
        connection: VES/R-VES timing: "fresh" (a new connection for every timed run, the
            papers' protocol) or "reuse" (one per pair, both queries run once first: faster and
            quieter, not comparable with published figures).
        noise_every: VES/R-VES: about one timed pair in this many also has its gold timed
            against itself (``self_ratio`` in its record; see noise_floor()); 0: 40, -1: never.
        now: a fixed "YYYY-MM-DD HH:MM:SS" for SQLite's 'now'.
        max_memory: bytes SQLite may hold per connection (0: 512 MiB).
        keep_distinct: keep DISTINCT in Spider's EX (the test-suite ``--keep_distinct``).
        plug_value: Spider's EX also tries the gold's values in the prediction's value
            slots (the test-suite ``--plug_value``).
        synth_databases: databases generated per pair for ``synth`` (0: 6).
        extract: predictions are model answers (completions): score the SQL read out of
            each (extract_sql below); one with no SQL scores as failing ("no SQL found in
            the answer", reward 0), and the record's "answer" says where the SQL was found.
            Predictions may then also be chat completions (lists of {"role", "content"}).
        witness: each wrong pair's evidence in its record's "witness": with a database,
            the first rows each query returned that the other did not; with ``synth`` or
            ``strict``, the smallest generated database on which they answer differently
            (SQL text sqlite3 loads) with both answers (docs/per-item.md).
        repair: with the ``categories`` metric, each wrong pair's record has a "repair":
            the smallest set of the prediction's parts found whose fix (the gold's part
            in its place) gives the gold's answer where the pair was judged, as SQL, with
            those parts' categories (docs/error-categories.md, "Repair"). It needs
            ``categories`` and something to run on: an execution metric with databases,
            or ``synth`` with a schema (else ConfigError).
        assume_not_null: ``synth`` and ``strict`` judge as if every column were NOT NULL
            (no generated database holds a NULL), for data known to have none; without it,
            a strict refutation's record says whether it needed a NULL ("needs_null").
        no_solver: ``strict`` without its solver stage (z3, after the search): records
            then have "bound" null and "solver" saying so.
        solver_budget: the solver's seconds per pair (default 0.05): it looks for a
            database of at most k rows per table telling the two apart, k = 1, 2, ..
            while the budget lasts; "bound" is the largest k with none. The budget is
            counted in z3's resource units (4 million to the second), so a pair's
            bound does not depend on the machine or its load.
        reward_bound: rewards without a database, with ``strict``: 1 only for a pass whose
            bound reaches this many rows per table (0: any pass); see ``reward``.

    Raises:
        ConfigError: a configuration sqlsim cannot use (missing files, a metric
            without what it needs), with a message saying what to fix.

    An Evaluator pickles as its configuration, so worker processes (multiprocessing,
    Dask) rebuild it once each. It may be shared by threads.
    """

    def __init__(self, tables: Optional[str] = None, db_dir: Optional[str] = None, sqlite: Optional[str] = None,
                 metrics: Union[str, Sequence[str]] = ("bis",), mode: str = "compatible", semantics: str = "spider",
                 timeout: float = 30.0, iterations: Union[int, str] = 100, alternate: bool = False,
                 now: Optional[str] = None, max_memory: int = 0, keep_distinct: bool = False,
                 plug_value: bool = False, synth_databases: int = 0, auto_width: float = 0.0,
                 noise_every: int = 0, connection: str = "fresh", witness: bool = False,
                 extract: bool = False, repair: bool = False, assume_not_null: bool = False,
                 engine: Optional[str] = None, dialect: str = "engine", spider2: Optional[str] = None,
                 spider2_pred: str = "sql", spider2_rows: bool = False, no_solver: bool = False,
                 solver_budget: float = 0.0, reward_bound: int = 0) -> None:
        if not isinstance(metrics, str):
            metrics = ",".join(metrics)
        if iterations == "auto":
            iterations, auto_width = 100, float(auto_width) or _sqlsim.AUTO_WIDTH
        elif auto_width:
            raise ConfigError("auto_width goes with iterations='auto'")
        self._config = dict(tables=_path(tables), db_dir=_path(db_dir), sqlite=_path(sqlite), metrics=metrics,
                            mode=mode, semantics=semantics, timeout=float(timeout), iterations=int(iterations),
                            alternate=bool(alternate), now=now, max_memory=int(max_memory),
                            keep_distinct=bool(keep_distinct), plug_value=bool(plug_value),
                            synth_databases=int(synth_databases), auto_width=float(auto_width),
                            noise_every=int(noise_every), connection=connection, witness=bool(witness),
                            extract=bool(extract), repair=bool(repair), assume_not_null=bool(assume_not_null),
                            engine=engine, dialect=dialect, spider2=_path(spider2), spider2_pred=spider2_pred,
                            spider2_rows=bool(spider2_rows), no_solver=bool(no_solver),
                            solver_budget=float(solver_budget), reward_bound=int(reward_bound))
        self._c = _sqlsim.Evaluator(**self._config)

    @property
    def config(self) -> dict:
        """The keyword arguments this evaluator was made with."""
        return dict(self._config)

    def __reduce__(self):
        return (_rebuild, (self._config,))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={_shown(k, v)!r}" for k, v in self._config.items()
                         if v not in (None, False, 0) and not (k == "dialect" and v == "engine"))
        return f"sqlsim.Evaluator({args})"

    def score(self, gold: str, pred: str, db_id: Optional[str] = None) -> dict:
        """Every metric for one pair, as a dict with the fields of
        ``sqlsim eval --per-item`` (docs/per-item.md). Problems with the queries
        or the database are in the dict's "error" (message, offset, side), never
        raised: a bad prediction is a result."""
        return self._c.score(gold, pred, db_id)

    def score_json(self, gold: str, pred: str, db_id: Optional[str] = None) -> str:
        """The same as score(), as the JSON text the command line writes."""
        return self._c.score_json(gold, pred, db_id)

    def score_many(self, pairs: Iterable[Pair], jobs: int = 1) -> List[dict]:
        """score() for many (gold, pred[, db_id]) pairs on ``jobs`` threads, in order.
        Consecutive pairs with the same gold prepare (parse, run) it once."""
        return self._c.score_many(_as_list(pairs), jobs)

    def reward(self, gold: str, pred: str, db_id: Optional[str] = None, partial: float = 0.2) -> Optional[float]:
        """A reward for reinforcement learning, in [0, 1]:

        * 0 when the prediction does not parse or fails to run (timeouts included);
        * 1 when it returns the gold's rows (EX, the evaluator's ``semantics``);
        * ``partial`` x the calibrated score when it runs but returns other rows;
        * the calibrated score when no database is configured (``metrics`` without exec);
        * None when the gold itself cannot be scored (its database or db_id unknown, the
          gold fails): drop the sample; a RuntimeWarning says why, never silently.

        Prediction text never raises: a NUL character, text that is not Unicode, or (with
        ``extract=True``) an answer with no SQL scores 0 with its reason in score()'s
        "error". Make the evaluator with ``metrics=("exec", "bis")`` for execution with
        partial credit, and ``semantics="bird"`` to compare result sets as BIRD and most RL
        baselines do (Spider's default compares multisets of rows, columns in any order)."""
        return self._c.reward(gold, pred, db_id, partial)

    def reward_many(self, pairs: Iterable[Pair], jobs: int = 1, partial: float = 0.2) -> List[Optional[float]]:
        """reward() for many pairs on ``jobs`` threads, in order."""
        return self._c.reward_many(_as_list(pairs), jobs, partial)

    def parse(self, sql: str, db_id: Optional[str] = None, format: str = "sql") -> str:
        """sql read with the schema of db_id: printed as SQLite SQL ("sql"), as
        a tree ("tree") or JSON ("json"). Raises ParseError (with .offset)."""
        return self._c.parse(sql, db_id, format)

    def diff(self, gold: str, pred: str, db_id: Optional[str] = None) -> dict:
        """The tree diff of two queries read with the schema of db_id: bis, score,
        table_changed, the edits (action, weight, why, gold, pred) and error (None,
        or why there is no score: the queries with their equivalent forms made one
        grew past the diff's size bound; score is None then)."""
        return self._c.diff(gold, pred, db_id)


_built: dict = {}


def _rebuild(config: dict) -> Evaluator:
    """An unpickled Evaluator: one per configuration per process, so worker
    processes load schemas and open databases once, not once per task."""
    key = tuple(sorted(config.items()))
    ev = _built.get(key)
    if ev is None:
        ev = _built[key] = Evaluator(**config)
    return ev


def _shown(key: str, value):
    """A configuration value as it may be printed: an engine URL without its password."""
    return _sqlsim.redacted(value) if key == "engine" else value


def _path(p) -> Optional[str]:
    return None if p is None else str(p)


def _as_list(pairs):
    return pairs if isinstance(pairs, (list, tuple)) else list(pairs)


def extract_sql(answer: Union[str, Sequence[dict]]) -> Optional[str]:
    """The SQL in a model's answer, or None: the last fenced block naming SQL (or no
    language), else the last <answer> element, else the text after a final-answer marker
    ("Final answer:"), else after </think>, else the text (from its last line that starts
    a statement when prose comes first), cut before trailing prose when the whole does not
    parse. A chat completion (a list of {"role", "content"} messages) is read from its last
    assistant message. Text with a NUL character or lone surrogates has none."""
    return _sqlsim.extract_sql(answer)[0]


def parse(sql: str, format: str = "sql", dialect: str = "sqlite") -> str:
    """sql read without a schema in its dialect (sqlite, postgres or mysql), printed as SQLite
    SQL, a tree or JSON. Raises ParseError."""
    return _sqlsim.parse(sql, format=format, dialect=dialect)


def diff(gold: str, pred: str, dialect: str = "sqlite") -> dict:
    """The tree diff of two queries read without a schema (see Evaluator.diff)."""
    return _sqlsim.diff(gold, pred, dialect=dialect)


def noise_floor(records: Iterable[dict]) -> dict:
    """The noise floor of a timed run, from the records whose gold was also
    timed against itself (``self_ratio``, see Evaluator's noise_every): items,
    the median self-ratio, p05 and p95 (the middle 90%), and the VES and R-VES
    those self-pairs score -- what a prediction exactly as fast as its gold
    scores on average (100 if timing had no noise)."""
    return _sqlsim.noise_floor([r["self_ratio"] for r in records if r.get("self_ratio") is not None])


def rewrite(sql: str, db: str, rules: Optional[Union[str, Sequence[str]]] = None, iterations: int = 20,
            timeout: float = 30.0, min_speedup: float = 1.1, now: Optional[str] = None,
            time_budget: float = 0.0, fixed: bool = False) -> dict:
    """A faster equivalent of sql on the SQLite database db, offered only when
    proved: the same rows on the database and on adversarial copies of it, and
    measured faster. Timing is a sequential race that stops as soon as the
    ratio is clearly above or below min_speedup, at most ``iterations`` runs a
    side and ``time_budget`` seconds (0: no limit); ``fixed`` runs the fixed
    protocol instead. Returns offered, verdict, sql (the rewrite or None),
    rules, speedup, interval, runs, checks, reason, notes, timing_s. The
    database is only read."""
    if rules is not None and not isinstance(rules, str):
        rules = ",".join(rules)
    return _sqlsim.rewrite(sql, str(db), rules, iterations, timeout, min_speedup, now, float(time_budget),
                           bool(fixed))


def audit(gold, systems, tables: Optional[str] = None, sqlite: Optional[str] = None, db_dir: Optional[str] = None,
          engine: Optional[str] = None, dialect: Optional[str] = None, jobs: int = 1, min_score: float = 0.5,
          witness: bool = True, timeout: float = 30.0, now: Optional[str] = None) -> dict:
    """The benchmark audited (sqlsim audit; docs/audit.md): its gold items
    ranked by how likely each is wrong or underdetermined, with the evidence.

    gold is a benchmark file (SQL<TAB>db_id lines, Spider's or BIRD's JSON) or
    a list of (sql, db_id) pairs; systems maps each system's name to its
    prediction file (paired with the gold by position, or by question index
    for BIRD's objects) or to a list of SQL strings (None: no prediction), one
    per gold item. The schemas come from tables (tables.json) or sqlite; the
    answers are compared on db_dir's databases (DIR/<db_id>/<db_id>.sqlite),
    the sqlite file, or the engine's databases (any engine URL, as Evaluator's),
    else on realistic databases generated from the schema, the same for every
    system. Returns {"items": [...], "systems": [{"name", "weight", "ex",
    "ex_kept"}], "flagged", "with_db", "seconds"}: every item ranked, each
    with index, score, flagged, kinds and evidence (the per-item record of
    docs/audit.md); ex_kept is a system's EX with the flagged items left out."""
    if isinstance(gold, (list, tuple)):
        import json
        text, is_text = json.dumps([{"query": sql, "db_id": db} for sql, db in gold]), True
    else:
        text, is_text = str(gold), False
    pairs = [(str(name), p if isinstance(p, (list, tuple)) else str(p)) for name, p in dict(systems).items()]
    summary, items = _sqlsim.audit(text, is_text, pairs, _path(tables), _path(sqlite), _path(db_dir), engine, dialect,
                                   int(jobs), float(min_score), bool(witness), float(timeout), now)
    summary["items"] = items
    return summary


def spider2_csv(rows, ncols: int = 0, chunk: int = 0) -> str:
    """A result given as rows (a list of sequences of Python values: None, bool, int,
    float, str, bytes, Decimal, dates) as the CSV text Spider 2.0's scripts save of
    it: pandas.DataFrame(rows).to_csv(index=False) (chunk 0), or lite's SQLite path,
    read_sql_query(chunksize=500) written chunk by chunk (chunk 500). A pandas
    DataFrame is written by its own to_csv(index=False), as the scripts do."""
    if hasattr(rows, "to_csv") and hasattr(rows, "columns"):
        return rows.to_csv(index=False)
    return _sqlsim.spider2_rows_csv(list(rows), int(ncols), int(chunk))


def spider2(gold: str, predictions, mode: Optional[str] = None, flavor: Optional[str] = None, rows: bool = False,
            db_dir: Optional[str] = None, sqlite: Optional[str] = None, engine: Optional[str] = None,
            tasks: Optional[str] = None, jobs: int = 1, timeout: float = 60.0) -> dict:
    """Spider 2.0 scored as its own evaluate.py scores it (sqlsim spider2;
    docs/spider2.md): each task's predicted result table against the task's gold
    tables in gold (a directory laid out as evaluation_suite/gold).

    predictions is a folder (<instance_id>.csv result tables, or <instance_id>.sql
    run on the task's database from db_dir, sqlite or engine), or a dict from
    instance_id to a result: CSV text, rows (a list of sequences of values, saved as
    spider2_csv saves them), a pandas DataFrame, or with mode="sql" the SQL to run.
    For reinforcement learning: run a model's SQL wherever its database is and
    score the rows here.

    Returns {"summary": {...}, "items": [...]}: the score over the predicted tasks
    and over the benchmark's, by engine; each item's instance_id, score (0/1),
    variant (the gold file that matched), rows (with rows=True: the matched columns
    also match row by row) and error. A prediction that cannot be read or run
    scores 0 with its error; nothing is raised for it."""
    m = {None: -1, "result": 1, "csv": 1, "exec_result": 1, "sql": 0}
    if mode not in m:
        raise ConfigError("mode must be 'result' or 'sql'")
    f = {None: 0, "lite": 1, "snow": 2}
    if flavor not in f:
        raise ConfigError("flavor must be 'lite' or 'snow'")
    kw = dict(mode=m[mode], flavor=f[flavor], rows=bool(rows), db_dir=_path(db_dir), sqlite=_path(sqlite),
              engine=engine, tasks=_path(tasks), jobs=int(jobs), timeout=float(timeout))
    if isinstance(predictions, (str, os.PathLike)):
        summary, items = _sqlsim.spider2(_path(gold), _path(predictions), **kw)
    else:
        ids, texts = [], []
        for k, v in dict(predictions).items():
            ids.append(str(k))
            texts.append(v if isinstance(v, str) else spider2_csv(v))
        if kw["mode"] < 0:
            kw["mode"] = 1
        summary, items = _sqlsim.spider2(_path(gold), None, ids, texts, **kw)
    return {"summary": summary, "items": items}

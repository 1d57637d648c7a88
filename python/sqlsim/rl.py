"""sqlsim as a reward in RL trainers: TRL's GRPOTrainer and verl.

    import sqlsim, sqlsim.rl
    ev = sqlsim.rl.evaluator(db_dir="spider/database")        # execution, BIRD's set semantics
    trainer = GRPOTrainer(..., reward_funcs=[sqlsim.rl.trl_reward(ev), sqlsim.rl.format_reward()])

    # verl: custom_reward_function.path = this file's module, name = compute_score, with
    compute_score = sqlsim.rl.verl_score(ev)                   # db_id from extra_info["db_id"]

Completions are model answers: the SQL is read out of each (sqlsim.extract_sql: a
```sql fence, <answer>, "Final answer:", after </think>), plain text or chat format. A
reward is always a float: an answer with no SQL, text that cannot be SQL (a NUL, lone
surrogates), a query that fails or runs away scores 0.0; a pair that cannot be scored at
all (its gold fails, its db_id is unknown) scores 0.0 with a RuntimeWarning saying why.

Semantics: RL baselines compare result sets as BIRD's evaluator does (sets of rows, in
order of columns); sqlsim's Evaluator defaults to Spider's (multisets, columns in any
order). evaluator() below chooses BIRD's; pass semantics="spider" for Spider's.
"""
import warnings
from typing import Callable, List, Optional, Sequence

from . import Evaluator, extract_sql

__all__ = ["evaluator", "trl_reward", "verl_score", "format_reward"]


def evaluator(db_dir: Optional[str] = None, tables: Optional[str] = None, sqlite: Optional[str] = None,
              semantics: str = "bird", timeout: float = 5.0, **kwargs) -> Evaluator:
    """An Evaluator made for rewards: execution with partial credit by structure
    (metrics exec and bis), answers read out of completions (extract=True), BIRD's set
    semantics unless told otherwise, and 5 s a query. Without a database (no db_dir or
    sqlite) the reward is the calibrated execution-free score with synthetic execution
    (metrics synth; needs tables)."""
    metrics = ("exec", "bis") if (db_dir or sqlite) else ("synth",)
    kwargs.setdefault("metrics", metrics)
    return Evaluator(tables=tables, db_dir=db_dir, sqlite=sqlite, semantics=semantics, timeout=timeout,
                     extract=True, **kwargs)


def _answers(ev: Evaluator, completions: Sequence) -> list:
    """The completions as the evaluator should see them: as they are when it reads
    answers itself (extract=True, which also takes chat completions), else their SQL."""
    if ev.config.get("extract"):
        return list(completions)
    out = []
    for c in completions:
        try:
            sql = extract_sql(c)
        except TypeError:
            sql = None
        out.append(sql if sql is not None else "")
    return out


def _floats(rewards: List[Optional[float]]) -> List[float]:
    return [0.0 if r is None else float(r) for r in rewards]


def trl_reward(ev: Evaluator, gold: str = "gold", db_id: Optional[str] = "db_id", partial: float = 0.2,
               jobs: int = 1, name: str = "sqlsim") -> Callable[..., List[float]]:
    """A reward function for TRL's GRPOTrainer (``reward_funcs=[...]``). The trainer calls
    it as ``f(prompts=..., completions=..., completion_ids=..., **columns)`` with every
    dataset column as a list aligned with the completions; ``gold`` and ``db_id`` name the
    columns holding the gold SQL and the database (db_id None: one database or schema for
    all, as the evaluator was made). Completions may be strings or chat messages. Returns
    one float per completion, never None."""

    def reward(completions, **kwargs) -> List[float]:
        if gold not in kwargs:
            raise KeyError(f"sqlsim.rl.trl_reward: the dataset has no column {gold!r} with the gold SQL "
                           f"(columns: {sorted(k for k in kwargs if k not in ('prompts', 'completion_ids', 'trainer_state'))})")
        golds = kwargs[gold]
        dbs = kwargs.get(db_id) if db_id else None
        if dbs is None:
            dbs = [None] * len(completions)
        pairs = list(zip(golds, _answers(ev, completions), dbs))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rewards = ev.reward_many(pairs, jobs=jobs, partial=partial)
        for w in caught:
            warnings.warn(str(w.message), RuntimeWarning, stacklevel=2)
        return _floats(rewards)

    reward.__name__ = name  # TRL logs each reward function by its name
    reward.__qualname__ = name
    return reward


def verl_score(ev: Evaluator, db_id: str = "db_id", partial: float = 0.2) -> Callable[..., float]:
    """A ``compute_score(data_source, solution_str, ground_truth, extra_info=None)`` for
    verl's reward managers: ground_truth is the gold SQL, the database is
    ``extra_info[db_id]``. Returns a float, never None."""

    def compute_score(data_source=None, solution_str="", ground_truth="", extra_info=None, **kwargs) -> float:
        db = extra_info.get(db_id) if isinstance(extra_info, dict) else None
        answer = _answers(ev, [solution_str])[0]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = ev.reward(ground_truth, answer, db, partial)
        for w in caught:
            warnings.warn(str(w.message), RuntimeWarning, stacklevel=2)
        return 0.0 if r is None else float(r)

    return compute_score


def format_reward(places: Sequence[str] = ("fence", "answer"), name: str = "sqlsim_format") -> Callable[..., List[float]]:
    """A TRL reward function for the answer's form: 1.0 where the completion's SQL is where
    it should be (``places``: "fence" a ```sql block, "answer" an <answer> element,
    "marker" after "Final answer:", "think" after </think>, "text" the whole text,
    "statement" before trailing prose), else 0.0."""
    from . import _sqlsim

    allowed = set(places)

    def reward(completions, **kwargs) -> List[float]:
        out = []
        for c in completions:
            try:
                sql, where = _sqlsim.extract_sql(c)
            except TypeError:
                sql, where = None, "none"
            out.append(1.0 if sql is not None and where in allowed else 0.0)
        return out

    reward.__name__ = name
    reward.__qualname__ = name
    return reward

"""Scoring a large collection of pairs on a Dask cluster (Debian: python3-distributed).

    >>> import dask.bag as db
    >>> from distributed import Client
    >>> import sqlsim, sqlsim.dask
    >>> client = Client("scheduler:8786")            # or LocalCluster(n_workers=2)
    >>> ev = sqlsim.Evaluator(tables="/data/spider/tables.json",
    ...                       db_dir="/data/spider/database", metrics="exec,bis")
    >>> pairs = db.from_sequence(triples, partition_size=20_000)   # (gold, pred, db_id)
    >>> records = sqlsim.dask.score_bag(pairs, ev).compute()

Each worker process builds the evaluator once (an Evaluator pickles as its
configuration, and a process keeps the evaluators it has built), then scores
its partitions with the engine's threads. The paths in the configuration must
name the same files on every worker machine: docs/python.md says how to lay
out databases and size partitions.
"""
from __future__ import annotations

from typing import Iterable, List

from . import Evaluator

__all__ = ["read_pairs", "score_bag", "reward_bag", "score_partition"]


def _pair(line: str):
    import json
    r = json.loads(line)
    return (r["gold"], r["pred"], r.get("db_id"))


def read_pairs(paths, blocksize=None):
    """A bag of (gold, pred, db_id) from JSON Lines files ({"gold", "pred", "db_id"} per
    line, the requests of `sqlsim stream`), read by the workers themselves: on a
    cluster, the pairs then never pass through the client."""
    import dask.bag as db
    return db.read_text(paths, blocksize=blocksize).map(_pair)


def score_partition(pairs: Iterable, evaluator: Evaluator, jobs: int = 1) -> List[dict]:
    """score_many over one partition (what each Dask task runs)."""
    return evaluator.score_many(list(pairs), jobs=jobs)


def _reward_partition(pairs: Iterable, evaluator: Evaluator, jobs: int, partial: float) -> list:
    return evaluator.reward_many(list(pairs), jobs=jobs, partial=partial)


def score_bag(bag, evaluator: Evaluator, jobs: int = 1):
    """A dask.bag of records (dicts, as Evaluator.score returns) from a bag of
    (gold, pred[, db_id]) tuples, in the bag's order. jobs: engine threads per
    task (leave at 1 when each Dask worker already runs one task per core)."""
    return bag.map_partitions(score_partition, evaluator, jobs)


def reward_bag(bag, evaluator: Evaluator, jobs: int = 1, partial: float = 0.2):
    """A dask.bag of rewards (Evaluator.reward) from a bag of pairs."""
    return bag.map_partitions(_reward_partition, evaluator, jobs, partial)

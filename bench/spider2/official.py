"""Runs Spider 2.0's own evaluate.py (lite or snow) on a prediction folder and prints its
per-item results as JSON lines {instance_id, score, error}: the reference sqlsim spider2 is
checked against. Its cloud clients (google.cloud.bigquery, snowflake.connector) are stubbed:
result mode never calls them.

usage: official.py FLAVOR EVALUATE_PY GOLD_DIR PRED_DIR MODE   (MODE exec_result or sql)
Run it with the Python that has pandas 1.5.3 (Debian's /usr/bin/python3)."""
import argparse, contextlib, importlib.util, json, os, pathlib, shutil, sys, tempfile

STUBS = {
    'google/__init__.py': '',
    'google/cloud/__init__.py': '',
    'google/cloud/bigquery.py': 'class Client:\n    def __init__(self, *a, **k): raise RuntimeError("BigQuery is not available offline")\n',
    'snowflake/__init__.py': '',
    'snowflake/connector.py': ('class _Errors:\n    class ProgrammingError(Exception): pass\nerrors = _Errors()\n'
                               'def connect(*a, **k): raise RuntimeError("Snowflake is not available offline")\n'),
}


def main():
    flavor, script, gold, pred, mode = sys.argv[1:6]
    script, gold, pred = (os.path.abspath(x) for x in (script, gold, pred))
    base = tempfile.mkdtemp(prefix='s2off.')
    try:
        stubs = os.path.join(base, 'stubs')
        for rel, text in STUBS.items():
            os.makedirs(os.path.dirname(os.path.join(stubs, rel)), exist_ok=True)
            open(os.path.join(stubs, rel), 'w').write(text)
        sys.path.insert(0, stubs)
        cwd = os.path.join(base, 'evaluation_suite')
        os.makedirs(cwd)
        # snow's script reads ../spider2-snow.jsonl from its working folder
        tasks = os.path.join(os.path.dirname(os.path.dirname(script)), 'spider2-snow.jsonl')
        if os.path.exists(tasks):
            shutil.copy(tasks, os.path.join(base, 'spider2-snow.jsonl'))
        os.chdir(cwd)
        spec = importlib.util.spec_from_file_location('evaluate_' + flavor, script)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        captured = {}
        m.save_correct_ids_to_csv = lambda results, result_dir: captured.__setitem__('r', results)
        args = argparse.Namespace(mode=mode, result_dir=pred, gold_dir=gold, is_sql_debug=False,
                                  max_workers=int(os.environ.get('S2_WORKERS', '8')), timeout=60,
                                  temp_dir=None)
        res = None
        with open(os.devnull, 'w') as null, contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):
            try:
                res = m.evaluate_spider2sql(args, pathlib.Path(os.path.join(base, 'tmp')))
            except Exception as e:  # the script's own crash is its result: no items
                print('CRASH', type(e).__name__, e, file=sys.__stderr__)
        res = captured.get('r', res) or []
        for r in sorted(res, key=lambda r: r['instance_id']):
            print(json.dumps({'instance_id': r['instance_id'], 'score': int(r['score']), 'error': r['error_info']}))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == '__main__':
    main()

"""Prediction folders for Spider 2.0's evaluators: each gold variant as a prediction, and
perturbations of the gold (one kind per folder): what sqlsim's judgement must agree with
the official evaluate.py on. usage: gen_perturb.py GOLD_DIR FLAVOR OUT_DIR"""
import csv, io, os, random, re, sys, json
gold, flavor, out = sys.argv[1:4]
res = os.path.join(gold, 'exec_result')
ev = os.path.join(gold, 'spider2%s_eval.jsonl' % flavor)
ids = [json.loads(l)['instance_id'] for l in open(ev)]
files = sorted(os.listdir(res))
def variants(i):
    if i + '.csv' in files: return [i + '.csv']
    return sorted(f for f in files if re.match(r'^%s(_[a-z])?\.csv$' % re.escape(i), f))
def read(f):
    t = open(os.path.join(res, f), 'rb').read().decode('utf-8', 'replace')
    rows = list(csv.reader(io.StringIO(t, newline=None)))
    return rows
def write(path, rows, eol='\n', bom=False, raw=None):
    if raw is not None:
        open(path, 'wb').write(raw); return
    s = io.StringIO(); w = csv.writer(s, lineterminator=eol); w.writerows(rows)
    b = s.getvalue().encode()
    if bom: b = b'\xef\xbb\xbf' + b
    open(path, 'wb').write(b)
NUM = re.compile(r'^-?\d+(\.\d+)?([eE][-+]?\d+)?$')
def isnum(x): return bool(NUM.match(x))
def fnum(x, d):
    v = float(x) + d
    return repr(v)
def cells(rows): return [(r, c) for r in range(1, len(rows)) for c in range(len(rows[r]))]
def pert(kind, rows, R, other):
    h, body = rows[0], [list(r) for r in rows[1:]]
    n = len(h)
    def numcells(): return [(r, c) for r in range(len(body)) for c in range(len(body[r])) if isnum(body[r][c])]
    if kind == 'identity': return [h] + body
    if kind == 'reorder_cols':
        p = list(range(n)); R.shuffle(p); return [[h[i] for i in p]] + [[r[i] if i < len(r) else '' for i in p] for r in body]
    if kind == 'rename_cols': return [['x%d' % R.randint(0, 99) for _ in h]] + body
    if kind == 'add_col':
        c = R.randrange(n); v = R.choice(['copy', 'const', 'text'])
        return [h + ['extra']] + [r + [(r[c] if c < len(r) else '') if v == 'copy' else '7' if v == 'const' else 'zz%d' % R.randint(0, 9)] for r in body]
    if kind == 'drop_col':
        if n < 2: return [h] + body
        c = R.randrange(n); return [h[:c] + h[c+1:]] + [r[:c] + r[c+1:] for r in body]
    if kind == 'shuffle_rows': R.shuffle(body); return [h] + body
    if kind == 'drop_row':
        if body: body.pop(R.randrange(len(body)))
        return [h] + body
    if kind == 'dup_row':
        if body: body.insert(R.randrange(len(body) + 1), list(R.choice(body)))
        return [h] + body
    if kind == 'misalign':
        c = R.randrange(n); col = [r[c] if c < len(r) else '' for r in body]; R.shuffle(col)
        for r, v in zip(body, col):
            if c < len(r): r[c] = v
        return [h] + body
    if kind == 'swap_two':
        if len(body) >= 2:
            c = R.randrange(n); i, j = R.sample(range(len(body)), 2)
            if c < len(body[i]) and c < len(body[j]): body[i][c], body[j][c] = body[j][c], body[i][c]
        return [h] + body
    if kind.startswith('plus_'):
        d = {'plus_005': 0.005, 'plus_01': 0.01, 'plus_011': 0.011, 'plus_0099': 0.0099, 'plus_1': 1.0, 'plus_rel': None}[kind]
        for r, c in numcells():
            x = body[r][c]
            body[r][c] = repr(float(x) * (1 + 1e-9)) if d is None else fnum(x, d if R.random() < 0.5 else -d)
        return [h] + body
    if kind == 'empty_cells':
        cs = [(r, c) for r in range(len(body)) for c in range(len(body[r]))]
        for r, c in R.sample(cs, min(len(cs), max(1, len(cs) // 10))): body[r][c] = ''
        return [h] + body
    if kind == 'empty_to_zero':
        for r in body:
            for c in range(len(r)):
                if r[c] == '': r[c] = '0'
        return [h] + body
    if kind == 'zero_to_empty':
        for r in body:
            for c in range(len(r)):
                if r[c] in ('0', '0.0'): r[c] = ''
        return [h] + body
    if kind == 'int_as_float':
        for r, c in numcells():
            if re.match(r'^-?\d+$', body[r][c]): body[r][c] += '.0'
        return [h] + body
    if kind == 'float_as_int':
        for r, c in numcells():
            if re.match(r'^-?\d+\.0+$', body[r][c]): body[r][c] = body[r][c].split('.')[0]
        return [h] + body
    if kind == 'trailing_zeros':
        for r, c in numcells():
            if '.' in body[r][c] and 'e' not in body[r][c].lower(): body[r][c] += '00'
        return [h] + body
    if kind == 'round2':
        for r, c in numcells(): body[r][c] = '%.2f' % float(body[r][c])
        return [h] + body
    if kind == 'sci':
        for r, c in numcells(): body[r][c] = '%e' % float(body[r][c])
        return [h] + body
    if kind == 'upper':
        return [h] + [[x.upper() for x in r] for r in body]
    if kind == 'lower':
        return [h] + [[x.lower() for x in r] for r in body]
    if kind == 'spaces':
        return [h] + [[(x + ' ') if x and not isnum(x) else x for x in r] for r in body]
    if kind == 'num_text':
        for r, c in numcells(): body[r][c] = R.choice([' %s', '%s ', '+%s', '0%s', '%s\t', '"%s"']) % body[r][c] if not body[r][c].startswith('-') else body[r][c]
        return [h] + body
    if kind == 'na_strings':
        cs = [(r, c) for r in range(len(body)) for c in range(len(body[r]))]
        for r, c in R.sample(cs, min(len(cs), max(1, len(cs) // 8))): body[r][c] = R.choice(['NA', 'null', 'None', 'NaN', 'N/A', '-', 'nan'])
        return [h] + body
    if kind == 'bools':
        m = {'1': 'True', '0': 'False', 'True': '1', 'False': '0', 'true': '1', 'false': '0'}
        return [h] + [[m.get(x, x) for x in r] for r in body]
    if kind == 'thousands':
        for r, c in numcells():
            try:
                v = float(body[r][c])
                if abs(v) >= 1000: body[r][c] = '{:,}'.format(int(v)) if v == int(v) else '{:,.2f}'.format(v)
            except Exception: pass
        return [h] + body
    if kind == 'dates':
        return [h] + [[re.sub(r'^(\d{4})-(\d\d)-(\d\d)', r'\1/\2/\3', x) for x in r] for r in body]
    if kind == 'swap_cols':
        if n >= 2:
            a, b = R.sample(range(n), 2)
            for r in body:
                if a < len(r) and b < len(r): r[a], r[b] = r[b], r[a]
        return [h] + body
    if kind == 'header_only': return [h]
    if kind == 'other_variant': return other if other is not None else [h] + body
    if kind == 'first_row_only': return [h] + body[:1]
    if kind == 'transpose_first': return [h] + ([body[0][::-1]] + body[1:] if body else [])
    raise ValueError(kind)
RAW = ['crlf', 'bom', 'cr', 'empty_file', 'truncated', 'extra_field', 'unterminated_quote', 'blank_lines', 'ws_lines', 'latin1', 'nul']
KINDS = ['identity', 'reorder_cols', 'rename_cols', 'add_col', 'drop_col', 'shuffle_rows', 'drop_row', 'dup_row', 'misalign', 'swap_two',
 'plus_005', 'plus_01', 'plus_011', 'plus_0099', 'plus_1', 'plus_rel', 'empty_cells', 'empty_to_zero', 'zero_to_empty', 'int_as_float', 'float_as_int',
 'trailing_zeros', 'round2', 'sci', 'upper', 'lower', 'spaces', 'num_text', 'na_strings', 'bools', 'thousands', 'dates', 'swap_cols', 'header_only',
 'other_variant', 'first_row_only', 'transpose_first'] + RAW
for kind in KINDS:
    for seed in (1, 2):
        R = random.Random(sum(map(ord, kind)) * 7 + seed)
        d = os.path.join(out, '%s_%d' % (kind, seed)); os.makedirs(d, exist_ok=True)
        for i in ids:
            vs = variants(i)
            if not vs: continue
            v = R.choice(vs)
            raw = open(os.path.join(res, v), 'rb').read()
            path = os.path.join(d, i + '.csv')
            if kind in RAW:
                if kind == 'crlf': raw = raw.replace(b'\r\n', b'\n').replace(b'\n', b'\r\n')
                elif kind == 'bom': raw = b'\xef\xbb\xbf' + raw
                elif kind == 'cr': raw = raw.replace(b'\r\n', b'\n').replace(b'\n', b'\r')
                elif kind == 'empty_file': raw = b''
                elif kind == 'truncated': raw = raw[:R.randint(0, len(raw))]
                elif kind == 'extra_field':
                    ls = raw.split(b'\n'); k = R.randrange(len(ls)); ls[k] += b',x'; raw = b'\n'.join(ls)
                elif kind == 'unterminated_quote': raw = raw + b'"abc'
                elif kind == 'blank_lines': raw = raw.replace(b'\n', b'\n\n', 3)
                elif kind == 'ws_lines': raw = raw.replace(b'\n', b'\n  \n', 2).replace(b'\n', b'\n ', 1)
                elif kind == 'latin1': raw = raw.replace(b'e', b'\xe9', 1)
                elif kind == 'nul': raw = raw.replace(b'a', b'a\x00', 1)
                open(path, 'wb').write(raw); continue
            rows = read(v)
            if not rows: open(path, 'wb').write(raw); continue
            other = None
            if kind == 'other_variant' and len(vs) > 1:
                other = read(R.choice([x for x in vs if x != v]))
            write(path, pert(kind, rows, R, other))
for k in range(26):  # every variant as a prediction: folder v<k> holds each task's k-th variant
    d = os.path.join(out, 'variant_%c' % (97 + k)); made = 0
    for i in ids:
        vs = variants(i)
        if len(vs) > k:
            os.makedirs(d, exist_ok=True)
            open(os.path.join(d, i + '.csv'), 'wb').write(open(os.path.join(res, vs[k]), 'rb').read()); made += 1
print(len(os.listdir(out)), 'folders')

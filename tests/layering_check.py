#!/usr/bin/env python3
"""layering_check.py -- the design rules a reader of the tree relies on, checked.

usage: layering_check.py SOURCE_DIR

1. Modules call downward only, through declared interfaces: a file of one
   module includes of another module only that module's declared interface
   headers (INTERFACES), and only of a module below it (ORDER). Tests, fuzz
   targets and benchmarks read insides on purpose and are not checked.
2. No circle between the files of synth/: file A calls a function defined in
   file B and B (directly or through others) one defined in A.
3. No function longer than MAX_LINES lines, but the parser's node tables
   (EXEMPT): a table a reader reads down, one case a node kind.
Prints each breach and exits 1 when there is one."""
import os, re, sys

# The modules in pipeline order: each may include from those before it.
ORDER = ['core', 'exec', 'schema', 'load', 'parser', 'diff', 'metrics', 'synth', 'rewrite', 'record', 'analyze',
         'engine', 'audit', 'spider2', 'report', 'cli', 'python']
# A module's declared interface to the others (README's "What is here").
INTERFACES = {
    'core/core.h', 'exec/exec.h', 'exec/sandbox.h', 'exec/server.h', 'parser/tree.h', 'diff/flat.h', 'metrics/ex.h', 'metrics/spider2.h',
    'synth/runner.h', 'record/record.h', 'analyze/analyze.h', 'engine/fields.h', 'report/report.h',
    'report/run.h',
}
MAX_LINES = 150
EXEMPT = {('parser/pgnodes.c', 'w_body'), ('parser/print.c', 'p_node'), ('parser/lexer.c', 'scan_tokens')}


def sources(root, module):
    d = os.path.join(root, module)
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(module, f) for f in os.listdir(d) if f.endswith(('.c', '.h')))


def check_includes(root):
    bad = []
    for i, m in enumerate(ORDER):
        for f in sources(root, m):
            for n, line in enumerate(open(os.path.join(root, f), encoding='utf-8'), 1):
                g = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not g or '/' not in g.group(1):
                    continue
                h = g.group(1)
                other = h.split('/')[0]
                if other == m or other not in ORDER:
                    continue
                if ORDER.index(other) > i:
                    bad.append(f'{f}:{n}: includes {h}: {other}/ is above {m}/ (modules include downward only)')
                elif h not in INTERFACES:
                    bad.append(f'{f}:{n}: includes {h}, an inside of {other}/ (its interface: '
                               f'{", ".join(sorted(x for x in INTERFACES if x.startswith(other + "/"))) or "sqlsim.h"})')
    return bad


def strip(text):
    """C text without comments and string or character literals."""
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    return re.sub(r'"(\\.|[^"\\\n])*"|\'(\\.|[^\'\\\n])*\'', '""', text)


FUNC = re.compile(r'^(?!static\b)[A-Za-z_][\w \*]*?\b([a-z_]\w*)\s*\([^;{]*\)\s*\{', re.M)
FUNC_ANY = re.compile(r'^[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\(', re.M)


def functions(text):
    """(name, first line, last line) of each function defined at column 0."""
    out = []
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        m = FUNC_ANY.match(lines[i])
        if m and not lines[i].rstrip().endswith(';') and not lines[i].startswith(('typedef', 'struct', 'enum', 'union')):
            j = i
            while j < len(lines) and '{' not in lines[j] and not lines[j].rstrip().endswith(';'):
                j += 1
            if j < len(lines) and '{' in lines[j] and '=' not in lines[i].split('(')[0]:
                k = j
                while k < len(lines) and not lines[k].startswith('}'):
                    k += 1
                out.append((m.group(1), i + 1, k + 1))
                i = k + 1
                continue
        i += 1
    return out


def check_synth_cycles(root):
    files = [f for f in sources(root, 'synth') if f.endswith('.c')]
    text = {f: strip(open(os.path.join(root, f), encoding='utf-8').read()) for f in files}
    defined = {}
    for f in files:
        for name, a, b in functions(text[f]):
            line = text[f].split('\n')[a - 1]
            if not line.startswith('static'):
                defined[name] = f
    calls = {f: set() for f in files}
    for f in files:
        for name in set(re.findall(r'\b([a-z_]\w*)\s*\(', text[f])):
            if name in defined and defined[name] != f:
                calls[f].add(defined[name])
    bad = []
    # a circle: f reaches itself through another file
    for f in files:
        seen, stack = set(), list(calls[f])
        while stack:
            g = stack.pop()
            if g == f:
                bad.append(f'{f}: calls round a circle of synth/ files ({", ".join(sorted(calls[f]))} ...)')
                break
            if g not in seen:
                seen.add(g)
                stack.extend(calls[g])
    return bad


def check_lengths(root):
    bad = []
    for m in ORDER:
        for f in sources(root, m):
            if not f.endswith('.c'):
                continue
            for name, a, b in functions(strip(open(os.path.join(root, f), encoding='utf-8').read())):
                if b - a + 1 > MAX_LINES and (f, name) not in EXEMPT:
                    bad.append(f'{f}:{a}: {name} is {b - a + 1} lines (at most {MAX_LINES})')
    return bad


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    bad = check_includes(root) + check_synth_cycles(root) + check_lengths(root)
    for b in bad:
        print(b)
    n = sum(len(sources(root, m)) for m in ORDER)
    print(f'layering: {n} files of {len(ORDER)} modules, {len(bad)} breaches')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()

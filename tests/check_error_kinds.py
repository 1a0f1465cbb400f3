#!/usr/bin/env python3
"""check_error_kinds.py — every error message tl can raise has a valid kind that fits it.

Walks runtime/, src/ and stdlib/ for every call that raises an error (tl_seterr,
interp_error, interp_error_kind, bi_fail, tl_seterr_kind, diag_set, io_fail, io_fail_path),
reads each one's kind and message, and fails when a kind is missing or not in
runtime/error.h's list, or when a message matches a rule below but has another kind
(or a kind whose rule its message does not meet). Prints the count per kind.
Usage: check_error_kinds.py SOURCE_ROOT   |   check_error_kinds.py --selftest
"""
import re
import sys
from pathlib import Path

# A message matching the pattern must have the kind.
MESSAGE_RULES = [
    (r'out of memory|cannot allocate|cannot reserve', 'MemoryError'),
    (r'by zero', 'ZeroDivisionError'),
    (r'^interrupted$|step limit reached', 'Interrupt'),
    (r'recursion too deep|nested too deeply', 'RecursionError'),
    (r'(index|axis)[^:]* out of (bounds|range)|too many indices|no key|view out of bounds', 'IndexError'),
    (r'cannot broadcast|could not be broadcast|broadcast shape|cannot reshape|not aligned|does not have enough dimensions',
     'ShapeError'),
    (r'not supported for (dtype|complex|bool)|must be an? (integer|string|tensor|real|dict)|unsupported operand'
     r'|is not callable|takes (at least|at most|a |%d|\d)|missing (argument|%s|(?!precision)\w+$)|unexpected keyword', 'TypeError'),
]
# A message of the kind must match the pattern (kinds with a narrow meaning).
KIND_RULES = {
    'MemoryError': r'out of memory|cannot allocate|cannot reserve|too large|locale',
    'ZeroDivisionError': r'by zero',
    'Interrupt': r'^interrupted$|step limit reached',
    'RecursionError': r'recursion too deep|nested too deeply',
    'FileError': r'include\(\)|zlib|%s%s: %s|^cannot write %s: %s$',
    'Error': r'is not defined|no function named|is read before it is assigned',
    'AssertionError': r'^assertion failed$|to compare x with',   # only assert() and expect_close() raise it
    'SyntaxError': r'outside|cannot assign to this|only allowed inside|cannot be declared (global|%s)|declared both global and nonlocal|no binding for nonlocal',
}
# Functions whose kind is fixed by the function itself.
FIXED_KIND = {'io_fail': 'FileError', 'io_fail_path': 'FileError'}
# Calls that pass a kind held in a variable (an error passed on, a user's own kind, or a library load's
# FileError or MemoryError): file -> count.
PASS_THROUGH = {'runtime/dynlib.c', 'runtime/error.c', 'runtime/kernels/threads.c', 'src/interp.c', 'src/diag.c', 'src/parse.c',
                'stdlib/core.c', 'stdlib/args.c'}


CALL = re.compile(r'\b(tl_seterr|tl_seterr_kind|interp_error|interp_error_kind|bi_fail|diag_set|diag_vset|io_fail|io_fail_path)\(')
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def split_args(text, start):
    """The top-level arguments of the call whose '(' ends just before start (as source text)."""
    args, depth, cur, i = [], 0, [], start
    while i < len(text):
        c = text[i]
        if c == '"':
            m = LITERAL.match(text, i)
            cur.append(m.group(0)); i = m.end(); continue
        if c == "'":
            j = text.index("'", i + 2 if text[i + 1] == '\\' else i + 1)
            cur.append(text[i:j + 1]); i = j + 1; continue
        if c in '([{':
            depth += 1
        elif c in ')]}':
            if depth == 0:
                args.append(''.join(cur).strip()); return args
            depth -= 1
        elif c == ',' and depth == 0:
            args.append(''.join(cur).strip()); cur = []; i += 1; continue
        cur.append(c); i += 1
    return args


def message_of(arg, macros):
    """The format string of a message argument: adjacent literals joined, TL_ERR_ macros expanded."""
    parts = LITERAL.findall(arg)
    if parts:
        return ''.join(parts)
    return macros.get(arg.strip(), None)


def check_file(path, rel, text, kinds, macros, counts, problems):
    for m in CALL.finditer(text):
        fn = m.group(1)
        line = text.count('\n', 0, m.start()) + 1
        before = text[max(0, text.rfind('\n', 0, m.start())):m.start()]
        if re.search(r'(\bint|\bvoid|\bbool|#define|\*)\s*$', before) or before.strip().startswith('//'):
            continue   # a declaration or definition, not a call
        args = split_args(text, m.end())
        where = f'{rel}:{line}'
        if fn in FIXED_KIND:
            kind, fmt = FIXED_KIND[fn], args[1] if len(args) > 1 else ''
        elif fn == 'tl_seterr':
            kind, fmt = (args[0] if args else ''), (args[1] if len(args) > 1 else '')
        elif fn in ('interp_error', 'bi_fail'):   # bi_fail(I, a, Kind, ...): "NAME(): " + the message
            kind, fmt = (args[2] if len(args) > 2 else ''), (args[3] if len(args) > 3 else '')
        else:   # the _kind forms and diag_set name the enum constant, or pass a variable on
            pos = {'tl_seterr_kind': 0, 'interp_error_kind': 2, 'diag_set': 2, 'diag_vset': 2}[fn]
            k = args[pos] if len(args) > pos else ''
            fmt = args[pos + 1] if len(args) > pos + 1 else ''
            if k.startswith('TL_E_'):
                kind = k[len('TL_E_'):]
            elif rel in PASS_THROUGH:
                counts['(passed on)'] = counts.get('(passed on)', 0) + 1
                continue
            else:
                problems.append(f'{where}: {fn}() with a kind held in a variable ({k!r}) outside the known pass-through sites')
                continue
        if kind not in kinds:
            problems.append(f'{where}: {fn}() has no valid kind (got {kind!r}; kinds: {", ".join(sorted(kinds))})')
            continue
        msg = message_of(fmt, macros)
        counts[kind] = counts.get(kind, 0) + 1
        if msg is None or msg in ('%s', '%s: %s'):
            continue   # a message passed on; its kind was checked where it was written
        for pattern, want in MESSAGE_RULES:
            if re.search(pattern, msg) and kind != want and not (want == 'IndexError' and kind == 'FileError'):
                problems.append(f'{where}: "{msg}" is {kind}, but messages like it are {want}')
                break
        rule = KIND_RULES.get(kind) if fn not in FIXED_KIND else None
        if rule and not re.search(rule, msg):
            problems.append(f'{where}: "{msg}" is {kind}, which is kept for messages matching /{rule}/')


def run(root):
    root = Path(root)
    header = (root / 'runtime' / 'error.h').read_text()
    body = header[header.index('#define TL_ERRKIND_LIST'):]
    body = body[:body.index('\n\n')]
    kinds = set(re.findall(r'X\((\w+)\)', body))
    macros = {}
    for h in list(root.glob('runtime/**/*.h')):
        for name, lit in re.findall(r'#define\s+(TL_ERR_\w+)\s+"((?:[^"\\]|\\.)*)"', h.read_text()):
            macros[name] = lit
    counts, problems, nfiles = {}, [], 0
    for sub in ('runtime', 'src', 'stdlib'):
        for path in sorted((root / sub).glob('**/*.c')):
            nfiles += 1
            check_file(path, str(path.relative_to(root)), path.read_text(), kinds, macros, counts, problems)
    return kinds, counts, problems, nfiles


def selftest():
    """The checker must catch a missing kind, an unknown kind and an obviously wrong one."""
    kinds = {'ShapeError', 'IndexError', 'TypeError', 'ValueError', 'ZeroDivisionError', 'MemoryError',
             'FileError', 'RecursionError', 'AssertionError', 'Error', 'Interrupt', 'SyntaxError'}
    cases = {
        'tl_seterr("index %d is out of bounds", i);': 'no valid kind',
        'tl_seterr(Shape, "cannot broadcast");': 'no valid kind',
        'tl_seterr(ValueError, "out of memory");': 'messages like it are MemoryError',
        'return interp_error(I, a->at, ValueError, "index %lld is out of bounds for axis %d", i, ax);': 'IndexError',
        'tl_seterr(MemoryError, "bad value");': 'kept for messages',
        'tl_seterr_kind(k, "%s", m);': 'held in a variable',
        'return interp_error(I, a->at, IndexError, "index %lld is out of bounds for axis %d", i, ax);': None,
    }
    bad = 0
    for src, want in cases.items():
        problems, counts = [], {}
        check_file(None, 'stdlib/x.c', 'f(){\n    ' + src + '\n}\n', kinds, {}, counts, problems)
        got = problems[0] if problems else None
        ok = (got is None) if want is None else (got is not None and want in got)
        if not ok:
            print(f'selftest: {src!r}: expected {want!r}, got {got!r}')
            bad += 1
    print(f'selftest: {len(cases) - bad} of {len(cases)} cases right')
    return bad == 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '--selftest':
        return 0 if selftest() else 1
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    if not selftest():
        return 1
    kinds, counts, problems, nfiles = run(sys.argv[1])
    for p in problems:
        print(p)
    total = sum(v for k, v in counts.items() if k != '(passed on)')
    print(f'{total} error sites in {nfiles} files: ' + ', '.join(f'{k} {v}' for k, v in sorted(counts.items())))
    if problems:
        print(f'{len(problems)} problem(s)')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

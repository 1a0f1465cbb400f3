#!/usr/bin/python3
"""gen_format_table.py — format specs against CPython 3.11's format(), as golden tests.

Run with Debian's CPython and numpy:  /usr/bin/python3 tests/tools/gen_format_table.py [OUTDIR]
   or, as tests/meson.build's format_table test:  gen_format_table.py --check PATH/TO/tl WORKDIR
Writes (into tests/golden/lang/ unless OUTDIR is given; the committed files are its output):
  format_table.tl/.out    every spec field on ints (bool, u64 past i64, negative), floats (nan, inf,
                          -0.0, 1e300, 5e-324, ties), complex numbers, strings and 0-d values of every
                          dtype: each line is format("{:{}}", VALUE, SPEC) in tl, and the .out line is
                          what CPython's format(value, spec) gives (numpy's scalar for a dtype), or its
                          error as tl reports it; the last part writes fields as f-strings.
  format_tensors.tl/.out  tensors with one or more axes through a spec: numpy's
                          array2string(a, formatter={'all': lambda v: format(v, spec)}).
The expected text comes from Python only, never from tl. --check writes them into WORKDIR, fails
when they differ from the committed ones (so those are Python's, up to date), then runs tl --test
on them. Prints the number of (value, spec) pairs.
"""
import filecmp
import subprocess
import math
import os
import random
import sys

import numpy as np

assert sys.version_info[:2] == (3, 11), 'expectations must come from CPython 3.11'
assert np.__version__ == '1.24.2', 'expectations must come from numpy 1.24.2'

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'golden', 'lang')
CHECK = len(sys.argv) == 4 and sys.argv[1] == '--check'
OUT = sys.argv[3] if CHECK else sys.argv[1] if len(sys.argv) > 1 else GOLDEN
INF, NAN = float('inf'), float('nan')


def bf16(x):
    """x rounded to bfloat16 (8 significant bits, f32's exponent range), nearest even, as a Python float."""
    if x != x or x in (INF, -INF) or x == 0:
        return x
    _, e = math.frexp(x)
    k = max(e - 8, -133)
    return round(x / 2.0 ** k) * 2.0 ** k


def tl_str(s, quote='"'):
    return quote + s.replace('\\', '\\\\').replace(quote, '\\' + quote) + quote


def tl_float(v):
    if v != v:
        return '(0.0 / 0.0)'
    if v in (INF, -INF):
        return '(1.0 / 0.0)' if v > 0 else '(-1.0 / 0.0)'
    return repr(v)


def tl_int(v):
    if v == -2 ** 63:
        return '(-9223372036854775807 - 1)'
    if v >= 2 ** 63:   # only a u64 holds it: the cast wraps the i64 literal v - 2^64
        return f'u64({v - 2 ** 64 if v - 2 ** 64 != -2 ** 63 else "-9223372036854775807 - 1"})'
    return repr(v)


# (tl expression, the Python value formatted), by kind
INTS = [(tl_int(v), v) for v in (0, 1, -1, 7, -42, 97, 255, 1234, -98765, 1234567, 2 ** 31, -2 ** 31, 10 ** 15 + 7,
                                 2 ** 63 - 1, -2 ** 63, 0x10FFFF, 0x1F600, 2 ** 63, 2 ** 64 - 1)]
BOOLS = [('true', True), ('false', False)]
FLOATS = [(tl_float(v), v) for v in (0.0, -0.0, 1.0, -1.5, 0.1, 1 / 3, 2.5, 0.125, 0.375, 1.25, 3.14159, -2.71828,
                                     1e300, -1e300, 5e-324, 1e-5, 0.0001, 123456.789, 1e16, 1e15, 9.995, 0.0005,
                                     1234567.891, 2.675, 1e22, NAN, INF, -INF)]
COMPLEX = [('(1 + 2j)', 1 + 2j), ('(-1.5 - 0.5j)', -1.5 - 0.5j), ('0j', 0j), ('(1234.5 + 0.001j)', 1234.5 + 0.001j),
           ('(-0.0 - 2j)', complex(-0.0 - 0.0, -2.0)), ('(1e300 * 1j)', 1e300 * 1j), ('(3.0 + 1e-20j)', 3 + 1e-20j)]
STRINGS = [(tl_str(s, "'"), s) for s in ('', 'a', 'abc', 'héllo', '😀x', 'tensor', 'a b', 'x' * 12)]

INT_SPECS = ['', 'd', '5', '<5', '>8', '^7', '=+8', '*^9', '+', '-', ' ', '+d', ' 5d', '05', '08,', ',', '_', '_x',
             '_b', '_o', '#x', '#X', '#o', '#b', '#010x', '#010_b', '#_X', 'x', 'X', 'o', 'b', 'c', '^5c', '05c', 'n',
             '10n', 'e', '.3e', 'E', 'f', '.2f', '%', '.1%', 'g', 'G', '#g', ',.2f', '020,', '0=+10', 'é>6', '0<6',
             '-^+9', '.2', '.2d', 'z', 'zd', '+c', '#c', ',c', ',x', 's', ',_', '_,', '.', '1.2.3', 'xyz',
             '12345678901234567890', ',n', '_n', 'é', ' c', ',é']
FLOAT_SPECS = ['', 'f', '.0f', '.1f', '.2f', '.3f', '.10f', '.17f', '.25f', 'e', '.0e', '.3e', '.10e', '.17e', 'E',
               'g', '.0g', '.1g', '.3g', '.10g', '.17g', 'G', '#g', '#.3g', '%', '.0%', '.2%', '#.0f', '#.0e', '#',
               '.3', '.17', '#.3', 'n', '.3n', '10.3f', '<10.3f', '>12.4e', '^15', '=+12.2f', '+', ' ', '-', 'z',
               'z.1f', '+z.3f', 'z.2e', ',', ',.2f', '_.3f', '020,.2f', '015.3e', '0=15.2f', '*^20.5g', 'é<14.2e',
               '#20.3g', '0', '08', '-010.1f', 'd', 'x', 'c', 's', ',x', '_n', ',n', '.', '1.2.3', '99999999999999999999',
               '.99999999999999999999f', ',_', 'b', 'z,x', '.2147483648f', '{', '<<<']
COMPLEX_SPECS = ['', '.2f', '.3e', 'g', '.3g', '+.2f', '>25', '^30.2f', '<30', '#', ',.2f', 'z.1f', 'E', 'n', '.0',
                 '*^28.1f', ' ', '-', '%', '05', '=10', '0<5', 'd', 'x', ',x', '.']
STR_SPECS = ['', 's', '5', '<8', '>8', '^9', '*^11', 'é>7', '.2', '.0', '10.3', '>10.1s', '0', '05', '012', '^1',
             '+', ' ', '-', 'z', '#', '=', '=5', 'd', ',', '_', 'x', '.', '1.2.3', 'ss']

# 0-d values of every dtype: (dtype, tl argument, numpy's value)
DTYPES = {'bool': np.bool_, 'u8': np.uint8, 'u16': np.uint16, 'u32': np.uint32, 'u64': np.uint64, 'i8': np.int8,
          'i16': np.int16, 'i32': np.int32, 'i64': np.int64, 'f16': np.float16, 'f32': np.float32, 'f64': np.float64,
          'c64': np.complex64, 'c128': np.complex128}
DTYPE_VALUES = {
    'bool': [0, 1], 'u8': [0, 200, 255], 'u16': [65535, 1234], 'u32': [4000000000, 7], 'u64': [12345678901234567, 0],
    'i8': [-128, 127, -5], 'i16': [-32768, 1000], 'i32': [-2147483648, 123456], 'i64': [-5, 10 ** 18],
    'f16': [0.1, -65504.0, 1e-7, 3.140625, 0.0], 'bf16': [0.1, -3.0e38, 1e-30, 2.71875, 1.0],
    'f32': [0.1, 3.4e38, 1e-45, -2.5, 16777217.0], 'f64': [0.1, -1e300, 2.5],
    'c64': [1.5 + 2.5j, -0.1 + 0.2j], 'c128': [1 / 3 + 1j, -2j]}
DTYPE_SPECS = {
    'bool': ['', 'd', '>5', 'x', 'f', 's', '+'],
    'int': ['', 'd', '+,', '#x', '>12', '_b', 'e', '.2f', '%', 'c', '.2', 'z'],
    'float': ['', 'f', '.3f', '.10f', 'e', '.4e', 'g', '.10g', '%', '+,.2f', '>14', '#', '.3', 'd', 'z.0f'],
    'complex': ['', '.2f', '.3e', '>30', 'g', '+.1f', '05', '%'],
}


def run(value, spec):
    """CPython's text, or the error as tl's format() reports it (IndexError and OverflowError are tl's ValueError)."""
    try:
        return '|' + format(value, spec) + '|'
    except (ValueError, OverflowError) as e:
        return 'ValueError: format(): ' + str(e)


def table_cases():
    """(tl value expression, spec, expected line) triples."""
    cases = []
    for vals, specs in ((INTS, INT_SPECS), (BOOLS, INT_SPECS), (FLOATS, FLOAT_SPECS), (COMPLEX, COMPLEX_SPECS),
                        (STRINGS, STR_SPECS)):
        for expr, value in vals:
            for spec in specs:
                if spec == '' and isinstance(value, bool):
                    want = '|' + ('true' if value else 'false') + '|'   # tl's print form
                else:
                    want = run(value, spec)
                cases.append((expr, spec, want))
    for name, values in DTYPE_VALUES.items():
        kind = ('bool' if name == 'bool' else 'complex' if name[0] == 'c' else 'float' if name[0] in 'fb' else 'int')
        for v in values:
            if name == 'bf16':
                value, arg = bf16(v), tl_float(v)
            else:
                value = DTYPES[name](v)
                arg = tl_float(v) if kind == 'float' else f'({v.real!r} + {v.imag!r}j)' if kind == 'complex' else repr(v)
            for spec in DTYPE_SPECS[kind]:
                if spec == '':   # without a spec a value formats as its print form: numpy's scalar str()
                    if name == 'bf16':
                        continue   # numpy has no bf16 to print it; tests/golden/tensors covers bf16's print form
                    text = ('true' if value else 'false') if name == 'bool' else str(value)
                    cases.append((f'{name}({arg})', spec, '|' + text + '|'))
                else:   # numpy's scalar __format__: the value as a Python bool, int, float or complex
                    py = (bool(value) if kind == 'bool' else int(value) if kind == 'int' else
                          complex(value) if kind == 'complex' else float(value))
                    cases.append((f'{name}({arg})', spec, run(py, spec)))
    return cases


# f-strings: the same engine through the parser: (tl f-string body, Python f-string body)
def fstring_cases():
    rnd = random.Random(30)
    out = []
    for expr, value in INTS + FLOATS + STRINGS + BOOLS:
        specs = {'i': INT_SPECS, 'f': FLOAT_SPECS, 's': STR_SPECS}[
            's' if isinstance(value, str) else 'f' if isinstance(value, float) else 'i']
        ok = [s for s in specs if s and not set(s) & set('{}"\\!:\x05')]
        for spec in rnd.sample(ok, 6):
            out.append((expr, spec, value))
    return out


def write_table():
    tl = ['# Format specs against CPython 3.11: generated by tests/tools/gen_format_table.py, do not edit.',
          "# Each line formats a value with a spec; the .out line is what Python's format() gives.",
          'fn t(v, s) {',
          '    try { return "|" + format("{:{}}", v, s) + "|" } catch e { return e.kind + ": " + e.message }',
          '}']
    lines = []
    cases = table_cases()
    for expr, spec, want in cases:
        tl.append(f'print(t({expr}, {tl_str(spec)}))')
        lines.append(want)
    tl.append('# f-strings: the same engine, the spec written in the field (errors name no function)')
    fcases = fstring_cases()
    for expr, spec, value in fcases:
        tl.append(f'try {{ print(f"|{{{expr}:{spec}}}|") }} catch e {{ print(e.kind + ": " + e.message) }}')
        lines.append(run(value, spec).replace('format(): ', ''))
    with open(os.path.join(OUT, 'format_table.tl'), 'w') as f:
        f.write('\n'.join(tl) + '\n')
    with open(os.path.join(OUT, 'format_table.out'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return len(cases) + len(fcases)


# ---- tensors with axes ------------------------------------------------------------------------

def tensor_cases():
    """(tl expression, numpy array) pairs."""
    return [
        ('[1.5, -2.25, 1e-3]', np.array([1.5, -2.25, 1e-3])),
        ('arange(6).reshape(2, 3)', np.arange(6).reshape(2, 3)),
        ('f32([0.1, 0.2, 1e10])', np.array([0.1, 0.2, 1e10], np.float32)),
        ('[true, false, true]', np.array([True, False, True])),
        ('arange(24).reshape(2, 3, 4) * 1.5', np.arange(24).reshape(2, 3, 4) * 1.5),
        ('arange(2000) * 0.5', np.arange(2000) * 0.5),
        ('arange(1200).reshape(40, 30)', np.arange(1200).reshape(40, 30)),
        ('c64([1 + 2j, -0.5j])', np.array([1 + 2j, -0.5j], np.complex64)),
        ('u8([0, 7, 255])', np.array([0, 7, 255], np.uint8)),
        ('bf16([0.5, -3.0, 1e10])', np.array([bf16(0.5), bf16(-3.0), bf16(1e10)], np.float32)),
        ('zeros(0)', np.zeros(0)),
        ('arange(30) * 1000.25', np.arange(30) * 1000.25),
    ]


TENSOR_SPECS = {'float': ['.2f', '>9.3e', '+.1%', '*^12', 'g', '_'], 'int': ['#x', '>6', '+,', '.1f', '05'],
                'bool': ['d', '>4', 'f'], 'complex': ['.1f', '>16']}


def write_tensors():
    tl = ['# Tensors with axes through a format spec: generated by tests/tools/gen_format_table.py, do not edit.',
          "# Expected: numpy 1.24's array2string(a, formatter={'all': lambda v: format(v, spec)}).",
          'fn t(x, s) {',
          '    try { print(format("{:{}}", x, s)) } catch e { print(e.kind + ": " + e.message) }',
          '}']
    out = []
    n = 0
    for expr, arr in tensor_cases():
        kind = ('bool' if arr.dtype == np.bool_ else 'complex' if arr.dtype.kind == 'c' else
                'float' if arr.dtype.kind == 'f' else 'int')
        for spec in TENSOR_SPECS[kind]:
            tl.append(f'print("{expr} {spec}:")')
            out.append(f'{expr} {spec}:')
            tl.append(f't({expr}, {tl_str(spec)})')
            try:
                out.append(np.array2string(arr, formatter={'all': lambda v, s=spec: format(v, s)}))
            except ValueError as e:
                out.append('ValueError: format(): ' + str(e))
            n += 1
    tl.append('print(f"{arange(3) * 0.5:6.2f} and {[1, 2]:+}")')
    out.append(np.array2string(np.arange(3) * 0.5, formatter={'all': lambda v: format(v, '6.2f')}) + ' and ' +
               np.array2string(np.array([1, 2]), formatter={'all': lambda v: format(v, '+')}))
    with open(os.path.join(OUT, 'format_tensors.tl'), 'w') as f:
        f.write('\n'.join(tl) + '\n')
    with open(os.path.join(OUT, 'format_tensors.out'), 'w') as f:
        f.write('\n'.join(out) + '\n')
    return n + 2


def main():
    os.makedirs(OUT, exist_ok=True)
    pairs = write_table()
    tensors = write_tensors()
    print(f'{pairs} (value, spec) pairs in format_table, {tensors} in format_tensors -> {os.path.normpath(OUT)}')
    if not CHECK:
        return 0
    names = [n + ext for n in ('format_table', 'format_tensors') for ext in ('.tl', '.out')]
    stale = [n for n in names if not filecmp.cmp(os.path.join(OUT, n), os.path.join(GOLDEN, n), shallow=False)]
    if stale:
        print('the committed files differ from what Python gives now:', ', '.join(stale))
        return 1
    tests = [os.path.join(OUT, n) for n in names if n.endswith('.tl')]
    return subprocess.run([sys.argv[2], '--test'] + tests).returncode


sys.exit(main())

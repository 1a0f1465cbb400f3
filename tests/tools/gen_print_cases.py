#!/usr/bin/python3
"""gen_print_cases.py — expected tensor text from numpy 1.24's str(), for test_format.c.

Run with Debian's numpy:  /usr/bin/python3 tests/tools/gen_print_cases.py
Writes tests/unit/print_cases.inc (committed; regenerate after changing cases).

Every case stores the tensor's raw little-endian bytes (C order), dtype, shape,
print options and numpy's exact str() output, with True/False written as tl's
true/false. numpy has no bfloat16: bf16 cases are float32 arrays whose values
are exactly representable in bf16, printed by numpy's own arrayprint with its
Dragon4 calls replaced by dragon4_ref.py's model run at bf16 precision (the
model is first checked against numpy's Dragon4 on f16/f32/f64, and the patched
arrayprint is checked to reproduce numpy's f32 output exactly). The
positional/scientific choice for bf16 uses float32 arithmetic, as these f32
arrays do. 0-d bf16 cases follow numpy's float16 scalar str with the model.
"""
import os
import random
import struct
import sys
import warnings

import numpy as np
import numpy.core.arrayprint as ap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dragon4_ref as R  # noqa: E402

warnings.simplefilter('ignore')
assert np.__version__ == '1.24.2', 'expectations must come from numpy 1.24.2'

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'unit', 'print_cases.inc')

NP = {'bool': np.bool_, 'u8': np.uint8, 'u16': np.uint16, 'u32': np.uint32, 'u64': np.uint64,
      'i8': np.int8, 'i16': np.int16, 'i32': np.int32, 'i64': np.int64, 'f16': np.float16,
      'f32': np.float32, 'f64': np.float64, 'c64': np.complex64, 'c128': np.complex128,
      'bf16': np.float32}
DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=False)

# ---- bf16 through numpy's arrayprint -------------------------------------------------

_model_fmt = None          # 'bf16' (or 'f32' for the self-check) while patched
_orig_pos, _orig_sci = ap.dragon4_positional, ap.dragon4_scientific


def _n(v):
    return -1 if v is None else v


def _bits(x):
    return R.bits_of(float(x), _model_fmt)


def _model_positional(x, precision=None, min_digits=None, unique=True, fractional=True,
                      trim='k', sign=False, pad_left=None, pad_right=None):
    assert unique and fractional
    return R.positional(_bits(x), _model_fmt, _n(precision), _n(min_digits), trim, sign,
                        _n(pad_left), _n(pad_right))


def _model_scientific(x, precision=None, min_digits=None, unique=True, trim='k', sign=False,
                      pad_left=None, exp_digits=None):
    assert unique
    return R.scientific(_bits(x), _model_fmt, _n(precision), _n(min_digits), trim, sign,
                        _n(pad_left), _n(exp_digits))


def str_with_model(arr, fmt):
    """str(arr) of a float32 array with Dragon4 replaced by the model at fmt's precision."""
    global _model_fmt
    _model_fmt = fmt
    ap.dragon4_positional, ap.dragon4_scientific = _model_positional, _model_scientific
    try:
        return str(arr)
    finally:
        ap.dragon4_positional, ap.dragon4_scientific = _orig_pos, _orig_sci
        _model_fmt = None


def scalar_str_model(x, fmt):
    """numpy's float16 scalar str (scalartypes.c halftype_str) at fmt's precision."""
    b = R.bits_of(float(x), fmt)
    a = abs(float(x))
    if a == 0 or (1e-4 <= a < 1e16):
        return R.positional(b, fmt, trim=R.TRIM_ONE_ZERO)
    return R.scientific(b, fmt, trim=R.TRIM_DPT)


def to_bf16(values):
    """float32 array of the bf16 values nearest to values (round half to even)."""
    shape = np.shape(values)
    f = np.atleast_1d(np.asarray(values, dtype=np.float32)).copy()
    u = f.view(np.uint32).astype(np.uint64)
    nan = np.isnan(f)
    u = (u + np.uint64(0x7FFF) + ((u >> np.uint64(16)) & np.uint64(1))) & np.uint64(0xFFFF0000)
    out = u.astype(np.uint32).view(np.float32)
    out[nan] = np.nan
    return out.reshape(shape)


def self_check():
    """The model and the patched arrayprint must reproduce numpy exactly."""
    rnd = np.random.default_rng(5)
    samples = [np.array([0.1, 1e-5], np.float32), np.array([1.5, np.nan, -np.inf], np.float32),
               (rnd.standard_normal((4, 5)) * 10.0 ** rnd.integers(-6, 9, (4, 5))).astype(np.float32),
               rnd.standard_normal(2000).astype(np.float32),
               np.array([65504, 1e-7, 0, -0.0], np.float32)]
    for a in samples:
        for sup in (False, True):
            with np.printoptions(suppress=sup):
                assert str_with_model(a, 'f32') == str(a), (a, str(a))
    for v in [0.1, 65504, 1e-5, 1e16, 1e-4, 1.5e-7, 0.0, -0.0, np.inf, 123.456, 6e-8]:
        for t, fmt in ((np.float16, 'f16'), (np.float32, 'f32'), (np.float64, 'f64')):
            x = t(v)
            assert scalar_str_model(x, fmt) == str(x), (t, v, scalar_str_model(x, fmt), str(x))


# ---- cases ---------------------------------------------------------------------------

cases = []
names = set()


def add(name, dtype, data, shape=None, **opts):
    """One print case: data is converted to dtype (bf16: rounded to bf16)."""
    assert name not in names, name
    names.add(name)
    o = dict(DEFAULTS)
    o.update(opts)
    if dtype == 'bf16':
        arr = to_bf16(data)
    else:
        arr = np.array(data, dtype=NP[dtype])
    if shape is not None:
        arr = arr.reshape(shape)
    arr = arr.copy(order='C')
    with np.printoptions(precision=o['precision'], threshold=o['threshold'],
                         edgeitems=o['edgeitems'], linewidth=o['linewidth'],
                         suppress=o['suppress']):
        if dtype == 'bf16':
            text = scalar_str_model(arr[()], 'bf16') if arr.ndim == 0 else str_with_model(arr, 'bf16')
        else:
            text = str(arr)
    if dtype == 'bool':
        text = text.replace('True', 'true').replace('False', 'false')
    if dtype == 'bf16':
        raw = (arr.view(np.uint32) >> 16).astype('<u2').tobytes()
    else:
        raw = arr.astype(arr.dtype.newbyteorder('<')).tobytes()
    cases.append((name, dtype, arr.shape, o, raw.hex(), text))


FLOATS = ['f16', 'bf16', 'f32', 'f64']
INTS = ['u8', 'u16', 'u32', 'u64', 'i8', 'i16', 'i32', 'i64']
ALL = ['bool'] + INTS + FLOATS + ['c64', 'c128']


def build_cases():
    rng = np.random.default_rng(20240601)

    # 0-d: numpy's scalar str
    for v in [True, False]:
        add(f'scalar_bool_{v}', 'bool', v, ())
    for t in INTS:
        info = np.iinfo(NP[t])
        for k, v in enumerate([0, 3, info.max, info.min]):
            add(f'scalar_{t}_{k}', t, v, ())
    fvals = [1.0, 0.1, 1e-5, 1e-4, 1.5e-4, 1e16, 9999999999999998.0, 1e15, 123456.789, -2.5,
             -0.0, 0.0, np.nan, np.inf, -np.inf, 65504.0, 2049.0, 1 / 3, 3.4e38, 1e-40, 5e-324,
             6e-8, 1e300]
    for t in FLOATS:
        for k, v in enumerate(fvals):
            add(f'scalar_{t}_{k}', t, v, ())
    cvals = [1 + 2j, 2j, -2j, complex(-0.0, 2), complex(0, -0.0), complex(np.nan, 1),
             complex(1, np.nan), complex(0, np.nan), complex(np.inf, -np.inf), complex(0, np.inf),
             1e20 + 1e-20j, 0.1 + 0.2j, complex(-1.5, -0.0), 1e-5 + 1j]
    for t in ['c64', 'c128']:
        for k, v in enumerate(cvals):
            add(f'scalar_{t}_{k}', t, v, ())

    # every dtype: 1-d .. 4-d, empty shapes
    for t in ALL:
        if t == 'bool':
            base = rng.integers(0, 2, 120).astype(bool)
        elif t in INTS:
            info = np.iinfo(NP[t])
            base = rng.integers(max(info.min, -1000), min(info.max, 1000), 120, endpoint=True)
        elif t in ('c64', 'c128'):
            base = np.round(rng.standard_normal(120) * 10, 2) + 1j * np.round(rng.standard_normal(120), 3)
        else:
            base = np.round(rng.standard_normal(120) * 5, 3)
        add(f'{t}_1d', t, base[:7], (7,))
        add(f'{t}_2d', t, base[:12], (3, 4))
        add(f'{t}_3d', t, base[:24], (2, 3, 4))
        add(f'{t}_4d', t, base[:48], (2, 2, 3, 4))
        add(f'{t}_col', t, base[:4], (4, 1))
        add(f'{t}_long', t, base[:120], (120,))
        add(f'{t}_empty', t, [], (0,))
        add(f'{t}_empty_2x0', t, [], (2, 0))
        add(f'{t}_one', t, base[:1], (1,))
    add('empty_0x3x0', 'f64', [], (0, 3, 0))
    add('empty_3x0x2', 'i32', [], (3, 0, 2))
    add('bool_all_true', 'bool', [True, True, True], (3,))
    add('bool_all_false_2d', 'bool', [False] * 4, (2, 2))

    # integers at their limits
    add('u64_max', 'u64', [0, 2**64 - 1, 5], (3,))
    add('i64_min', 'i64', [-2**63, 2**63 - 1, 0], (3,))
    add('i64_min_2d', 'i64', [-2**63, 1, 2, 3], (2, 2))
    add('u8_all', 'u8', np.arange(256), (16, 16))
    add('i8_minmax', 'i8', [-128, 127, 0, -1], (4,))
    add('u32_max', 'u32', [4294967295, 1], (2,))

    # float layout: fixed / scientific switch, alignment, nan/inf, -0.
    fl = {
        'fixed_mixed': [1.5, 2.25, 3.0],
        'fixed_pad': [1.0, 2.5],
        'sci_small': [0.1, 1e-5],
        'sci_ratio': [1.0, 1000.5],
        'fixed_ratio': [1.0, 999.5],
        'sci_big': [123456789.0],
        'big_1e8': [1e8, 1.0],
        'just_below_1e8': [99999999.0, 1.0, 50000.0],
        'nan_inf': [np.nan, np.inf, -np.inf, 1.5],
        'nan_only': [np.nan],
        'inf_nan': [-np.inf, np.nan],
        'nan_sci': [np.nan, 1e-10],
        'neg_zero': [0.0, -0.0],
        'zeros': [0.0, 0.0, 0.0],
        'neg_mix': [-1.5, 2.0, -300.25],
        'tiny_ratio': [1e-4, 0.1],
        'min_1e4': [0.0001, 1.0],
        'third': [1 / 3, 2 / 3, 1.0],
        'sci_exp3': [1e-300, 1.0, 1e300],
        'sci_neg': [-1e-20, 5e10, 0.0, np.nan],
        'ints_as_float': [1.0, 10.0, 100.0, 1000.0],
        'round_half': [0.5, 1.5, 2.5, 0.125, 0.375],
        'prec_cut': [0.123456789123, 1.0],
        'prec_round_up': [0.999999999, 9.9999999999],
        'subnormal': [5e-324, 1e-310, 0.0],
        'max_f': [1.7976931348623157e308, -1.0],
        'inf_only': [np.inf, -np.inf],
        'sci_with_inf': [1e-9, np.inf, -np.inf, np.nan],
    }
    for t in FLOATS:
        for k, v in fl.items():
            add(f'{t}_{k}', t, v)
        for k in ('nan_inf', 'sci_small', 'neg_zero', 'fixed_mixed'):
            add(f'{t}_{k}_2d', t, np.tile(fl[k], 2), (2, len(fl[k])))
    add('f16_extremes', 'f16', [65504.0, -65504.0, 6.104e-5, 6e-8, 0.0])
    add('f16_max_fixed', 'f16', [65504.0, 1000.0, 300.5])
    add('f16_ratio_f16_arith', 'f16', [1001.0, 1.0009765625])
    add('f32_1e-4', 'f32', [1e-4])
    add('f32_1e-4_and_1', 'f32', [1e-4, 1.0])
    add('f32_subnormals', 'f32', [1e-45, 1e-40, 1.0])
    add('f32_max', 'f32', [3.4028235e38, 1.0])
    add('bf16_extremes', 'bf16', [3.3895314e38, -3.3895314e38, 1.1754944e-38, 9.2e-41, 0.0])
    add('bf16_near_1e6', 'bf16', [999424.0, 3.0], suppress=True)
    add('bf16_fixed_big', 'bf16', [65280.0, 1000.0, 300.5])
    add('bf16_thirds', 'bf16', [1 / 3, 2 / 3, 0.1, 0.2])

    # complex columns
    cx = {
        'basic': [1 + 2j, 3.5 - 1j],
        'nan': [1 + 2j, complex(np.nan, 1), complex(3, -np.inf)],
        'sci': [1e-5 + 1j, 1 + 1e10j],
        'neg_zero': [complex(-0.0, -0.0), complex(0.0, 0.0)],
        'imag_only': [1j, 2j, -3.25j],
        'nan_imag': [complex(1, np.nan), complex(2, 1)],
        'mixed_cols': [1e-8 + 1j, 100 + 2.5j],
    }
    for t in ['c64', 'c128']:
        for k, v in cx.items():
            add(f'{t}_{k}', t, v)
        add(f'{t}_2d_wrap', t, np.arange(30) * (1.5 - 0.25j), (3, 10))

    # wrapping at linewidth and hanging indents
    add('wrap_f64_30', 'f64', np.arange(30.0))
    add('wrap_i64_40', 'i64', np.arange(40) * 1234567)
    add('wrap_2d', 'f64', np.arange(60.0) * 1.25, (3, 20))
    add('wrap_3d', 'i32', np.arange(2 * 2 * 30), (2, 2, 30))
    add('wrap_4d', 'f32', np.arange(2 * 2 * 2 * 25) / 7, (2, 2, 2, 25))
    add('wrap_bool', 'bool', np.arange(40) % 3 == 0)
    add('wrap_i8', 'i8', np.arange(15))
    for lw in (1, 5, 10, 16, 20, 33, 40, 76, 100, 200):
        add(f'linewidth_{lw}', 'f64', np.arange(24.0) / 4, (2, 12), linewidth=lw)
        add(f'linewidth_{lw}_i', 'i16', np.arange(50) - 25, linewidth=lw)
    add('linewidth_summary', 'i16', np.arange(1200) * 7, linewidth=20)
    add('linewidth_nested_summary', 'f32', np.arange(1200.0) / 3, (4, 300), linewidth=30)

    # summarization
    add('sum_1d', 'i64', np.arange(1001))
    add('sum_2d', 'i16', np.arange(10000), (100, 100))
    add('sum_3d', 'f64', np.arange(1200.0), (12, 10, 10))
    add('sum_4d', 'i16', np.arange(1296) % 97, (6, 6, 6, 6))
    add('sum_widths_shown_only', 'i32', np.concatenate([[1], np.full(1000, 1000000), [2]]))
    add('sum_f_widths_shown_only', 'f64', np.concatenate([[1.5], np.full(1000, 1e-9), [2.25]]))
    add('sum_one_long_axis', 'f32', np.arange(3 * 500) / 8, (3, 500))
    add('sum_short_outer', 'u8', np.arange(2 * 3 * 200) % 256, (2, 3, 200))
    add('threshold_0', 'i64', np.arange(7), threshold=0)
    add('threshold_5', 'i64', np.arange(12), (3, 4), threshold=5)
    add('threshold_6_exact', 'i64', np.arange(6), threshold=6)
    add('threshold_big', 'i16', np.arange(1500), threshold=2000, linewidth=200)
    for e in (0, 1, 2, 5):
        add(f'edgeitems_{e}', 'i64', np.arange(40), threshold=10, edgeitems=e)
        add(f'edgeitems_{e}_2d', 'f64', np.arange(120.0) * 1.5, (10, 12), threshold=10, edgeitems=e)
        add(f'edgeitems_{e}_3d', 'i32', np.arange(5 * 6 * 7), (5, 6, 7), threshold=10, edgeitems=e)
    add('edgeitems_0_widths', 'i64', np.concatenate([[5], np.arange(100) * 1000, [7]]), threshold=10,
        edgeitems=0)
    add('sum_bool', 'bool', np.arange(2000) % 3 == 0)
    add('sum_c128', 'c128', np.arange(1500) * (0.5 + 1j))
    add('sum_bf16', 'bf16', np.arange(1500) / 16, (30, 50))
    add('sum_f16', 'f16', np.arange(1500) / 16, (30, 50))

    # precision and suppress
    for p in (0, 1, 3, 4, 12, 17, 20):
        add(f'precision_{p}', 'f64', [1 / 3, 2.5, 1e-3, 1234.5678], precision=p)
        add(f'precision_{p}_sci', 'f64', [1 / 3, 1e-7, 12345.6789], precision=p)
        add(f'precision_{p}_f32', 'f32', [np.pi, -np.e, 0.5], precision=p)
    add('precision_0_half', 'f64', [0.5, 1.5, 2.5, 3.5], precision=0)
    add('precision_2_ties', 'f64', [0.125, 0.375, 0.625, 1.005], precision=2)
    add('precision_3_bf16', 'bf16', [1 / 3, 2.5, 1e-3], precision=3)
    add('precision_2_c128', 'c128', [1 / 3 + 2j / 3, 1.0 - 0.5j], precision=2)
    for t in ('f64', 'f32', 'f16', 'bf16', 'c128'):
        add(f'suppress_{t}', t, [1e-10, 1.0, 1234.5], suppress=True)
        add(f'suppress_tiny_{t}', t, [1e-7, 2e-5], suppress=True)
    add('suppress_big_still_sci', 'f64', [1e8, 1.0], suppress=True)
    add('suppress_prec', 'f64', [1e-10, 1.0, 0.123456789], suppress=True, precision=4)

    # random breadth: shapes, dtypes, scales, options
    random_cases(80, 77)


def random_cases(count, seed, prefix='random'):
    """count random tensors: every dtype, 1-d..4-d, scales 1e-9..1e9, nan/inf, options."""
    r = random.Random(seed)
    rng = np.random.default_rng(seed)
    for k in range(count):
        t = r.choice(ALL)
        nd = r.randint(1, 4)
        shape = tuple(r.randint(1, 5) for _ in range(nd))
        if r.random() < 0.05:
            shape = (r.randint(1000, 1500),)
        n = int(np.prod(shape))
        if t == 'bool':
            data = rng.integers(0, 2, n).astype(bool)
        elif t in INTS:
            info = np.iinfo(NP[t])
            hi = min(info.max, 10 ** r.randint(1, 18))
            lo = max(info.min, -hi) if info.min < 0 else 0
            data = rng.integers(lo, hi, n, endpoint=True)
        else:
            scale = 10.0 ** r.randint(-9, 9)
            data = rng.standard_normal(n) * scale
            if r.random() < 0.3:
                data = np.round(data, r.randint(0, 4))
            if t in ('c64', 'c128'):
                data = data + 1j * rng.standard_normal(n) * 10.0 ** r.randint(-5, 5)
            if r.random() < 0.15:
                data[r.randrange(n)] = r.choice([np.nan, np.inf, -np.inf, 0.0])
        opts = {}
        if r.random() < 0.4:
            opts['precision'] = r.choice([0, 2, 3, 5, 10])
        if r.random() < 0.3:
            opts['linewidth'] = r.choice([20, 40, 60, 100])
        if r.random() < 0.3:
            opts['suppress'] = True
        if r.random() < 0.2:
            opts['threshold'] = r.choice([3, 10, 30])
            opts['edgeitems'] = r.choice([1, 2, 3])
        add(f'{prefix}_{k}_{t}', t, data, shape, **opts)


# ---- Dragon4 unit cases (each float type, random values and options) ------------------

def build_d4_cases(count=1500):
    rnd = random.Random(99)
    types = {'f16': (np.float16, np.uint16, 16), 'f32': (np.float32, np.uint32, 32),
             'f64': (np.float64, np.uint64, 64), 'bf16': (None, None, 16)}
    out = []
    for _ in range(count):
        fmt = rnd.choice(list(types))
        ft, ut, nb = types[fmt]
        if rnd.random() < 0.3 and ft is not None:
            v = ft(rnd.choice([1, -1]) * rnd.randint(0, 99999) / 10 ** rnd.randint(0, 9))
            b = int(np.array(v, dtype=ft).view(ut))
        else:
            b = rnd.getrandbits(nb)
        prec = rnd.choice([-1, 0, 1, 2, 3, 5, 8, 10, 17])
        mind = rnd.choice([-1, -1, 0, 1, 2, 4])
        if prec >= 0 and mind > prec:
            mind = -1
        trim = rnd.choice('k.0-')
        sign = rnd.random() < 0.3
        pl, pr = rnd.choice([-1, -1, 0, 2, 5, 12]), rnd.choice([-1, -1, 0, 2, 5, 12])
        ed = rnd.choice([-1, -1, 1, 3])
        sci = rnd.random() < 0.5
        if ft is not None:
            x = np.array(b, dtype=ut).view(ft)[()]
            kw = dict(precision=None if prec < 0 else prec, unique=True, trim=trim, sign=sign,
                      pad_left=None if pl < 0 else pl, min_digits=None if mind < 0 else mind)
            if sci:
                want = np.format_float_scientific(x, exp_digits=None if ed < 0 else ed, **kw)
            else:
                want = np.format_float_positional(x, fractional=True,
                                                  pad_right=None if pr < 0 else pr, **kw)
        elif sci:
            want = R.scientific(b, fmt, prec, mind, trim, sign, pl, ed)
        else:
            want = R.positional(b, fmt, prec, mind, trim, sign, pl, pr)
        out.append((fmt, b, sci, prec, mind, trim, sign, pl, pr, ed, want))
    return out


def c_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n') + '"'


def write_inc(d4):
    lines = ['/* print_cases.inc — generated by tests/tools/gen_print_cases.py from numpy '
             f'{np.__version__}; do not edit */', '',
             'static const print_case print_cases[] = {']
    for name, dtype, shape, o, hexdata, text in cases:
        shp = ', '.join(str(s) for s in shape) or '0'
        lines.append(f'    {{ {c_str(name)}, {c_str(dtype)}, {len(shape)}, {{ {shp} }}, '
                     f'{{ {o["precision"]}, {o["threshold"]}, {o["edgeitems"]}, {o["linewidth"]}, '
                     f'{"true" if o["suppress"] else "false"} }},')
        for i in range(0, len(hexdata), 96):
            lines.append('      ' + c_str(hexdata[i:i + 96]))
        if not hexdata:
            lines.append('      ""')
        lines[-1] += ','
        lines.append(f'      {c_str(text)} }},')
    lines += ['};', '', 'static const d4_case d4_cases[] = {']
    for fmt, b, sci, prec, mind, trim, sign, pl, pr, ed, want in d4:
        lines.append(f'    {{ "{fmt}", 0x{b:x}u, {int(sci)}, {prec}, {mind}, \'{trim}\', {int(sign)}, '
                     f'{pl}, {pr}, {ed}, {c_str(want)} }},')
    lines += ['};', '']
    with open(OUT, 'w') as f:
        f.write('\n'.join(lines))


def main():
    """No arguments: the committed cases. --random N SEED PATH: N random cases
    only, written to PATH (a stress run: compile test_format.c against it)."""
    global OUT
    if not R._selftest(20000):
        sys.exit('dragon4_ref.py disagrees with numpy')
    self_check()
    if len(sys.argv) == 5 and sys.argv[1] == '--random':
        random_cases(int(sys.argv[2]), int(sys.argv[3]))
        OUT = sys.argv[4]
        d4 = build_d4_cases(count=10)
    else:
        build_cases()
        d4 = build_d4_cases()
    write_inc(d4)
    print(f'{len(cases)} print cases, {len(d4)} Dragon4 cases -> {os.path.normpath(OUT)}')


if __name__ == '__main__':
    main()

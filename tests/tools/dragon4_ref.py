"""dragon4_ref.py — a plain-Python model of numpy 1.24's Dragon4 float printing.

numpy has no bfloat16, so bf16 expectations for tl's printer come from this
model, which works for any binary format (mantissa bits, exponent bits).
`python3 dragon4_ref.py` checks it against numpy's own format_float_positional /
format_float_scientific on f16, f32 and f64 values before it is trusted.

Exact integer arithmetic (Python ints): value = m * 2**e, margins are half the
distance to the neighbouring floats; digits are generated one by one until they
identify the value uniquely (Steele & White / Burger & Dybvig "free format"),
with numpy's cutoffs (precision) and its round-half-even on the final digit.
"""
import struct

# trim modes, named by numpy's trim= letters
TRIM_NONE, TRIM_ZEROS, TRIM_ONE_ZERO, TRIM_DPT = 'k', '.', '0', '-'

FORMATS = {  # name: (mantissa bits, exponent bits)
    'f16': (10, 5), 'bf16': (7, 8), 'f32': (23, 8), 'f64': (52, 11),
}


def decompose(bits, fmt):
    """(sign, kind, m, e, unequal_margins) where kind is 'num', 'inf' or 'nan'."""
    mbits, ebits = FORMATS[fmt]
    frac = bits & ((1 << mbits) - 1)
    bexp = (bits >> mbits) & ((1 << ebits) - 1)
    sign = (bits >> (mbits + ebits)) & 1
    bias = (1 << (ebits - 1)) - 1
    if bexp == (1 << ebits) - 1:
        return sign, ('inf' if frac == 0 else 'nan'), 0, 0, False
    if bexp == 0:
        return sign, 'num', frac, 1 - bias - mbits, False
    return sign, 'num', frac | (1 << mbits), bexp - bias - mbits, (bexp != 1 and frac == 0)


def digits(m, e, unequal, fractional, cutoff_max, cutoff_min):
    """Shortest-unique digits of m*2**e with numpy's cutoffs.

    Returns (digit string, exponent of the first digit)."""
    if m == 0:
        return '0', 0
    # value = r / s, margins ml / s and mh / s (all scaled by the same factor)
    if e >= 0:
        r, s, mh = m << (e + 2), 4, 1 << (e + 1)
    else:
        r, s, mh = m << 2, 1 << (2 - e), 2
    # below a power of two the lower neighbour is twice as close
    ml = mh // 2 if unequal else mh
    # k: smallest integer with value < 10**k
    k = len(str(r // s)) if r >= s else 0
    if r < s:
        # value < 1: find k <= 0 with 10**(k-1) <= value < 10**k
        k = 0
        while r * 10 ** (-k + 1) < s:
            k -= 1
    if cutoff_max >= 0 and fractional and k <= -cutoff_max:
        k = -cutoff_max + 1
    if k > 0:
        s *= 10 ** k
    elif k < 0:
        p = 10 ** (-k)
        r, ml, mh = r * p, ml * p, mh * p
    big = 1 << 30
    cut_max = k - big
    if cutoff_max >= 0:
        cut_max = max(cut_max, (k - cutoff_max) if not fractional else -cutoff_max)
    cut_min = k
    if cutoff_min >= 0:
        cut_min = min(cut_min, (k - cutoff_min) if not fractional else -cutoff_min)
    out_exp = k - 1
    even = (m % 2) == 0
    out = []
    dexp = k
    while True:
        r, ml, mh = r * 10, ml * 10, mh * 10
        dexp -= 1
        d, r = divmod(r, s)
        low = r <= ml if even else r < ml
        high = r + mh >= s if even else r + mh > s
        if ((low or high) and dexp <= cut_min) or dexp == cut_max:
            break
        out.append(d)
    round_down = low
    if low == high:
        c = 2 * r - s
        round_down = c < 0 or (c == 0 and d % 2 == 0)
    if round_down:
        out.append(d)
    elif d < 9:
        out.append(d + 1)
    else:
        while out and out[-1] == 9:
            out.pop()
        if out:
            out[-1] += 1
        else:
            out = [1]
            out_exp += 1
    return ''.join(map(str, out)), out_exp


def positional(bits, fmt, precision=-1, min_digits=-1, trim=TRIM_ZEROS, sign=False,
               pad_left=-1, pad_right=-1):
    """numpy's dragon4_positional(x, unique=True, fractional=True, ...)."""
    neg, kind, m, e, uneq = decompose(bits, fmt)
    sgn = '-' if neg else ('+' if sign else '')
    if kind != 'num':
        return infnan(kind, sgn)
    ds, pexp = digits(m, e, uneq, True, precision, min_digits)
    if pexp >= 0:
        whole = pexp + 1
        if len(ds) <= whole:
            txt = ds + '0' * (whole - len(ds))
            nfrac = 0
        else:
            txt = ds[:whole] + '.' + ds[whole:]
            nfrac = len(ds) - whole
    else:
        whole = 1
        txt = '0.' + '0' * (-(pexp + 1)) + ds
        nfrac = len(ds) + (-(pexp + 1))
    if trim != TRIM_DPT and nfrac == 0:
        txt += '.'
    want = max(min_digits, 0)
    if trim == TRIM_ONE_ZERO:
        if nfrac == 0:
            txt += '0'
            nfrac += 1
    elif trim == TRIM_NONE and want > nfrac:
        txt += '0' * (want - nfrac)
        nfrac = want
    if trim != TRIM_NONE and nfrac > 0:
        while txt[-1] == '0':
            txt = txt[:-1]
            nfrac -= 1
        if txt[-1] == '.':
            if trim == TRIM_ONE_ZERO:
                txt += '0'
                nfrac += 1
            elif trim == TRIM_DPT:
                txt = txt[:-1]
    if pad_right >= nfrac:
        if trim == TRIM_DPT and nfrac == 0:
            txt += ' '
        txt += ' ' * (pad_right - nfrac)
    txt = sgn + txt
    if pad_left > whole + len(sgn):
        txt = ' ' * (pad_left - whole - len(sgn)) + txt
    return txt


def scientific(bits, fmt, precision=-1, min_digits=-1, trim=TRIM_ZEROS, sign=False,
               pad_left=-1, exp_digits=-1):
    """numpy's dragon4_scientific(x, unique=True, ...)."""
    neg, kind, m, e, uneq = decompose(bits, fmt)
    sgn = '-' if neg else ('+' if sign else '')
    if kind != 'num':
        return infnan(kind, sgn)
    lead = ' ' * max(pad_left - 1 - len(sgn), 0)
    ds, pexp = digits(m, e, uneq, False, -1 if precision < 0 else precision + 1,
                      -1 if min_digits < 0 else min_digits + 1)
    txt = ds[0]
    nfrac = len(ds) - 1
    if nfrac > 0:
        txt += '.' + ds[1:]
    if trim != TRIM_DPT and nfrac == 0:
        txt += '.'
    want = max(min_digits, 0)
    if trim == TRIM_ONE_ZERO:
        if nfrac == 0:
            txt += '0'
            nfrac += 1
    elif trim == TRIM_NONE and want > nfrac:
        txt += '0' * (want - nfrac)
        nfrac = want
    if trim != TRIM_NONE and nfrac > 0:
        while txt[-1] == '0':
            txt = txt[:-1]
            nfrac -= 1
        if trim == TRIM_ONE_ZERO and txt[-1] == '.':
            txt += '0'
    if exp_digits < 0:
        exp_digits = 2
    exp_digits = min(exp_digits, 5)
    es = str(abs(pexp)).rjust(exp_digits, '0')
    return lead + sgn + txt + 'e' + ('+' if pexp >= 0 else '-') + es


def infnan(kind, sgn):
    if kind == 'nan':
        return 'nan'
    return (sgn if sgn else '') + 'inf'


def bits_of(x, fmt):
    """Raw bits of a Python/numpy float in the given format (must be exact for bf16)."""
    if fmt == 'f64':
        return struct.unpack('<Q', struct.pack('<d', float(x)))[0]
    if fmt == 'f32':
        return struct.unpack('<I', struct.pack('<f', float(x)))[0]
    if fmt == 'f16':
        return struct.unpack('<H', struct.pack('<e', float(x)))[0]
    if fmt == 'bf16':
        b = struct.unpack('<I', struct.pack('<f', float(x)))[0]
        assert b & 0xFFFF == 0, 'not exactly a bf16 value'
        return b >> 16
    raise ValueError(fmt)


def _selftest(n=20000, seed=1):
    """Compares this model with numpy's Dragon4 over random bit patterns and options."""
    import random
    import numpy as np
    rnd = random.Random(seed)
    types = {'f16': (np.float16, np.uint16, 16), 'f32': (np.float32, np.uint32, 32),
             'f64': (np.float64, np.uint64, 64)}
    bad = 0
    for i in range(n):
        fmt = rnd.choice(list(types))
        ft, ut, nb = types[fmt]
        if rnd.random() < 0.3:  # "nice" decimal values, where ties and trims happen
            v = ft(rnd.choice([1, -1]) * rnd.randint(0, 99999) / 10 ** rnd.randint(0, 9))
            b = int(np.array(v, dtype=ft).view(ut))
        else:
            b = rnd.getrandbits(nb)
        x = np.array(b, dtype=ut).view(ft)[()]
        prec = rnd.choice([-1, 0, 1, 2, 3, 5, 8, 10, 17])
        mind = rnd.choice([-1, -1, 0, 1, 2, 4])
        if prec >= 0 and mind > prec:
            mind = -1
        trim = rnd.choice([TRIM_NONE, TRIM_ZEROS, TRIM_ONE_ZERO, TRIM_DPT])
        sign = rnd.random() < 0.3
        pl = rnd.choice([-1, -1, 0, 2, 5, 12])
        pr = rnd.choice([-1, -1, 0, 2, 5, 12])
        ed = rnd.choice([-1, -1, 1, 3])
        kw = dict(precision=None if prec < 0 else prec, unique=True, trim=trim, sign=sign,
                  pad_left=None if pl < 0 else pl, min_digits=None if mind < 0 else mind)
        if rnd.random() < 0.5:
            want = np.format_float_positional(x, fractional=True,
                                              pad_right=None if pr < 0 else pr, **kw)
            got = positional(b, fmt, prec, mind, trim, sign, pl, pr)
        else:
            want = np.format_float_scientific(x, exp_digits=None if ed < 0 else ed, **kw)
            got = scientific(b, fmt, prec, mind, trim, sign, pl, ed)
        if want != got:
            bad += 1
            if bad < 20:
                print('MISMATCH', fmt, hex(b), repr(x), kw, pr, ed, repr(want), repr(got))
    print(f'{n} checked, {bad} mismatches')
    return bad == 0


if __name__ == '__main__':
    import sys
    sys.exit(0 if _selftest() else 1)

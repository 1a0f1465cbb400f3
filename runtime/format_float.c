/* format_float.c — Dragon4 shortest round-trip digits and numpy's positional/scientific layout */
#include <math.h>
#include <string.h>

#include "format_float.h"

/* ---- small fixed-size naturals ------------------------------------------
   Little-endian 32-bit blocks without leading zero blocks. The largest number
   Dragon4 builds for an f64 is about 2^1100 (4 * 10^324 for the smallest
   subnormal, plus the normalizing shift and one *10), i.e. 35 blocks. */
enum { BIG_BLOCKS = 40 };

typedef struct big {
    int n;
    uint32_t d[BIG_BLOCKS];
} big;

static void big_set(big *a, uint64_t v)
{
    a->n = 0;
    while (v) {
        a->d[a->n++] = (uint32_t)v;
        v >>= 32;
    }
}

static int big_cmp(const big *a, const big *b)
{
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

static void big_mul_small(big *a, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t p = (uint64_t)a->d[i] * m + carry;
        a->d[i] = (uint32_t)p;
        carry = p >> 32;
    }
    if (carry && a->n < BIG_BLOCKS) a->d[a->n++] = (uint32_t)carry;
}

static void big_mul_pow10(big *a, int k)
{
    static const uint32_t p10[10] = { 1, 10, 100, 1000, 10000, 100000, 1000000,
                                      10000000, 100000000, 1000000000 };
    for (; k >= 9; k -= 9) big_mul_small(a, p10[9]);
    if (k > 0) big_mul_small(a, p10[k]);
}

/* a <<= bits, in place */
static void big_shl(big *a, unsigned bits)
{
    if (a->n == 0 || bits == 0) return;
    int blocks = (int)(bits / 32), sh = (int)(bits % 32);
    int n = a->n + blocks + 1;
    if (n > BIG_BLOCKS) n = BIG_BLOCKS;
    for (int i = n - 1; i >= 0; i--) {
        int src = i - blocks;
        uint32_t hi = (src >= 0 && src < a->n) ? a->d[src] : 0;
        uint32_t lo = (src - 1 >= 0 && src - 1 < a->n) ? a->d[src - 1] : 0;
        a->d[i] = sh ? (hi << sh) | (lo >> (32 - sh)) : hi;
    }
    a->n = n;
    while (a->n > 0 && a->d[a->n - 1] == 0) a->n--;
}

/* out = a + b (out may alias neither) */
static void big_add(big *out, const big *a, const big *b)
{
    if (a->n < b->n) { const big *t = a; a = b; b = t; }
    uint64_t carry = 0;
    int i = 0;
    for (; i < b->n; i++) {
        uint64_t s = (uint64_t)a->d[i] + b->d[i] + carry;
        out->d[i] = (uint32_t)s;
        carry = s >> 32;
    }
    for (; i < a->n; i++) {
        uint64_t s = (uint64_t)a->d[i] + carry;
        out->d[i] = (uint32_t)s;
        carry = s >> 32;
    }
    out->n = a->n;
    if (carry && out->n < BIG_BLOCKS) out->d[out->n++] = (uint32_t)carry;
}

/* r -= q * s (the result is known to be >= 0) */
static void big_sub_mul(big *r, const big *s, uint32_t q)
{
    uint64_t carry = 0, borrow = 0;
    for (int i = 0; i < r->n; i++) {
        uint64_t p = (i < s->n ? (uint64_t)s->d[i] * q : 0) + carry;
        carry = p >> 32;
        uint64_t diff = (uint64_t)r->d[i] - (uint32_t)p - borrow;
        r->d[i] = (uint32_t)diff;
        borrow = (diff >> 32) & 1;
    }
    while (r->n > 0 && r->d[r->n - 1] == 0) r->n--;
}

/* One decimal digit: q = r / s, r = r % s, for r < 10*s and s normalized so
   its top block lies in [2^27, 2^28) (then r has no more blocks than s and
   the estimate from the top blocks is at most one too small). */
static unsigned big_div_digit(big *r, const big *s)
{
    if (r->n < s->n) return 0;
    uint32_t q = r->d[s->n - 1] / (s->d[s->n - 1] + 1);
    if (q) big_sub_mul(r, s, q);
    while (big_cmp(r, s) >= 0) {
        big_sub_mul(r, s, 1);
        q++;
    }
    return q;
}

/* ---- Dragon4 -------------------------------------------------------------- */

enum { D4_MAX_DIGITS = 800 };   /* enough for every integer digit of an f64 */

/* A finite value m * 2^e split out of its bits. */
typedef struct d4_value {
    bool neg, is_nan, is_inf;
    uint64_t m;
    int e;
    int mbit;        /* index of m's highest set bit */
    bool unequal;    /* the lower neighbour is twice as close (m a power of two above the minimum exponent) */
} d4_value;

static d4_value d4_decompose(uint64_t bits, tl_dtype d)
{
    int mbits = tl_dtypes[d].mbits, ebits = tl_dtypes[d].ebits;
    uint64_t frac = bits & ((UINT64_C(1) << mbits) - 1);
    int bexp = (int)((bits >> mbits) & ((1u << ebits) - 1));
    int bias = (1 << (ebits - 1)) - 1;
    d4_value v = { 0 };
    v.neg = (bits >> (mbits + ebits)) & 1;
    if (bexp == (1 << ebits) - 1) {
        v.is_nan = frac != 0;
        v.is_inf = frac == 0;
        return v;
    }
    if (bexp == 0) {
        v.m = frac;
        v.e = 1 - bias - mbits;
        v.mbit = frac ? 63 - __builtin_clzll(frac) : 0;
    } else {
        v.m = frac | (UINT64_C(1) << mbits);
        v.e = bexp - bias - mbits;
        v.mbit = mbits;
        v.unequal = bexp != 1 && frac == 0;
    }
    return v;
}

/* Digits of a value: digit characters, their count, the power of ten of the first. */
typedef struct d4_digits {
    char d[D4_MAX_DIGITS];
    int n;
    int exp;
} d4_digits;

/* Rounds the last digit and stores it (numpy's Dragon4 ending): nearest,
   ties to even, when both or neither neighbour is within the margins. */
static void d4_last_digit(d4_digits *out, int n, unsigned digit, bool round_down)
{
    if (round_down) {
        out->d[n++] = (char)('0' + digit);
    } else if (digit < 9) {
        out->d[n++] = (char)('0' + digit + 1);
    } else {
        while (n > 0 && out->d[n - 1] == '9') n--;
        if (n > 0) {
            out->d[n - 1]++;
        } else {
            out->d[n++] = '1';
            out->exp++;
        }
    }
    out->n = n;
}

/* Burger & Dybvig's estimate of floor(log10 v) + 1 (exact or one less),
   raised for a fraction-digit cutoff so at least one digit is produced there. */
static int d4_estimate_k(const d4_value *v, bool fractional, int cutoff_max)
{
    int k = (int)ceil((double)(v->mbit + v->e) * 0.30102999566398119521 - 0.69);
    if (cutoff_max >= 0 && fractional && k <= -cutoff_max) k = -cutoff_max + 1;
    return k;
}

/* The last digit's exponent allowed by cutoff_max, and the one cutoff_min insists on reaching. */
static void d4_cutoffs(int k, bool fractional, int cutoff_max, int cutoff_min, int *cut_max, int *cut_min)
{
    *cut_max = k - D4_MAX_DIGITS;
    if (cutoff_max >= 0) {
        int want = fractional ? -cutoff_max : k - cutoff_max;
        if (want > *cut_max) *cut_max = want;
    }
    *cut_min = k;
    if (cutoff_min >= 0) {
        int want = fractional ? -cutoff_min : k - cutoff_min;
        if (want < *cut_min) *cut_min = want;
    }
}

typedef unsigned __int128 u128;

/* d4_generate in 128-bit integers, for the common values whose scaled
   numbers stay below 2^123; returns false (nothing written) otherwise. */
static bool d4_generate_u128(const d4_value *v, bool fractional, int cutoff_max, int cutoff_min,
                             d4_digits *out)
{
    const u128 lim = (u128)1 << 123;
    u128 r, s, ml, mh;
    if (v->e >= 0) {
        if (v->e > 60) return false;
        r = (u128)v->m << (v->e + 2);
        s = 4;
        mh = (u128)1 << (v->e + 1);
    } else {
        if (v->e < -118) return false;
        r = (u128)v->m << 2;
        s = (u128)1 << (2 - v->e);
        mh = 2;
    }
    ml = v->unequal ? mh / 2 : mh;

    int k = d4_estimate_k(v, fractional, cutoff_max);
    for (int i = 0; i < k; i++) {
        if (s >= lim / 10) return false;
        s *= 10;
    }
    for (int i = 0; i < -k; i++) {
        if (r >= lim || mh >= lim) return false;
        r *= 10, ml *= 10, mh *= 10;
    }
    if (r >= s) {
        k++;
    } else {
        if (r >= lim || mh >= lim) return false;
        r *= 10, ml *= 10, mh *= 10;
    }
    int cut_max, cut_min;
    d4_cutoffs(k, fractional, cutoff_max, cutoff_min, &cut_max, &cut_min);
    out->exp = k - 1;

    /* digits are estimated from s's top 60 bits (one short at most), then fixed */
    uint64_t s_hi = (uint64_t)(s >> 64);
    int s_bits = s_hi ? 128 - __builtin_clzll(s_hi) : 64 - __builtin_clzll((uint64_t)s);
    int sh = s_bits > 60 ? s_bits - 60 : 0;
    uint64_t s_top = (uint64_t)(s >> sh) + 1;

    bool even = (v->m & 1) == 0, low, high;
    unsigned digit;
    int n = 0, dexp = k;
    for (;;) {
        dexp--;
        digit = (unsigned)((uint64_t)(r >> sh) / s_top);
        r -= (u128)digit * s;
        while (r >= s) {
            r -= s;
            digit++;
        }
        low = even ? r <= ml : r < ml;
        high = even ? r + mh >= s : r + mh > s;
        if (((low || high) && dexp <= cut_min) || dexp == cut_max) break;
        out->d[n++] = (char)('0' + digit);
        if (r >= lim || mh >= lim) return false;
        r *= 10, ml *= 10, mh *= 10;
    }
    bool round_down = low;
    if (low == high) round_down = 2 * r < s || (2 * r == s && (digit & 1) == 0);
    d4_last_digit(out, n, digit, round_down);
    return true;
}

/* Generates the shortest digits that identify v among its neighbours, but
   stops at cutoff_max digits (fraction digits when fractional, else total) and
   does not stop before cutoff_min; the last digit is rounded from the exact
   value (half to even) when both directions stay within the margins. This is
   numpy's Dragon4 in unique mode (Steele & White, Burger & Dybvig). */
static void d4_generate(const d4_value *v, bool fractional, int cutoff_max, int cutoff_min,
                        d4_digits *out)
{
    if (v->m == 0) {
        out->d[0] = '0';
        out->n = 1;
        out->exp = 0;
        return;
    }
    if (d4_generate_u128(v, fractional, cutoff_max, cutoff_min, out)) return;
    /* value = r/s, low margin = ml/s, high margin = mh/s (all scaled by 4) */
    big r, s, ml, mhs, tmp;
    big *mh = v->unequal ? &mhs : &ml;
    if (v->e >= 0) {
        big_set(&r, v->m);
        big_shl(&r, (unsigned)v->e + 2);
        big_set(&s, 4);
        big_set(&ml, 1);
        big_shl(&ml, (unsigned)v->e + (v->unequal ? 0 : 1));
    } else {
        big_set(&r, v->m << 2);
        big_set(&s, 1);
        big_shl(&s, (unsigned)(2 - v->e));
        big_set(&ml, v->unequal ? 1 : 2);
    }
    if (v->unequal) {
        mhs = ml;
        big_shl(&mhs, 1);
    }

    int k = d4_estimate_k(v, fractional, cutoff_max);
    if (k > 0) {
        big_mul_pow10(&s, k);
    } else if (k < 0) {
        big_mul_pow10(&r, -k);
        big_mul_pow10(&ml, -k);
        if (v->unequal) big_mul_pow10(&mhs, -k);
    }
    if (big_cmp(&r, &s) >= 0) {
        k++;
    } else {
        big_mul_small(&r, 10);
        big_mul_small(&ml, 10);
        if (v->unequal) big_mul_small(&mhs, 10);
    }

    int cut_max, cut_min;
    d4_cutoffs(k, fractional, cutoff_max, cutoff_min, &cut_max, &cut_min);
    out->exp = k - 1;

    /* normalize s's top block into [2^27, 2^28) for big_div_digit */
    int hb = 31 - __builtin_clz(s.d[s.n - 1]);
    unsigned shift = (unsigned)((32 + 27 - hb) % 32);
    if (shift) {
        big_shl(&s, shift);
        big_shl(&r, shift);
        big_shl(&ml, shift);
        if (v->unequal) big_shl(&mhs, shift);
    }

    bool even = (v->m & 1) == 0, low, high;
    unsigned digit;
    int n = 0, dexp = k;
    for (;;) {
        dexp--;
        digit = big_div_digit(&r, &s);
        big_add(&tmp, &r, mh);
        int cl = big_cmp(&r, &ml), ch = big_cmp(&tmp, &s);
        low = even ? cl <= 0 : cl < 0;
        high = even ? ch >= 0 : ch > 0;
        if (((low || high) && dexp <= cut_min) || dexp == cut_max) break;
        out->d[n++] = (char)('0' + digit);
        big_mul_small(&r, 10);
        big_mul_small(&ml, 10);
        if (v->unequal) big_mul_small(&mhs, 10);
    }

    bool round_down = low;
    if (low == high) {
        big_shl(&r, 1);
        int c = big_cmp(&r, &s);
        round_down = c < 0 || (c == 0 && (digit & 1) == 0);
    }
    d4_last_digit(out, n, digit, round_down);
}

size_t tl_d4_shortest(char *buf, size_t cap, uint64_t bits, tl_dtype d, int *exp10)
{
    d4_value v = d4_decompose(bits, d);
    static _Thread_local d4_digits dg;
    d4_generate(&v, false, -1, -1, &dg);
    size_t n = (size_t)dg.n < cap ? (size_t)dg.n : cap;
    memcpy(buf, dg.d, n);
    *exp10 = dg.exp;
    return n;
}

/* ---- text layout ---------------------------------------------------------- */

/* A bounded string builder: writes past cap-1 are dropped. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_putc(sbuf *b, char c)
{
    if (b->n + 1 < b->cap) b->p[b->n] = c;
    b->n++;
}

static void sb_repeat(sbuf *b, char c, int count)
{
    for (int i = 0; i < count; i++) sb_putc(b, c);
}

static void sb_puts(sbuf *b, const char *s, int len)
{
    for (int i = 0; i < len; i++) sb_putc(b, s[i]);
}

static char sb_last(const sbuf *b)
{
    return (b->n > 0 && b->n - 1 < b->cap - 1) ? b->p[b->n - 1] : '\0';
}

static size_t sb_finish(sbuf *b)
{
    size_t len = b->n < b->cap ? b->n : b->cap - 1;
    b->p[len] = '\0';
    return len;
}

/* nan, inf, -inf, +inf: numpy prints no sign on nan */
static size_t d4_special(sbuf *b, const d4_value *v, bool sign)
{
    if (v->is_nan) {
        sb_puts(b, "nan", 3);
    } else {
        if (v->neg) sb_putc(b, '-');
        else if (sign) sb_putc(b, '+');
        sb_puts(b, "inf", 3);
    }
    return sb_finish(b);
}

/* Removes trailing zeros after the point; returns the fraction digits left. */
static int d4_trim_zeros(sbuf *b, int nfrac)
{
    while (nfrac > 0 && sb_last(b) == '0') {
        b->n--;
        nfrac--;
    }
    return nfrac;
}

/* Finishes the fraction after its digits: the point, min_digits padding and
   the trim mode; returns the fraction digits left. numpy drops a bare trailing
   point under trim '-' in positional form only ("1." stays in "1.e+00"). */
static int d4_fraction_tail(sbuf *b, const tl_d4_opts *o, int nfrac, bool positional)
{
    if (o->trim != TL_TRIM_DPT_ZEROS && nfrac == 0) sb_putc(b, '.');
    int want = o->min_digits > 0 ? o->min_digits : 0;
    if (o->trim == TL_TRIM_ONE_ZERO) {
        if (nfrac == 0) { sb_putc(b, '0'); nfrac = 1; }
    } else if (o->trim == TL_TRIM_KEEP && want > nfrac) {
        sb_repeat(b, '0', want - nfrac);
        nfrac = want;
    }
    if (o->trim != TL_TRIM_KEEP && nfrac > 0) {
        nfrac = d4_trim_zeros(b, nfrac);
        if (nfrac == 0) {   /* only the point is left */
            if (o->trim == TL_TRIM_ONE_ZERO) { sb_putc(b, '0'); nfrac = 1; }
            else if (positional && o->trim == TL_TRIM_DPT_ZEROS) b->n--;
        }
    }
    return nfrac;
}

size_t tl_d4_positional(char *buf, size_t cap, uint64_t bits, tl_dtype d, const tl_d4_opts *o)
{
    sbuf b = { buf, 0, cap };
    if (cap == 0) return 0;
    d4_value v = d4_decompose(bits, d);
    if (v.is_nan || v.is_inf) return d4_special(&b, &v, o->sign);

    static _Thread_local d4_digits dg;
    d4_generate(&v, true, o->precision, o->min_digits, &dg);
    char sign = v.neg ? '-' : (o->sign ? '+' : 0);
    int whole = dg.exp >= 0 ? dg.exp + 1 : 1;
    int left = o->pad_left - (whole + (sign != 0));
    sb_repeat(&b, ' ', left);
    if (sign) sb_putc(&b, sign);

    int nfrac;
    if (dg.exp >= 0) {
        if (dg.n <= whole) {
            sb_puts(&b, dg.d, dg.n);
            sb_repeat(&b, '0', whole - dg.n);
            nfrac = 0;
        } else {
            sb_puts(&b, dg.d, whole);
            sb_putc(&b, '.');
            sb_puts(&b, dg.d + whole, dg.n - whole);
            nfrac = dg.n - whole;
        }
    } else {
        int zeros = -(dg.exp + 1);
        sb_puts(&b, "0.", 2);
        sb_repeat(&b, '0', zeros);
        sb_puts(&b, dg.d, dg.n);
        nfrac = zeros + dg.n;
    }
    nfrac = d4_fraction_tail(&b, o, nfrac, true);
    if (o->pad_right >= nfrac) {
        if (o->trim == TL_TRIM_DPT_ZEROS && nfrac == 0) sb_putc(&b, ' ');
        sb_repeat(&b, ' ', o->pad_right - nfrac);
    }
    return sb_finish(&b);
}

size_t tl_d4_scientific(char *buf, size_t cap, uint64_t bits, tl_dtype d, const tl_d4_opts *o)
{
    sbuf b = { buf, 0, cap };
    if (cap == 0) return 0;
    d4_value v = d4_decompose(bits, d);
    if (v.is_nan || v.is_inf) return d4_special(&b, &v, o->sign);

    static _Thread_local d4_digits dg;
    d4_generate(&v, false, o->precision < 0 ? -1 : o->precision + 1,
                o->min_digits < 0 ? -1 : o->min_digits + 1, &dg);
    char sign = v.neg ? '-' : (o->sign ? '+' : 0);
    sb_repeat(&b, ' ', o->pad_left - (1 + (sign != 0)));
    if (sign) sb_putc(&b, sign);

    sb_putc(&b, dg.d[0]);
    int nfrac = dg.n - 1;
    if (nfrac > 0) {
        sb_putc(&b, '.');
        sb_puts(&b, dg.d + 1, nfrac);
    }
    d4_fraction_tail(&b, o, nfrac, false);

    int exp = dg.exp, ndig = o->exp_digits < 0 ? 2 : (o->exp_digits > 5 ? 5 : o->exp_digits);
    char ebuf[8];
    int elen = 0;
    unsigned ue = (unsigned)(exp < 0 ? -exp : exp);
    do {
        ebuf[elen++] = (char)('0' + ue % 10);
        ue /= 10;
    } while (ue && elen < 8);
    sb_putc(&b, 'e');
    sb_putc(&b, exp < 0 ? '-' : '+');
    sb_repeat(&b, '0', ndig - elen);
    while (elen > 0) sb_putc(&b, ebuf[--elen]);
    return sb_finish(&b);
}

/* test_format.c — the printer against numpy 1.24.2's str(), byte for byte */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "format_float.h"
#include "leak_check.h"

typedef struct print_case {
    const char *name;
    const char *dtype;
    int ndim;
    int64_t shape[4];
    tl_printopts opts;
    const char *hex;        /* raw little-endian element bytes, C order */
    const char *expected;   /* numpy's str(), True/False written true/false */
} print_case;

typedef struct d4_case {
    const char *fmt;
    uint64_t bits;
    int sci, precision, min_digits;
    char trim;
    int sign, pad_left, pad_right, exp_digits;
    const char *expected;   /* np.format_float_* (bf16: dragon4_ref.py) */
} d4_case;

#include "print_cases.inc"

LEAK_CHECKED_SUITE(format);

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int hexval(char c)
{
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* A contiguous tensor holding the case's bytes. */
static tl_tensor *case_tensor(const print_case *c)
{
    tl_dtype d;
    cr_assert(tl_dtype_from_name(c->dtype, &d), "unknown dtype %s", c->dtype);
    tl_tensor *t = tl_tensor_empty(d, c->ndim, c->shape);
    cr_assert_not_null(t, "%s: %s", c->name, tl_errmsg());
    size_t n = strlen(c->hex) / 2;
    cr_assert_eq(n, (size_t)tl_tensor_size(t) * tl_dtype_size(d), "%s: data size", c->name);
    unsigned char *p = tl_tensor_data(t);
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(hexval(c->hex[2 * i]) << 4 | hexval(c->hex[2 * i + 1]));
    return t;
}

/* One test over all cases (a process per case would take seconds); each
   mismatch is reported with the case name and both texts. */
Test(format, numpy_str)
{
    int bad = 0;
    for (size_t i = 0; i < COUNT(print_cases); i++) {
        const print_case *c = &print_cases[i];
        tl_tensor *t = case_tensor(c);
        char *s = tl_fmt_tensor_string(t, &c->opts);
        cr_assert_not_null(s, "%s: %s", c->name, tl_errmsg());
        if (strcmp(s, c->expected) != 0) {
            bad++;
            cr_expect_str_eq(s, c->expected, "case %s:\n--- got ---\n%s\n--- numpy ---\n%s",
                             c->name, s, c->expected);
        }
        free(s);
        tl_tensor_release(t);
    }
    cr_expect_eq(bad, 0, "%d of %zu print cases differ", bad, COUNT(print_cases));
    cr_log_info("%zu print cases checked", COUNT(print_cases));
}

Test(format, dragon4_cases)
{
    char buf[TL_D4_MAX];
    int bad = 0;
    for (size_t i = 0; i < COUNT(d4_cases); i++) {
        const d4_case *c = &d4_cases[i];
        tl_dtype d = !strcmp(c->fmt, "f16") ? TL_F16 : !strcmp(c->fmt, "bf16") ? TL_BF16
                   : !strcmp(c->fmt, "f32") ? TL_F32 : TL_F64;
        tl_d4_opts o = { c->precision, c->min_digits,
                         c->trim == 'k' ? TL_TRIM_KEEP : c->trim == '.' ? TL_TRIM_ZEROS
                         : c->trim == '0' ? TL_TRIM_ONE_ZERO : TL_TRIM_DPT_ZEROS,
                         c->sign, c->pad_left, c->pad_right, c->exp_digits };
        if (c->sci) tl_d4_scientific(buf, sizeof buf, c->bits, d, &o);
        else tl_d4_positional(buf, sizeof buf, c->bits, d, &o);
        if (strcmp(buf, c->expected) != 0 && bad++ < 20)
            cr_log_error("%s 0x%llx sci=%d prec=%d min=%d trim=%c: got '%s' want '%s'", c->fmt,
                         (unsigned long long)c->bits, c->sci, c->precision, c->min_digits, c->trim,
                         buf, c->expected);
    }
    cr_expect_eq(bad, 0, "%d of %zu Dragon4 cases differ", bad, COUNT(d4_cases));
}

Test(format, dragon4_never_overflows)
{
    /* f64 max in positional with wide pads still fits the advertised maximum */
    char small[8], big[TL_D4_MAX];
    tl_d4_opts o = tl_d4_defaults();
    o.pad_left = 400;
    o.pad_right = 400;
    size_t n = tl_d4_positional(big, sizeof big, UINT64_C(0x7fefffffffffffff), TL_F64, &o);
    cr_expect_eq(n, 801);
    cr_expect(strncmp(big + 91, "179769313486231570", 18) == 0, "%.40s", big + 80);
    n = tl_d4_positional(small, sizeof small, UINT64_C(0x7fefffffffffffff), TL_F64, &o);
    cr_expect_eq(n, 7);
    cr_expect_eq(small[7], '\0');
}

/* ---- views: elements are read through strides ----------------------------- */

static tl_tensor *arange_f64(int64_t n, double scale, int ndim, const int64_t *shape)
{
    tl_tensor *t = tl_tensor_empty(TL_F64, ndim, shape);
    cr_assert_not_null(t);
    double *p = tl_tensor_data(t);
    for (int64_t i = 0; i < n; i++) p[i] = (double)i * scale;
    return t;
}

static void expect_str(const tl_tensor *t, const char *want)
{
    char *s = tl_fmt_tensor_string(t, NULL);
    cr_assert_not_null(s, "%s", tl_errmsg());
    cr_expect_str_eq(s, want, "\n--- got ---\n%s\n--- numpy ---\n%s", s, want);
    free(s);
}

Test(format, views)
{
    tl_printopts_default(&tl_print_options);
    int64_t shape[2] = { 3, 4 };
    tl_tensor *a = arange_f64(12, 0.25, 2, shape);   /* np.arange(12.).reshape(3,4)/4 */

    tl_tensor *v = tl_view_transpose(a);              /* a.T */
    expect_str(v, "[[0.   1.   2.  ]\n [0.25 1.25 2.25]\n [0.5  1.5  2.5 ]\n [0.75 1.75 2.75]]");
    tl_tensor_release(v);

    v = tl_view_flip(a, 1);                           /* a[:, ::-1] */
    expect_str(v, "[[0.75 0.5  0.25 0.  ]\n [1.75 1.5  1.25 1.  ]\n [2.75 2.5  2.25 2.  ]]");
    tl_tensor_release(v);

    tl_tensor *w = tl_view_slice(a, 0, 0, 0, -1, false, false);   /* a[::-1, ::-2] */
    v = tl_view_slice(w, 1, 0, 0, -2, false, false);
    expect_str(v, "[[2.75 2.25]\n [1.75 1.25]\n [0.75 0.25]]");
    tl_tensor_release(v);
    tl_tensor_release(w);

    w = tl_view_slice(a, 0, 1, 0, 1, true, false);    /* a[1:, 1::2]: an offset view */
    v = tl_view_slice(w, 1, 1, 0, 2, true, false);
    expect_str(v, "[[1.25 1.75]\n [2.25 2.75]]");
    tl_tensor_release(v);
    tl_tensor_release(w);
    tl_tensor_release(a);

    /* np.broadcast_to(np.arange(3, dtype=np.int32), (2, 3)): stride 0 */
    int64_t n3 = 3, bshape[2] = { 2, 3 };
    tl_tensor *r = tl_tensor_empty(TL_I32, 1, &n3);
    for (int i = 0; i < 3; i++) ((int32_t *)tl_tensor_data(r))[i] = i;
    v = tl_view_broadcast_to(r, 2, bshape);
    cr_assert_not_null(v, "%s", tl_errmsg());
    expect_str(v, "[[0 1 2]\n [0 1 2]]");
    tl_tensor_release(v);
    tl_tensor_release(r);
}

Test(format, summarized_strided_view)
{
    tl_printopts_default(&tl_print_options);
    int64_t shape[2] = { 1000, 1000 };
    tl_tensor *b = arange_f64(1000000, 1.0, 2, shape);
    tl_tensor *f = tl_view_slice(b, 0, 0, 0, -1, false, false);   /* b[::-1, ::2].T */
    tl_tensor *g = tl_view_slice(f, 1, 0, 0, 2, false, false);
    tl_tensor *v = tl_view_transpose(g);
    expect_str(v,
        "[[9.99000e+05 9.98000e+05 9.97000e+05 ... 2.00000e+03 1.00000e+03\n  0.00000e+00]\n"
        " [9.99002e+05 9.98002e+05 9.97002e+05 ... 2.00200e+03 1.00200e+03\n  2.00000e+00]\n"
        " [9.99004e+05 9.98004e+05 9.97004e+05 ... 2.00400e+03 1.00400e+03\n  4.00000e+00]\n"
        " ...\n"
        " [9.99994e+05 9.98994e+05 9.97994e+05 ... 2.99400e+03 1.99400e+03\n  9.94000e+02]\n"
        " [9.99996e+05 9.98996e+05 9.97996e+05 ... 2.99600e+03 1.99600e+03\n  9.96000e+02]\n"
        " [9.99998e+05 9.98998e+05 9.97998e+05 ... 2.99800e+03 1.99800e+03\n  9.98000e+02]]");
    tl_tensor_release(v);
    tl_tensor_release(g);
    tl_tensor_release(f);
    tl_tensor_release(b);
}

Test(format, complex_transposed)
{
    tl_printopts_default(&tl_print_options);
    int64_t shape[2] = { 2, 3 };
    tl_tensor *c = tl_tensor_empty(TL_C128, 2, shape);
    double *p = tl_tensor_data(c);
    for (int i = 0; i < 6; i++) p[2 * i] = p[2 * i + 1] = i;   /* (np.arange(6)*(1+1j)).reshape(2,3) */
    tl_tensor *v = tl_view_transpose(c);
    expect_str(v, "[[0.+0.j 3.+3.j]\n [1.+1.j 4.+4.j]\n [2.+2.j 5.+5.j]]");
    tl_tensor_release(v);
    tl_tensor_release(c);
}

/* ---- streaming, errors, interrupts, speed ----------------------------------- */

typedef struct counter {
    size_t bytes, calls, biggest, newlines;
    size_t fail_after;      /* return -1 on this call (0: never) */
} counter;

static int count_write(void *ctx, const char *s, size_t n)
{
    counter *c = ctx;
    c->calls++;
    if (c->fail_after && c->calls >= c->fail_after) return -1;
    c->bytes += n;
    if (n > c->biggest) c->biggest = n;
    for (size_t i = 0; i < n; i++) c->newlines += s[i] == '\n';
    return 0;
}

Test(format, streams_big_tensor_in_pieces)
{
    /* str(np.zeros(n, np.uint8)) with threshold raised: 37 words a line, so
       2n + 1 + (lines - 1) characters (numpy 1.24 gives 202703 for n = 1e5 and
       2027028 for n = 1e6, as this formula does) */
    int64_t n = 10000000;
    tl_tensor *z = tl_tensor_zeros(TL_U8, 1, &n);
    cr_assert_not_null(z);
    tl_printopts o;
    tl_printopts_default(&o);
    o.threshold = INT64_MAX;
    counter c = { 0 };
    cr_assert_eq(tl_fmt_tensor(z, &o, count_write, &c), 0, "%s", tl_errmsg());
    cr_expect_eq(c.bytes, 20270271, "%zu bytes", c.bytes);
    cr_expect_eq(c.newlines, 270270, "%zu newlines", c.newlines);
    cr_expect_leq(c.biggest, 4096, "pieces stay small: %zu", c.biggest);
    cr_expect_geq(c.calls, 20000000 / 4096);
    tl_tensor_release(z);
}

Test(format, writer_failure_stops)
{
    int64_t n = 100000;
    tl_tensor *z = tl_tensor_zeros(TL_I32, 1, &n);
    tl_printopts o;
    tl_printopts_default(&o);
    o.threshold = INT64_MAX;
    counter c = { .fail_after = 3 };
    cr_expect_eq(tl_fmt_tensor(z, &o, count_write, &c), -1);
    cr_expect_eq(c.calls, 3, "no writes after the failure");
    tl_tensor_release(z);
}

Test(format, interrupt_stops_with_error)
{
    int64_t n = 1000000;
    tl_tensor *z = tl_tensor_zeros(TL_F32, 1, &n);
    tl_printopts o;
    tl_printopts_default(&o);
    o.threshold = INT64_MAX;
    counter c = { 0 };
    tl_interrupt_flag = 1;
    int rc = tl_fmt_tensor(z, &o, count_write, &c);
    tl_interrupt_flag = 0;
    cr_expect_eq(rc, -1);
    cr_expect_str_eq(tl_errmsg(), "interrupted");
    cr_expect_eq(c.bytes, 0, "interrupted in the first pass, before any output");
    tl_tensor_release(z);
}

Test(format, bad_options)
{
    int64_t n = 3;
    tl_tensor *z = tl_tensor_zeros(TL_F64, 1, &n);
    tl_printopts o;
    tl_printopts_default(&o);
    o.precision = -1;
    cr_expect_null(tl_fmt_tensor_string(z, &o));
    cr_expect_str_eq(tl_errmsg(), "precision must be >= 0, got -1");
    tl_printopts_default(&o);
    o.edgeitems = -2;
    cr_expect_null(tl_fmt_tensor_string(z, &o));
    cr_expect_str_eq(tl_errmsg(), "edgeitems must be >= 0, got -2");
    tl_tensor_release(z);
}

Test(format, scalar_buffer)
{
    double x = 0.1;
    char buf[8];
    cr_expect_eq(tl_fmt_scalar(&x, TL_F64, buf, sizeof buf), 3);
    cr_expect_str_eq(buf, "0.1");
    x = 1.0 / 3;
    cr_expect_eq(tl_fmt_scalar(&x, TL_F64, buf, sizeof buf), -1, "0.3333333333333333 needs 19 bytes");
    uint16_t h = 0x3c00;   /* bf16 0.0078125: shortest digits in bf16 (dragon4_ref.py) */
    cr_expect_eq(tl_fmt_scalar(&h, TL_BF16, buf, sizeof buf), 6);
    cr_expect_str_eq(buf, "0.0078");
}

/* A summarized (1000, 1000) tensor prints only its corners: the text stays short whatever the
   size (its speed against numpy is tests/bench/bench_print.sh's, not a unit test's). */
Test(format, summarized_1000x1000_prints_corners_only)
{
    int64_t shape[2] = { 1000, 1000 };
    tl_tensor *b = tl_tensor_empty(TL_F64, 2, shape);
    double *p = tl_tensor_data(b);
    uint64_t s = 88172645463325252u;
    for (int64_t i = 0; i < 1000000; i++) {   /* uniform [0, 1) like np.random.rand */
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        p[i] = (double)(s >> 11) * 0x1p-53;
    }
    char *str = tl_fmt_tensor_string(b, NULL);
    cr_assert_not_null(str);
    int lines = 0;
    for (const char *c = str; *c; c++) lines += *c == '\n';
    cr_expect_lt(strlen(str), 1000, "%zu chars", strlen(str));
    cr_expect_eq(lines, 6, "%d lines:\n%s", lines, str);   /* 3 rows, "...", 3 rows: 7 lines, 6 breaks */
    cr_expect_not_null(strstr(str, "..."));
    free(str);
    tl_tensor_release(b);
}

/* io/text.c — .csv/.txt: 2-d numeric text read as f64 (locale-independent), written with round-trip digits */
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format.h"
#include "internal.h"

#define MAX_TOKEN 128

/* strtod in the "C" locale whatever the program's locale says (',' is our separator). */
static locale_t the_c_locale;
static pthread_once_t the_c_once = PTHREAD_ONCE_INIT;
static void make_c_locale(void) { the_c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

typedef struct {
    double *v;
    int64_t n, cap;
} values;

static int push(values *vs, double x)
{
    if (vs->n == vs->cap) {
        int64_t cap = vs->cap ? vs->cap * 2 : 1024;
        double *p = realloc(vs->v, (size_t)cap * sizeof *p);
        if (!p) { tl_seterr(MemoryError, "out of memory"); return -1; }
        vs->v = p;
        vs->cap = cap;
    }
    vs->v[vs->n++] = x;
    return 0;
}

static int parse_token(const io_src *s, int64_t line, const char *tok, size_t len, double *out)
{
    char buf[MAX_TOKEN + 1], q[MAX_TOKEN + 8];
    if (len == 0) return io_fail(s, "line %lld: empty field", (long long)line);
    if (len > MAX_TOKEN) return io_fail(s, "line %lld: field of %zu characters is not a number", (long long)line, len);
    memcpy(buf, tok, len);
    buf[len] = '\0';
    char *end;
    *out = strtod_l(buf, &end, the_c_locale);
    if (end != buf + len || buf[0] == ' ' || buf[0] == '\t')
        return io_fail(s, "line %lld: cannot read %s as a number", (long long)line, io_quote(tok, len, q, sizeof q));
    return 0;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Splits one line (comment already cut) into numbers; returns the count or -1. */
static int64_t parse_line(const io_src *s, int64_t line, const char *p, const char *end, char delim, values *vs)
{
    while (p < end && is_space(*p)) p++;
    while (end > p && is_space(end[-1])) end--;
    if (p == end) return 0;
    int64_t n = 0;
    while (p <= end) {
        const char *q = p;
        if (delim) {
            while (q < end && *q != delim) q++;
            const char *a = p, *b = q;
            while (a < b && is_space(*a)) a++;
            while (b > a && is_space(b[-1])) b--;
            double x = 0;
            if (parse_token(s, line, a, (size_t)(b - a), &x) || push(vs, x)) return -1;
            n++;
            if (q == end) break;
            p = q + 1;
        } else {
            while (q < end && !is_space(*q)) q++;
            double x = 0;
            if (parse_token(s, line, p, (size_t)(q - p), &x) || push(vs, x)) return -1;
            n++;
            while (q < end && is_space(*q)) q++;
            if (q == end) break;
            p = q;
        }
    }
    return n;
}

tl_tensor *tl_text_load(const char *path, char delim)
{
    pthread_once(&the_c_once, make_c_locale);
    if (!the_c_locale) { tl_seterr(MemoryError, "cannot create the C locale"); return NULL; }
    io_src s;
    if (io_open(&s, path)) return NULL;
    /* an empty file maps to no memory: base may be NULL, and NULL + 0 is undefined (UBSan) */
    const char *p = (const char *)s.base, *end = s.size ? p + s.size : p;
    if (s.size >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;   /* a UTF-8 byte-order mark */
    values vs = { 0 };
    int64_t rows = 0, cols = -1, line = 0;
    tl_tensor *t = NULL;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end, *hash = memchr(p, '#', (size_t)(stop - p));
        line++;
        int64_t n = parse_line(&s, line, p, hash ? hash : stop, delim, &vs);
        if (n < 0) goto out;
        if (n > 0) {
            if (cols >= 0 && n != cols) {
                io_fail(&s, "line %lld has %lld values, but earlier lines have %lld", (long long)line, (long long)n, (long long)cols);
                goto out;
            }
            cols = n;
            rows++;
        }
        p = nl ? nl + 1 : end;
    }
    int64_t shape[2] = { rows, cols < 0 ? 0 : cols };
    t = tl_tensor_empty(TL_F64, 2, shape);
    if (t && vs.n) memcpy(tl_tensor_data(t), vs.v, (size_t)vs.n * sizeof(double));
out:
    free(vs.v);
    io_close(&s);
    return t;
}

/* One element as text: integers exactly, floats as the shortest digits of their value as f64
   (text loads as f64: f16 0.1's own shortest digits "0.1" would load as another number). */
static int format_elem(const void *p, tl_dtype dt, char *buf, size_t n)
{
    if (dt == TL_BOOL) return snprintf(buf, n, "%d", *(const uint8_t *)p != 0);
    if (tl_dtype_kind(dt) == TL_KIND_UINT) return snprintf(buf, n, "%llu", (unsigned long long)tl_scalar_to_u64(p, dt));
    if (tl_dtype_kind(dt) == TL_KIND_INT) return snprintf(buf, n, "%lld", (long long)tl_scalar_to_i64(p, dt));
    double v = tl_scalar_to_f64(p, dt);
    return tl_fmt_scalar(&v, TL_F64, buf, n);
}

int tl_text_save(const char *path, const tl_tensor *t, char delim)
{
    if (tl_is_complex(t->dtype)) return io_fail_path(path, "cannot save complex numbers as text (use .npy)");
    if (t->ndim > 2) return io_fail_path(path, "text files hold 1-d or 2-d tensors, not %d-d (use .npy)", t->ndim);
    tl_tensor *c = tl_contiguous(t);
    if (!c) return -1;
    int64_t rows = t->ndim == 0 ? 1 : t->shape[0], cols = t->ndim == 2 ? t->shape[1] : 1;
    const uint8_t *p = tl_tensor_data(c);
    size_t isz = tl_dtype_size(t->dtype);
    io_writer w;
    if (io_writer_open(&w, path)) { tl_tensor_release(c); return -1; }
    int rc = 0;
    char sep = delim ? delim : ' ';
    for (int64_t r = 0; r < rows && !rc; r++) {
        for (int64_t k = 0; k < cols && !rc; k++, p += isz) {
            char buf[96];
            int len = format_elem(p, t->dtype, buf, sizeof buf);
            if (len < 0) { rc = -1; break; }
            rc = (k && io_put(&w, &sep, 1)) || io_put(&w, buf, (size_t)len) ? -1 : 0;
        }
        if (!rc) rc = io_put(&w, "\n", 1);
        if (!rc) rc = tl_check_interrupt();
    }
    tl_tensor_release(c);
    return io_writer_finish(&w, rc);
}

/* The format table's entry points (io.h): .csv is comma-separated, .txt separated by spaces or
   tabs; one tensor, no metadata. */
tl_file *io_csv_load(const char *path, bool meta_only)
{
    (void)meta_only;
    return io_file_one(tl_text_load(path, ','));
}

tl_file *io_txt_load(const char *path, bool meta_only)
{
    (void)meta_only;
    return io_file_one(tl_text_load(path, 0));
}

int io_csv_save(const char *path, int64_t n, const tl_named_in *items, const tl_save_opts *opts)
{
    (void)n;
    (void)opts;
    return tl_text_save(path, items[0].tensor, ',');
}

int io_txt_save(const char *path, int64_t n, const tl_named_in *items, const tl_save_opts *opts)
{
    (void)n;
    (void)opts;
    return tl_text_save(path, items[0].tensor, 0);
}

/* io/npy.c — .npy v1/v2/v3: header parsing (a strict reader of numpy's dict literal), load by mapping, save */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAX_HEADER (1u << 20)   /* numpy's own limit is 10000 characters; be generous, not absurd */
#define NPY_ALIGN 64
#define NPY_GROWTH_DIGITS 21        /* numpy >= 1.24 leaves room to grow the shape in place */

/* ---- descr strings -------------------------------------------------------------- */

/* Maps a descr like "<f4" to a dtype; swap is set for big-endian multi-byte data. */
static int descr_to_dtype(const io_src *s, const char *what, const char *d, tl_dtype *out, bool *swap)
{
    char order = '=';
    const char *p = d;
    if (*p == '<' || *p == '>' || *p == '|' || *p == '=') order = *p++;
    char kind = *p++;
    char *end;
    long size = strtol(p, &end, 10);
    if (*p >= '0' && *p <= '9' && *end == '\0')
        for (int i = 0; i < TL_NDTYPES; i++) {
            const char *own = tl_dtypes[i].npy_descr;   /* "<f4": order, kind, size */
            if (own[1] == kind && strtol(own + 2, NULL, 10) == size) {
                *out = (tl_dtype)i;
                *swap = order == '>' && size > 1;
                return 0;
            }
        }
    const char *why = "tl has no such dtype";
    if (kind == 'U' || kind == 'S' || kind == 'a') why = "strings are not supported";
    else if (kind == 'O') why = "object arrays (pickles) are never loaded";
    else if (kind == 'M' || kind == 'm') why = "datetimes are not supported";
    else if (kind == 'f' && size > 8) why = "long double is not supported";
    else if (kind == 'V') why = "only 2-byte void (bfloat16) is supported";
    return io_fail(s, "%s has dtype '%.40s': %s", what, d, why);
}

/* The descr tl writes for dt (bf16 as ml_dtypes' "<V2", see docs/files.md). */
static const char *dtype_to_descr(tl_dtype dt)
{
    return (unsigned)dt < TL_NDTYPES ? tl_dtypes[dt].npy_descr : NULL;
}

/* ---- the header dict: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } ---- */

typedef struct {
    const io_src *s;
    const char *what;
    const char *p, *end;
} hdr_parser;

static void skip_ws(hdr_parser *h)
{
    while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r')) h->p++;
}

static int bad(hdr_parser *h, const char *msg)
{
    return io_fail(h->s, "%s has a malformed header: %s", h->what, msg);
}

static int expect(hdr_parser *h, char c, const char *msg)
{
    skip_ws(h);
    if (h->p >= h->end || *h->p != c) return bad(h, msg);
    h->p++;
    return 0;
}

/* A quoted string without escapes, copied into buf. */
static int parse_str(hdr_parser *h, char *buf, size_t n)
{
    skip_ws(h);
    if (h->p >= h->end || (*h->p != '\'' && *h->p != '"')) return bad(h, "expected a quoted string");
    char q = *h->p++;
    size_t len = 0;
    while (h->p < h->end && *h->p != q) {
        if (*h->p == '\\' || (unsigned char)*h->p < 0x20) return bad(h, "unexpected character in a string");
        if (len + 1 >= n) return bad(h, "string too long");
        buf[len++] = *h->p++;
    }
    if (h->p >= h->end) return bad(h, "unterminated string");
    h->p++;
    buf[len] = '\0';
    return 0;
}

static int parse_bool(hdr_parser *h, bool *v)
{
    skip_ws(h);
    size_t left = (size_t)(h->end - h->p);
    if (left >= 4 && memcmp(h->p, "True", 4) == 0) { *v = true; h->p += 4; return 0; }
    if (left >= 5 && memcmp(h->p, "False", 5) == 0) { *v = false; h->p += 5; return 0; }
    return bad(h, "fortran_order must be True or False");
}

/* A Python tuple of non-negative ints; Python 2's "5L" suffix is accepted. */
static int parse_shape(hdr_parser *h, int *ndim, int64_t *shape)
{
    if (expect(h, '(', "shape must be a tuple")) return -1;
    int n = 0;
    bool comma = false;
    for (;;) {
        skip_ws(h);
        if (h->p < h->end && *h->p == ')') { h->p++; break; }
        if (h->p < h->end && *h->p == '-') return io_fail(h->s, "%s has a negative dimension in its shape", h->what);
        if (h->p >= h->end || *h->p < '0' || *h->p > '9') return bad(h, "shape must hold integers");
        uint64_t v = 0;
        while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(*h->p - '0'), &v) ||
                v > (uint64_t)INT64_MAX)
                return io_fail(h->s, "%s has a dimension too big for 64 bits", h->what);
            h->p++;
        }
        if (h->p < h->end && (*h->p == 'L' || *h->p == 'l')) h->p++;
        if (n >= TL_MAXDIM) return io_fail(h->s, "%s has more than %d dimensions", h->what, TL_MAXDIM);
        shape[n++] = (int64_t)v;
        skip_ws(h);
        comma = h->p < h->end && *h->p == ',';
        if (comma) h->p++;
        else if (h->p < h->end && *h->p == ')') { h->p++; break; }
        else return bad(h, "expected ',' or ')' in shape");
    }
    if (n == 1 && !comma) return bad(h, "shape (n) must be written (n,)");
    *ndim = n;
    return 0;
}

static int parse_dict(hdr_parser *h, char *descr, size_t dn, bool *fortran, int *ndim, int64_t *shape)
{
    bool seen[3] = { false, false, false };
    if (expect(h, '{', "expected '{'")) return -1;
    for (;;) {
        skip_ws(h);
        if (h->p < h->end && *h->p == '}') { h->p++; break; }
        char key[32];
        if (parse_str(h, key, sizeof key) || expect(h, ':', "expected ':' after a key")) return -1;
        int k = strcmp(key, "descr") == 0 ? 0 : strcmp(key, "fortran_order") == 0 ? 1 : strcmp(key, "shape") == 0 ? 2 : -1;
        if (k < 0) return io_fail(h->s, "%s has an unexpected key '%s' in its header", h->what, key);
        if (seen[k]) return io_fail(h->s, "%s repeats the key '%s' in its header", h->what, key);
        seen[k] = true;
        skip_ws(h);
        int rc;
        if (k == 0 && h->p < h->end && *h->p == '[')
            return io_fail(h->s, "%s has a structured dtype: not supported", h->what);
        if (k == 0) rc = parse_str(h, descr, dn);
        else if (k == 1) rc = parse_bool(h, fortran);
        else rc = parse_shape(h, ndim, shape);
        if (rc) return -1;
        skip_ws(h);
        if (h->p < h->end && *h->p == ',') { h->p++; continue; }
        if (h->p < h->end && *h->p == '}') { h->p++; break; }
        return bad(h, "expected ',' or '}'");
    }
    skip_ws(h);
    if (h->p != h->end) return bad(h, "unexpected text after the dict");
    static const char *names[3] = { "descr", "fortran_order", "shape" };
    for (int k = 0; k < 3; k++)
        if (!seen[k]) return io_fail(h->s, "%s header has no '%s'", h->what, names[k]);
    return 0;
}

int io_npy_parse(const io_src *s, const uint8_t *buf, uint64_t avail, uint64_t total, const char *what,
                 io_npy_header *h)
{
    memset(h, 0, sizeof *h);
    if (avail < 10 || memcmp(buf, NPY_MAGIC, 6) != 0)
        return io_fail(s, "%s is not a .npy file (%s)", what, avail < 10 ? "too short" : "bad magic");
    uint8_t major = buf[6], minor = buf[7];
    if (major < 1 || major > 3 || minor != 0)
        return io_fail(s, "%s has unsupported .npy version %u.%u (1.0, 2.0, 3.0 are known)", what, major, minor);
    uint64_t pre = major == 1 ? 10 : 12;
    if (avail < pre) return io_fail(s, "%s is truncated inside its header", what);
    uint64_t hlen = major == 1 ? io_le16(buf + 8) : io_le32(buf + 8);
    if (hlen > avail - pre)
        return io_fail(s, "%s header claims %llu bytes but only %llu follow", what, (unsigned long long)hlen,
                       (unsigned long long)(avail - pre));
    if (hlen > NPY_MAX_HEADER)
        return io_fail(s, "%s header of %llu bytes is too large (limit %u)", what, (unsigned long long)hlen, NPY_MAX_HEADER);

    char descr[64];
    hdr_parser hp = { s, what, (const char *)buf + pre, (const char *)buf + pre + hlen };
    if (parse_dict(&hp, descr, sizeof descr, &h->fortran, &h->ndim, h->shape)) return -1;
    if (descr_to_dtype(s, what, descr, &h->dtype, &h->swap)) return -1;
    if (io_shape_bytes(h->ndim, h->shape, tl_dtype_size(h->dtype), &h->count, &h->nbytes))
        return io_fail(s, "%s: %s", what, tl_errmsg());
    h->data_off = pre + hlen;
    uint64_t have = total - h->data_off;
    if (have != h->nbytes) {
        char shp[256];
        tl_shape_str(h->ndim, h->shape, shp, sizeof shp);
        return io_fail(s, "%s %s: header says shape %s of %s = %llu data bytes, but %llu follow", what,
                       have < h->nbytes ? "is truncated" : "does not match its header", shp,
                       tl_dtype_name(h->dtype), (unsigned long long)h->nbytes, (unsigned long long)have);
    }
    return 0;
}

/* ---- writing ---------------------------------------------------------------------- */

/* The exact bytes numpy 1.24's np.save writes for this header. */
int io_npy_header_for(const tl_tensor *t, bool fortran, uint8_t **out, size_t *len)
{
    size_t cap = 128 + 24 * (size_t)t->ndim + NPY_GROWTH_DIGITS, n = 0;
    char *dict = malloc(cap);
    if (!dict) { tl_seterr(MemoryError, "out of memory"); return -1; }
    n += (size_t)snprintf(dict + n, cap - n, "{'descr': '%s', 'fortran_order': %s, 'shape': (",
                          dtype_to_descr(t->dtype), fortran ? "True" : "False");
    for (int i = 0; i < t->ndim; i++)
        n += (size_t)snprintf(dict + n, cap - n, i ? ", %lld" : "%lld", (long long)t->shape[i]);
    n += (size_t)snprintf(dict + n, cap - n, "%s), }", t->ndim == 1 ? "," : "");
    if (t->ndim > 0) {
        char digits[24];
        int d = snprintf(digits, sizeof digits, "%lld", (long long)t->shape[fortran ? t->ndim - 1 : 0]);
        for (int i = d; i < NPY_GROWTH_DIGITS; i++) dict[n++] = ' ';
    }
    size_t hlen = n + 1;
    int version = 1;
    size_t pre = 10, pad = NPY_ALIGN - (pre + hlen) % NPY_ALIGN;
    if (hlen + pad > 65535) {
        version = 2;
        pre = 12;
        pad = NPY_ALIGN - (pre + hlen) % NPY_ALIGN;
    }
    size_t total = pre + hlen + pad;
    uint8_t *b = malloc(total);
    if (!b) { free(dict); tl_seterr(MemoryError, "out of memory"); return -1; }
    memcpy(b, NPY_MAGIC, 6);
    b[6] = (uint8_t)version;
    b[7] = 0;
    if (version == 1) io_put16(b + 8, (uint16_t)(hlen + pad));
    else io_put32(b + 8, (uint32_t)(hlen + pad));
    memcpy(b + pre, dict, n);
    memset(b + pre + n, ' ', pad);
    b[total - 1] = '\n';
    free(dict);
    *out = b;
    *len = total;
    return 0;
}

/* ---- load and save ---------------------------------------------------------------- */

tl_tensor *tl_npy_load(const char *path)
{
    io_src s;
    if (io_open(&s, path)) return NULL;
    io_npy_header h;
    tl_tensor *t = NULL;
    if (io_npy_parse(&s, s.base, s.size, s.size, "the file", &h) == 0)
        t = io_tensor_at(&s, h.data_off, h.dtype, h.ndim, h.shape, h.fortran, h.swap, NULL);
    io_close(&s);
    return t;
}

int tl_npy_save(const char *path, const tl_tensor *t)
{
    bool fortran = io_is_fortran(t);
    uint8_t *hdr;
    size_t hlen;
    if (io_npy_header_for(t, fortran, &hdr, &hlen)) return io_fail_path(path, "%s", tl_errmsg());
    io_writer w;
    if (io_writer_open(&w, path)) { free(hdr); return -1; }
    int rc = io_put(&w, hdr, hlen);
    free(hdr);
    if (rc == 0) {
        /* Fortran data is the transpose's C order: a contiguous run, no copy */
        tl_tensor *src = fortran ? tl_view_transpose(t) : (tl_tensor *)t;
        rc = src ? io_tensor_bytes(src, io_emit_writer, &w) : -1;
        if (fortran && src) tl_tensor_release(src);
    }
    return io_writer_finish(&w, rc);
}

/* The format table's entry points (io.h): one tensor, no metadata. */
tl_file *io_npy_load(const char *path, bool meta_only)
{
    (void)meta_only;
    return io_file_one(tl_npy_load(path));
}

int io_npy_save(const char *path, int64_t n, const tl_named_in *items, const tl_save_opts *opts)
{
    (void)n;
    (void)opts;
    return tl_npy_save(path, items[0].tensor);
}

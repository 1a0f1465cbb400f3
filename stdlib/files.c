/* files.c — builtins load, save and meta: the runtime's file formats as tl values */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "builtins.h"
#include "io.h"

/* A loaded file's dict carries its metadata in the dict's label: the label is the
   file's name, and after its NUL come a magic word, a length and the encoded
   metadata (runtime/io.h). value.c frees the label with the dict, so the
   metadata lives exactly as long as the dict, and meta() decodes it on demand. */
static const char META_MAGIC[8] = { 'T', 'L', 'M', 'E', 'T', 'A', '1', 0 };

static char *make_label(const char *path, const uint8_t *meta, size_t mlen)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t n = strlen(name);
    char *l = malloc(n + 1 + (meta ? 16 + mlen : 0));
    if (!l) return NULL;
    memcpy(l, name, n + 1);
    if (meta) {
        uint64_t len = mlen;
        memcpy(l + n + 1, META_MAGIC, 8);
        memcpy(l + n + 9, &len, 8);
        memcpy(l + n + 17, meta, mlen);
    }
    return l;
}

/* The metadata block of a dict made by load(), or NULL. */
static const uint8_t *label_meta(const Dict *d, size_t *len)
{
    if (!d->label) return NULL;
    size_t n = strlen(d->label), have = malloc_usable_size(d->label);
    if (have < n + 17 || memcmp(d->label + n + 1, META_MAGIC, 8) != 0) return NULL;
    uint64_t mlen;
    memcpy(&mlen, d->label + n + 9, 8);
    if (mlen > have - n - 17) return NULL;
    *len = (size_t)mlen;
    return (const uint8_t *)d->label + n + 17;
}

/* ---- runtime metadata -> values ---------------------------------------------------- */

static Value meta_value(const tl_meta *m);

static Value meta_items(const tl_meta *m)
{
    Value t = val_tuple_new((int)m->n);
    if (t.kind != V_TUPLE) return t;
    for (int64_t i = 0; i < m->n; i++) {
        Value v = meta_value(&m->items[i]);
        if (v.kind == V_NONE) { val_release(t); return val_none(); }
        t.as.tu->items[i] = v;
    }
    return t;
}

/* V_NONE means out of memory (metadata never holds none). */
static Value meta_value(const tl_meta *m)
{
    switch (m->kind) {
    case TL_META_NUM: return val_num(m->dtype, &m->num);
    case TL_META_STR: return val_str(m->str, m->len);
    case TL_META_ARRAY: tl_tensor_retain(m->array); return val_from_tensor(m->array);
    case TL_META_LIST: return m->n > 0x7fffffff ? val_none() : meta_items(m);
    case TL_META_MAP: {
        Value d = val_dict_new();
        if (d.kind != V_DICT) return val_none();
        for (int64_t i = 0; i < m->n; i++) {
            Value v = meta_value(&m->items[i]);
            if (v.kind == V_NONE || !dict_set(d.as.d, m->keys[i], m->keylens[i], v)) {
                val_release(d);
                return val_none();
            }
        }
        return d;
    }
    }
    return val_none();
}

static bool meta_to_value(Interp *I, CallArgs *a, const uint8_t *blob, size_t len, Value *out)
{
    tl_meta *m = tl_meta_decode(blob, len);
    if (!m) return interp_error_rt(I, a->at);
    *out = meta_value(m);
    tl_meta_free(m);
    if (out->kind == V_NONE) return bi_fail(I, a, MemoryError, "out of memory");
    return true;
}

/* ---- load ------------------------------------------------------------------------------- */

static bool file_to_dict(Interp *I, CallArgs *a, const char *path, tl_file *f, Value *out)
{
    Value d = val_dict_new();
    if (d.kind != V_DICT) { tl_file_free(f); return bi_fail(I, a, MemoryError, "out of memory"); }
    d.as.d->label = make_label(path, f->meta, f->meta_len);
    for (int64_t i = 0; i < f->n; i++) {
        Value v = val_from_tensor(f->tensors[i].tensor);
        f->tensors[i].tensor = NULL;
        if (!dict_set(d.as.d, f->tensors[i].name, f->tensors[i].len, v)) {
            tl_file_free(f);
            val_release(d);
            return bi_fail(I, a, MemoryError, "out of memory");
        }
    }
    tl_file_free(f);
    *out = d;
    return true;
}

static bool bi_load(Interp *I, CallArgs *a, Value *out)
{
    const char *path;
    if (!arg_string(I, a, 0, NULL, &path)) return false;
    tl_file *f = tl_load(path);
    if (!f) return interp_error_rt(I, a->at);
    if (f->format->flags & TL_FORMAT_ONE) {
        *out = val_from_tensor(f->tensors[0].tensor);
        f->tensors[0].tensor = NULL;
        tl_file_free(f);
        return true;
    }
    return file_to_dict(I, a, path, f, out);
}

/* ---- save -------------------------------------------------------------------------------- */

/* The dict's entries as named tensors (each retained; free with release_named). */
static bool dict_tensors(Interp *I, CallArgs *a, const Dict *d, tl_named_in **out)
{
    tl_named_in *items = calloc((size_t)(d->n ? d->n : 1), sizeof *items);
    if (!items) return bi_fail(I, a, MemoryError, "out of memory");
    for (int i = 0; i < d->n; i++) {
        if (!val_is_tensorlike(d->vals[i])) {
            for (int k = 0; k < i; k++) tl_tensor_release((tl_tensor *)items[k].tensor);
            free(items);
            return bi_fail(I, a, TypeError, "entry \"%.200s\" is a %s, not a tensor", d->keys[i]->data,
                                val_kind_name(d->vals[i]));
        }
        items[i].name = d->keys[i]->data;
        items[i].len = d->keys[i]->len;
        items[i].tensor = val_to_tensor(d->vals[i]);
        if (!items[i].tensor) {
            for (int k = 0; k < i; k++) tl_tensor_release((tl_tensor *)items[k].tensor);
            free(items);
            return interp_error_rt(I, a->at);
        }
    }
    *out = items;
    return true;
}

static void release_named(tl_named_in *items, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (items[i].tensor) tl_tensor_release((tl_tensor *)items[i].tensor);
    free(items);
}

/* ---- values -> runtime metadata (save's meta=) ------------------------------------------ */

static bool value_meta(Interp *I, CallArgs *a, const char *key, Value v, tl_meta *m);

/* The dtype a number is written as: its own, but a weak (literal) integer is i32 (i64 when it
   does not fit) and a weak float f32, as Python's gguf writer types Python numbers; f16 and
   bf16 widen to f32 (GGUF has no such metadata type). */
static tl_dtype meta_dtype(Value v)
{
    tl_dtype d = (tl_dtype)v.dtype;
    if (d == TL_F16 || d == TL_BF16) return TL_F32;
    if (!v.weak || d == TL_BOOL) return d;
    if (tl_is_float(d)) return TL_F32;
    int64_t x = tl_scalar_to_i64(v.as.num.bytes, d);
    return x >= INT32_MIN && x <= INT32_MAX ? TL_I32 : TL_I64;
}

/* Numbers (a tuple's or a list's items) as one array of one dtype (weak items follow the strong
   ones, else meta_dtype). */
static bool number_array(Interp *I, CallArgs *a, const char *key, const Value *items, int64_t n, tl_meta *m)
{
    tl_dtype dt = TL_NDTYPES;
    for (int64_t i = 0; i < n; i++) {
        tl_dtype d = meta_dtype(items[i]);
        if (!items[i].weak && dt != TL_NDTYPES && d != dt && !items[0].weak)
            return bi_fail(I, a, TypeError, "meta \"%.200s\": the items of an array must share one dtype", key);
        if (dt == TL_NDTYPES || !items[i].weak) dt = d;
    }
    for (int64_t i = 0; i < n; i++)   /* weak ints among floats make a float array */
        if (items[i].weak && tl_is_float(meta_dtype(items[i])) && !tl_is_float(dt)) dt = TL_F32;
    tl_tensor *arr = tl_tensor_empty(dt, 1, &n);
    if (!arr) return interp_error_rt(I, a->at);
    for (int64_t i = 0; i < n; i++)
        tl_scalar_convert((char *)tl_tensor_data(arr) + (size_t)i * tl_dtype_size(dt), dt, items[i].as.num.bytes,
                          (tl_dtype)items[i].dtype);
    m->kind = TL_META_ARRAY;
    m->array = arr;
    return true;
}

/* A tuple's or a list's items: an array of numbers, or a list of strings or of arrays (GGUF's
   nested arrays). */
static bool items_meta(Interp *I, CallArgs *a, const char *key, const Value *items, int64_t n, tl_meta *m)
{
    ValueKind k = n ? items[0].kind : V_STR;
    for (int64_t i = 1; i < n; i++)
        if (items[i].kind != k)
            return bi_fail(I, a, TypeError, "meta \"%.200s\": the items of a tuple or list must be all numbers, all strings or all sequences", key);
    if (k == V_NUM) return number_array(I, a, key, items, n, m);
    if (k != V_STR && k != V_TUPLE && k != V_LIST && k != V_TENSOR)
        return bi_fail(I, a, TypeError, "meta \"%.200s\": a sequence of %s cannot be written", key, val_kind_name(items[0]));
    m->kind = TL_META_LIST;
    m->items = calloc((size_t)(n ? n : 1), sizeof *m->items);
    if (!m->items) return bi_fail(I, a, MemoryError, "out of memory");
    for (int64_t i = 0; i < n; i++) {
        if (!value_meta(I, a, key, items[i], &m->items[i])) return false;
        m->n = i + 1;
    }
    return true;
}

/* One metadata value: a string, a number, a bool, a tuple or list of them, or a 1-d tensor. */
static bool value_meta(Interp *I, CallArgs *a, const char *key, Value v, tl_meta *m)
{
    memset(m, 0, sizeof *m);
    switch (v.kind) {
    case V_STR:
        m->kind = TL_META_STR;
        m->len = v.as.s->len;
        if (!(m->str = malloc(m->len + 1))) return bi_fail(I, a, MemoryError, "out of memory");
        memcpy(m->str, v.as.s->data, m->len + 1);
        return true;
    case V_NUM:
        if (tl_is_complex((tl_dtype)v.dtype))
            return bi_fail(I, a, TypeError, "meta \"%.200s\": complex numbers cannot be written", key);
        m->kind = TL_META_NUM;
        m->dtype = meta_dtype(v);
        tl_scalar_convert(&m->num, m->dtype, v.as.num.bytes, (tl_dtype)v.dtype);
        return true;
    case V_TUPLE: return items_meta(I, a, key, v.as.tu->items, v.as.tu->n, m);
    case V_LIST: return items_meta(I, a, key, v.as.l->items, v.as.l->n, m);
    case V_TENSOR:
        if (v.as.t->ndim != 1)
            return bi_fail(I, a, TypeError, "meta \"%.200s\": a tensor is written as an array, so it must be 1-d", key);
        tl_tensor_retain(v.as.t);
        m->kind = TL_META_ARRAY;
        m->array = v.as.t;
        return true;
    default:
        return bi_fail(I, a, TypeError, "meta \"%.200s\": a %s cannot be written (strings, numbers, bools, tuples or lists of them, 1-d tensors)",
                       key, val_kind_name(v));
    }
}

/* meta={"key": value, ...}: a MAP (empty when not given), freed with tl_meta_clear. */
static bool meta_arg(Interp *I, CallArgs *a, tl_meta *m)
{
    Value *v = arg_at(a, 3);
    memset(m, 0, sizeof *m);
    m->kind = TL_META_MAP;
    if (!v) return true;
    if (v->kind != V_DICT) return bi_fail(I, a, TypeError, "meta must be a dict, not a %s", val_kind_name(*v));
    const Dict *d = v->as.d;
    m->items = calloc((size_t)(d->n ? d->n : 1), sizeof *m->items);
    m->keys = calloc((size_t)(d->n ? d->n : 1), sizeof *m->keys);
    m->keylens = calloc((size_t)(d->n ? d->n : 1), sizeof *m->keylens);
    if (!m->items || !m->keys || !m->keylens) return bi_fail(I, a, MemoryError, "out of memory");
    for (int i = 0; i < d->n; i++) {
        m->n = i + 1;
        if (!(m->keys[i] = strdup(d->keys[i]->data))) return bi_fail(I, a, MemoryError, "out of memory");
        m->keylens[i] = d->keys[i]->len;
        if (!value_meta(I, a, d->keys[i]->data, d->vals[i], &m->items[i])) return false;
    }
    return true;
}

/* How messages name a format's files: ".npz", "text". */
static const char *noun(const tl_format *fmt) { return fmt->noun ? fmt->noun : fmt->ext; }

/* A save into a format holding named tensors (fmt's flags say which options it takes). */
static bool save_dict(Interp *I, CallArgs *a, const char *path, const tl_format *fmt, Value v)
{
    bool compress = false;
    char exts[256];
    if (!arg_bool(I, a, 2, false, &compress)) return false;
    if (!(fmt->flags & TL_FORMAT_COMPRESS) && arg_at(a, 2))
        return bi_fail(I, a, ValueError, "compress= applies to %s files only", tl_format_exts(exts, sizeof exts, TL_FORMAT_COMPRESS, TL_FORMAT_COMPRESS));
    if (!(fmt->flags & TL_FORMAT_META) && arg_at(a, 3))
        return bi_fail(I, a, ValueError, "meta= applies to %s files only",
                       tl_format_exts(exts, sizeof exts, TL_FORMAT_WRITES | TL_FORMAT_META, TL_FORMAT_WRITES | TL_FORMAT_META));
    tl_named_in *items = NULL, one;
    int64_t n;
    if (v.kind == V_DICT) {
        if (!dict_tensors(I, a, v.as.d, &items)) return false;
        n = v.as.d->n;
    } else if (fmt->lone_name && val_is_tensorlike(v)) {   /* np.savez(path, a) names it arr_0 */
        one = (tl_named_in){ fmt->lone_name, strlen(fmt->lone_name), val_to_tensor(v) };
        items = malloc(sizeof *items);
        if (!items || !one.tensor) {
            free(items);
            if (one.tensor) tl_tensor_release((tl_tensor *)one.tensor);
            return interp_error_rt(I, a->at);
        }
        items[0] = one;
        n = 1;
    } else {
        return bi_fail(I, a, TypeError, "%s files hold a dict of tensors, not a %s", noun(fmt), val_kind_name(v));
    }
    tl_save_opts opts = { .compress = compress };
    int rc;
    if (!(fmt->flags & TL_FORMAT_META)) {
        rc = fmt->save(path, n, items, &opts);
    } else {
        tl_meta m;
        bool ok = meta_arg(I, a, &m);
        opts.metadata = &m;
        rc = ok ? fmt->save(path, n, items, &opts) : 0;
        tl_meta_clear(&m);
        if (!ok) { release_named(items, n); return false; }
    }
    release_named(items, n);
    return rc == 0 || interp_error_rt(I, a->at);
}

static int file_writer(void *ctx, const char *s, size_t n) { return fwrite(s, 1, n, ctx) == n ? 0 : -1; }

/* The first of save()'s options (compress=, meta=) given, or NULL. */
static const char *save_option(CallArgs *a)
{
    for (int i = 2; i < 4; i++)
        if (arg_given(a, i)) return arg_name(a, i);
    return NULL;
}

/* save("g.dot", g): a graph as Graphviz text. */
static bool save_graph(Interp *I, CallArgs *a, const char *path, Value g)
{
    size_t len = strlen(path);
    if (len < 4 || strcasecmp(path + len - 4, ".dot") != 0)
        return bi_fail(I, a, ValueError, "a graph is saved as Graphviz text: use a .dot path, not \"%.200s\"", path);
    if (save_option(a)) return bi_fail(I, a, TypeError, "%s takes no options", save_option(a));
    FILE *f = fopen(path, "w");
    if (!f) return bi_fail(I, a, FileError, "cannot write %s: %s", path, strerror(errno));
    int rc = interp_graph_dot(g, file_writer, f);
    if (fclose(f) != 0 && rc == 0) return bi_fail(I, a, FileError, "cannot write %s: %s", path, strerror(errno));
    return rc == 0 || interp_error_rt(I, a->at);
}

static bool bi_save(Interp *I, CallArgs *a, Value *out)
{
    const char *path;
    if (!arg_string(I, a, 0, NULL, &path)) return false;
    Value v = *arg_given(a, 1);
    *out = val_none();
    if (v.kind == V_GRAPH) return save_graph(I, a, path, v);
    const tl_format *fmt = tl_format_of(path);
    char exts[256];
    if (!fmt)
        return bi_fail(I, a, ValueError, "cannot tell the format of \"%.200s\" (use %s)", path,
                       tl_format_exts(exts, sizeof exts, TL_FORMAT_WRITES, TL_FORMAT_WRITES));
    if (!(fmt->flags & TL_FORMAT_WRITES)) {   /* suggest the formats tl writes that hold what it holds */
        unsigned holds = TL_FORMAT_ONE | TL_FORMAT_META;
        return bi_fail(I, a, ValueError, "tl reads %s files but does not write them (use %s)", fmt->ext,
                       tl_format_exts(exts, sizeof exts, TL_FORMAT_WRITES | holds, TL_FORMAT_WRITES | (fmt->flags & holds)));
    }
    if (!(fmt->flags & TL_FORMAT_ONE)) return save_dict(I, a, path, fmt, v);
    if (save_option(a)) return bi_fail(I, a, TypeError, "%s takes no options", save_option(a));
    if (!val_is_tensorlike(v)) {
        char hint[300] = "";
        if (v.kind == V_DICT)
            snprintf(hint, sizeof hint, " (use %s for a dict)", tl_format_exts(exts, sizeof exts, TL_FORMAT_WRITES | TL_FORMAT_ONE, TL_FORMAT_WRITES));
        return bi_fail(I, a, TypeError, "%s files hold one tensor, not a %s%s", noun(fmt), val_kind_name(v), hint);
    }
    tl_tensor *t = val_to_tensor(v);
    if (!t) return interp_error_rt(I, a->at);
    int rc = fmt->save(path, 1, &(tl_named_in){ "", 0, t }, &(tl_save_opts){ 0 });
    tl_tensor_release(t);
    return rc == 0 || interp_error_rt(I, a->at);
}

/* ---- meta --------------------------------------------------------------------------------- */

static bool bi_meta(Interp *I, CallArgs *a, Value *out)
{
    Value g = *arg_given(a, 0);
    if (g.kind == V_DICT) {
        size_t len;
        const uint8_t *blob = label_meta(g.as.d, &len);
        if (blob) return meta_to_value(I, a, blob, len, out);
        if (g.as.d->label) { *out = val_dict_new(); return out->kind == V_DICT || interp_error_rt(I, a->at); }
        return interp_error(I, a->at, TypeError, "%s() takes a dict returned by load() (or a file's path)", a->self->name);
    }
    if (g.kind != V_STR)
        return interp_error(I, a->at, TypeError, "%s() takes a dict returned by load() (or a file's path), not a %s", a->self->name, val_kind_name(g));
    const char *path = g.as.s->data;
    uint8_t *blob;
    size_t len;
    if (tl_load_meta(path, &blob, &len)) return interp_error_rt(I, a->at);   /* maps, reads nothing but headers */
    if (blob) {
        bool ok = meta_to_value(I, a, blob, len, out);
        free(blob);
        return ok;
    }
    *out = val_dict_new();
    return out->kind == V_DICT || interp_error_rt(I, a->at);
}

/* read_text(path): the file's text as a string, line ends \r\n and \r read as \n (Python's
   universal newlines); bytes that are not UTF-8 pass through as characters of their own. */
static bool bi_read_text(Interp *I, CallArgs *a, Value *out)
{
    const char *path;
    size_t len;
    if (!arg_string(I, a, 0, NULL, &path)) return false;
    char *buf = tl_read_bytes(path, &len);
    if (!buf) return interp_error_rt(I, a->at);
    size_t w = 0;
    for (size_t r = 0; r < len; r++) {
        char c = buf[r];
        if (c == '\r') {
            c = '\n';
            if (r + 1 < len && buf[r + 1] == '\n') r++;
        }
        buf[w++] = c;
    }
    *out = val_str(buf, w);
    free(buf);
    return out->kind == V_STR || interp_error_rt(I, a->at);
}

/* write_text(path, s): writes the string s as the whole file, atomically (as save). */
static bool bi_write_text(Interp *I, CallArgs *a, Value *out)
{
    const char *path;
    Value s = *arg_given(a, 1);
    if (!arg_string(I, a, 0, NULL, &path)) return false;
    if (s.kind != V_STR) return bi_fail(I, a, TypeError, "s must be a string, not a %s", val_kind_name(s));
    if (tl_write_bytes(path, s.as.s->data, s.as.s->len) != 0) return interp_error_rt(I, a->at);
    *out = val_none();
    return true;
}

const Builtin bi_files_table[] = {
    { "read_text", bi_read_text, "read_text(path)", "the text of a file, as a string", 0, BF_OTHER, BT_NO },
    { "write_text", bi_write_text, "write_text(path, s)", "writes the string s as the whole file (atomically, as save)", 0, BF_OTHER, BT_NO },
    { "load", bi_load, "load(path)",
      "reads" TL_FORMAT_EXTS(ALL) ": a tensor, or a dict of tensors (mapped; read when touched)", 0, BF_OTHER, BT_NO },
    { "save", bi_save, "save(path, value, *, compress=false, meta=none)",
      "writes" TL_FORMAT_EXTS(WRITTEN) " atomically (temporary file, then rename)", 0, BF_OTHER, BT_NO },
    { "meta", bi_meta, "meta(g)",
      "the metadata of a loaded" TL_FORMAT_EXTS(META) " dict (or of a file's path) as a dict", 0, BF_OTHER, BT_NO },
    { 0 },
};

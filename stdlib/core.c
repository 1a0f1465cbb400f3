/* core.c — builtins about the language itself: print, str, error, assert, len, keys, range, include, time, printopts (help is help.c) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins.h"
#include "format.h"
#include "registry.h"

/* print(x, y, ...): print forms separated by spaces, then a newline; streams big tensors. */
/* Writes s to f, or the character c when s is NULL (print's sep and end). */
static void write_or(FILE *f, const Str *s, char c)
{
    if (s) fwrite(s->data, 1, s->len, f);
    else fputc(c, f);
}

static bool bi_print(Interp *I, CallArgs *a, Value *out)
{
    FILE *f = interp_out(I);
    const Str *ends[2] = { NULL, NULL };   /* sep, end: none is " " and "\n", as in Python */
    for (int k = 0; k < 2; k++) {
        Value *v = arg_at(a, k + 1);
        if (v && v->kind != V_STR) return bi_fail(I, a, TypeError, "%s must be none or a string, not %s", arg_name(a, k + 1), val_kind_name(*v));
        ends[k] = v ? v->as.s : NULL;
    }
    bool flush;
    if (!arg_bool(I, a, 3, false, &flush)) return false;
    for (int i = 0; i < a->nrest; i++) {
        if (i) write_or(f, ends[0], ' ');
        if (interp_print(I, a->rest[i]) != 0) {
            if (i > 0 || val_file_bytes_written() > 0) fputc('\n', f);   /* end the line begun */
            return interp_error_rt(I, a->at);
        }
    }
    write_or(f, ends[1], '\n');
    if (flush) fflush(f);
    *out = val_none();
    return true;
}

static bool bi_str(Interp *I, CallArgs *a, Value *out)
{
    Value x = *arg_given(a, 0);
    if (x.kind == V_STR) { *out = val_retain(x); return true; }
    StrBuf b = { 0 };
    bool ok = val_format(&b, x);
    if (ok) *out = val_str(b.data ? b.data : "", b.len);
    sb_free(&b);
    if (!ok || out->kind != V_STR) return interp_error_rt(I, a->at);
    return true;
}

/* The print form of v as a new C string (NULL when out of memory or interrupted, tl error set). */
static char *print_form(Value v)
{
    StrBuf b = { 0 };
    if (!val_format(&b, v) || !sb_append(&b, "", 1)) {
        sb_free(&b);
        return NULL;
    }
    return b.data;
}

/* error(msg) or error(kind, msg): raises an error of that kind (Error unless named) here;
   error(e) raises a caught error e again with its kind and message. */
static bool bi_raise(Interp *I, CallArgs *a, Value *out)
{
    (void)out;
    Value msg = *arg_given(a, 1);
    tl_errkind kind = msg.kind == V_ERROR ? msg.as.err->kind : TL_E_Error;
    if (arg_given(a, 0)) {
        Value k = *arg_given(a, 0);
        if (k.kind != V_STR) return bi_fail(I, a, TypeError, "the kind must be a string, not a %s", val_kind_name(k));
        if (!tl_errkind_parse(k.as.s->data, &kind) || !tl_errkind_catchable(kind))
            return bi_fail(I, a, ValueError, "unknown kind \"%.60s\" (one of ShapeError, IndexError, TypeError, "
                           "ValueError, ZeroDivisionError, MemoryError, FileError, RecursionError, AssertionError, Error)",
                           k.as.s->data);
    }
    if (msg.kind == V_ERROR) return interp_error_kind(I, a->at, kind, "%s", msg.as.err->message);
    char *text = print_form(msg);
    if (!text) return interp_error_rt(I, a->at);
    interp_error_kind(I, a->at, kind, "%s", text);
    free(text);
    return false;
}

/* assert(cond) or assert(cond, msg): an AssertionError when cond is false. */
static bool bi_assert(Interp *I, CallArgs *a, Value *out)
{
    bool t;
    if (!val_truthy(*arg_given(a, 0), &t)) return interp_error_rt(I, a->at);
    if (t) {
        *out = val_none();
        return true;
    }
    if (!arg_given(a, 1)) return interp_error(I, a->at, AssertionError, "assertion failed");
    char *text = print_form(*arg_given(a, 1));
    if (!text) return interp_error_rt(I, a->at);
    interp_error_kind(I, a->at, TL_E_AssertionError, "%s", text);
    free(text);
    return false;
}

static bool bi_len(Interp *I, CallArgs *a, Value *out)
{
    Value v = *arg_given(a, 0);
    switch (v.kind) {
    case V_STR: *out = val_i64(str_chars(v.as.s)); return true;
    case V_TUPLE: *out = val_i64(v.as.tu->n); return true;
    case V_LIST: *out = val_i64(v.as.l->n); return true;
    case V_DICT: *out = val_i64(v.as.d->n); return true;
    case V_TENSOR: *out = val_i64(v.as.t->shape[0]); return true;
    default: return interp_error(I, a->at, TypeError, "%s() of a %s is not defined", a->self->name, val_kind_name(v));
    }
}

static bool bi_keys(Interp *I, CallArgs *a, Value *out)
{
    Value x = *arg_given(a, 0);
    if (x.kind != V_DICT) return interp_error(I, a->at, TypeError, "%s() takes a dict, not a %s", a->self->name, val_kind_name(x));
    Dict *d = x.as.d;
    Value t = val_tuple_new(d->n);
    if (t.kind != V_TUPLE) return interp_error_rt(I, a->at);
    for (int i = 0; i < d->n; i++) t.as.tu->items[i] = val_str(d->keys[i]->data, d->keys[i]->len);
    *out = t;
    return true;
}

/* range(...) outside a for loop: an i64 tensor (a for loop iterates range lazily). */
static bool bi_range(Interp *I, CallArgs *a, Value *out)
{
    int64_t start, stop, step;
    if (!arg_int(I, a, 0, 0, &start) || !arg_int(I, a, 1, 0, &stop) || !arg_int(I, a, 2, 1, &step)) return false;
    if (step == 0) return interp_error(I, a->at, ValueError, "%s() step must not be zero", a->self->name);
    return ret_tensor(I, a, tl_arange_int(start, stop, step, TL_I64), out);
}

/* include("path.tl"): runs a file in the global scope; the path is relative to the including file. */
static bool bi_include(Interp *I, CallArgs *a, Value *out)
{
    const char *path;
    if (!arg_string(I, a, 0, NULL, &path)) return false;
    if (!interp_run_file(I, path, a->at)) return false;
    *out = val_none();
    return true;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* time(f): calls f() once and returns the seconds it took. */
static bool bi_time(Interp *I, CallArgs *a, Value *out)
{
    Value r;
    double t0 = now_seconds();
    if (!interp_call(I, *arg_given(a, 0), 0, NULL, a->at, &r)) return false;
    double t1 = now_seconds();
    val_release(r);
    *out = val_f64(t1 - t0);
    return true;
}

/* threads() gives the kernels' thread count; threads(n) sets it (and gives none,
   so setting it at the prompt echoes nothing, like torch.set_num_threads). */
static bool bi_threads(Interp *I, CallArgs *a, Value *out)
{
    int64_t old = tl_get_threads(), n;   /* read first: it also starts the count from TL_THREADS */
    if (!arg_int(I, a, 0, 0, &n)) return false;
    if (arg_at(a, 0)) {   /* given: set it */
        if (n < 1 || n > TL_MAX_THREADS) return bi_fail(I, a, ValueError, "n must be between 1 and %d, got %lld", TL_MAX_THREADS, (long long)n);
        tl_set_threads((int)n);
        *out = val_none();
        return true;
    }
    *out = val_i64(old);
    return true;
}

static bool bi_printopts(Interp *I, CallArgs *a, Value *out)
{
    tl_printopts o = tl_print_options;
    int64_t precision, threshold, edgeitems, linewidth;
    bool suppress;
    if (!arg_int(I, a, 0, o.precision, &precision) || !arg_int(I, a, 1, o.threshold, &threshold) ||
        !arg_int(I, a, 2, o.edgeitems, &edgeitems) || !arg_int(I, a, 3, o.linewidth, &linewidth) ||
        !arg_bool(I, a, 4, o.suppress, &suppress))
        return false;
    if (precision < 0 || precision > 100 || threshold < 0 || edgeitems < 0 || edgeitems > 1000000 || linewidth < 1 || linewidth > 100000)
        return bi_fail(I, a, ValueError, "precision must be 0..100, linewidth 1..100000, threshold and edgeitems >= 0");
    o.precision = (int)precision;
    o.threshold = threshold;
    o.edgeitems = (int)edgeitems;
    o.linewidth = (int)linewidth;
    o.suppress = suppress;
    tl_print_options = o;
    *out = val_none();
    return true;
}

const Builtin bi_core_table[] = {
    { "print", bi_print, "print(*values, sep=\" \", end=\"\\n\", flush=false)", "writes its arguments separated by sep (a space), then end (a newline)", 0, BF_OTHER, BT_NO },
    { "str", bi_str, "str(x)", "the print form of any value, as a string", 0, BF_OTHER, BT_NO },
    { "len", bi_len, "len(x)", "length of a string (in characters), tuple, list, dict, or a tensor's first axis", 0, BF_OTHER, BT_STATIC },
    { "keys", bi_keys, "keys(d)", "the keys of a dict, as a tuple of strings", 0, BF_OTHER, BT_NO },
    { "range", bi_range, "range([start,] stop, step=1)", "integers from start to stop (lazy in a for loop)", 0, BF_OTHER, BT_NO },
    { "include", bi_include, "include(path)", "runs another .tl file (path relative to this file's folder)", 0, BF_OTHER, BT_NO },
    { "error", bi_raise, "error([kind,] msg)",
      "raises an error (kind \"Error\" unless named, e.g. \"ValueError\"); try/catch catches it", 0, BF_OTHER, BT_NO },
    { "assert", bi_assert, "assert(cond, msg=\"assertion failed\")", "raises an AssertionError when cond is false", 0, BF_OTHER, BT_NO },
    { "help", bi_help, "help(name=none)", "help on a builtin, function, value, keyword or topic; help() lists them, help(\"*word*\") searches", 0, BF_OTHER, BT_NO },
    { "time", bi_time, "time(f)", "calls f() and returns the seconds it took", 0, BF_OTHER, BT_NO },
    { "threads", bi_threads, "threads(n=none)",
      "the kernels' thread count; threads(n) sets it (results never depend on it)", 0, BF_OTHER, BT_NO },
    { "printopts", bi_printopts, "printopts(*, precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=false)",
      "changes how tensors print", 0, BF_OTHER, BT_NO },
    { 0 },
};

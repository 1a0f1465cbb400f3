/* core.c — builtins about the language itself: print, str, error, assert, fmt, len, keys, range, include, help, time, printopts */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins.h"
#include "format.h"
#include "registry.h"

static int file_writer(void *ctx, const char *s, size_t n) { return fwrite(s, 1, n, ctx) == n ? 0 : -1; }

/* print(x, y, ...): print forms separated by spaces, then a newline; streams big tensors. */
static bool bi_print(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "print", 0, -1, NULL)) return false;
    FILE *f = interp_out(I);
    for (int i = 0; i < a->npos; i++) {
        if (i) fputc(' ', f);
        if (val_write(a->pos[i], file_writer, f) != 0) {
            fputc('\n', f);
            return interp_error_rt(I, a->at);
        }
    }
    fputc('\n', f);
    *out = val_none();
    return true;
}

static bool bi_str(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "str", 1, 1, NULL)) return false;
    if (a->pos[0].kind == V_STR) { *out = val_retain(a->pos[0]); return true; }
    StrBuf b = { 0 };
    bool ok = val_format(&b, a->pos[0]);
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
static bool bi_error(Interp *I, CallArgs *a, Value *out)
{
    (void)out;
    if (!args_check(I, a, "error", 1, 2, NULL)) return false;
    Value msg = a->pos[a->npos - 1];
    tl_errkind kind = msg.kind == V_ERROR ? msg.as.err->kind : TL_E_Error;
    if (a->npos == 2) {
        Value k = a->pos[0];
        if (k.kind != V_STR) return interp_error(I, a->at, TypeError, "error(): the kind must be a string, not a %s", val_kind_name(k));
        if (!tl_errkind_parse(k.as.s->data, &kind) || !tl_errkind_catchable(kind))
            return interp_error(I, a->at, ValueError, "error(): unknown kind \"%.60s\" (one of ShapeError, IndexError, TypeError, "
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
    if (!args_check(I, a, "assert", 1, 2, NULL)) return false;
    bool t;
    if (!val_truthy(a->pos[0], &t)) return interp_error_rt(I, a->at);
    if (t) {
        *out = val_none();
        return true;
    }
    if (a->npos == 1) return interp_error(I, a->at, AssertionError, "assertion failed");
    char *text = print_form(a->pos[1]);
    if (!text) return interp_error_rt(I, a->at);
    interp_error_kind(I, a->at, TL_E_AssertionError, "%s", text);
    free(text);
    return false;
}

/* fmt("{} has shape {}", a, b): each {} takes the next argument's print form; {{ and }} are braces. */
static bool bi_fmt(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "fmt", 1, -1, NULL)) return false;
    if (a->pos[0].kind != V_STR) return interp_error(I, a->at, TypeError, "fmt(): the first argument must be a string");
    const Str *f = a->pos[0].as.s;
    StrBuf b = { 0 };
    int next = 1;
    bool ok = true;
    for (size_t i = 0; i < f->len && ok; i++) {
        char c = f->data[i];
        if ((c == '{' || c == '}') && i + 1 < f->len && f->data[i + 1] == c) {
            ok = sb_append(&b, &c, 1);
            i++;
        } else if (c == '{' && i + 1 < f->len && f->data[i + 1] == '}') {
            if (next >= a->npos) {
                sb_free(&b);
                return interp_error(I, a->at, ValueError, "fmt(): more {} than arguments (%d given)", a->npos - 1);
            }
            ok = val_format(&b, a->pos[next++]);
            i++;
        } else {
            ok = sb_append(&b, &c, 1);
        }
    }
    if (ok && next < a->npos) {
        sb_free(&b);
        return interp_error(I, a->at, ValueError, "fmt(): %d arguments but only %d {}", a->npos - 1, next - 1);
    }
    if (ok) *out = val_str(b.data ? b.data : "", b.len);
    sb_free(&b);
    if (!ok || out->kind != V_STR) return interp_error_rt(I, a->at);
    return true;
}

static bool bi_len(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "len", 1, 1, NULL)) return false;
    Value v = a->pos[0];
    switch (v.kind) {
    case V_STR: *out = val_i64((int64_t)v.as.s->len); return true;
    case V_TUPLE: *out = val_i64(v.as.tu->n); return true;
    case V_DICT: *out = val_i64(v.as.d->n); return true;
    case V_TENSOR: *out = val_i64(v.as.t->shape[0]); return true;
    default: return interp_error(I, a->at, TypeError, "len() of a %s is not defined", val_kind_name(v));
    }
}

static bool bi_keys(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "keys", 1, 1, NULL)) return false;
    if (a->pos[0].kind != V_DICT) return interp_error(I, a->at, TypeError, "keys() takes a dict, not a %s", val_kind_name(a->pos[0]));
    Dict *d = a->pos[0].as.d;
    Value t = val_tuple_new(d->n);
    if (t.kind != V_TUPLE) return interp_error_rt(I, a->at);
    for (int i = 0; i < d->n; i++) t.as.tu->items[i] = val_str(d->keys[i]->data, d->keys[i]->len);
    *out = t;
    return true;
}

/* range(...) outside a for loop: an i64 tensor (a for loop iterates range lazily). */
static bool bi_range(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "range", 1, 3, NULL)) return false;
    int64_t v[3];
    for (int i = 0; i < a->npos; i++)
        if (!arg_int(I, a, "range", i, NULL, 0, &v[i])) return false;
    int64_t start = a->npos == 1 ? 0 : v[0], stop = a->npos == 1 ? v[0] : v[1], step = a->npos == 3 ? v[2] : 1;
    if (step == 0) return interp_error(I, a->at, ValueError, "range() step must not be zero");
    return ret_tensor(I, a, tl_arange_int(start, stop, step, TL_I64), out);
}

/* include("path.tl"): runs a file in the global scope; the path is relative to the including file. */
static bool bi_include(Interp *I, CallArgs *a, Value *out)
{
    const char *path;
    if (!args_check(I, a, "include", 1, 1, NULL) || !arg_string(I, a, "include", 0, NULL, NULL, &path)) return false;
    if (!interp_run_file(I, path, a->at)) return false;
    *out = val_none();
    return true;
}

static bool bi_help(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "help", 0, 1, NULL)) return false;
    *out = val_none();
    FILE *f = interp_out(I);
    if (a->npos == 0) {
        fprintf(f, "help(NAME) describes a builtin. Builtins:\n");
        int col = 0;
        for (const Builtin *const *tab = stdlib_tables; *tab; tab++)
            for (const Builtin *b = *tab; b->name; b++) {
                int w = (int)strlen(b->name) + 1;
                if (col + w > 75) { fputc('\n', f); col = 0; }
                fprintf(f, "%s ", b->name);
                col += w;
            }
        fputc('\n', f);
        return true;
    }
    const Builtin *b = NULL;
    Value v = a->pos[0];
    if (v.kind == V_BUILTIN) b = v.as.bi;
    else if (v.kind == V_STR) b = builtin_find(v.as.s->data);
    else if (v.kind == V_FUNC) {
        StrBuf desc = { 0 };
        bool ok = interp_describe_function(v, &desc);
        if (ok) fprintf(f, "%s\n", desc.data);
        sb_free(&desc);
        return ok || interp_error_rt(I, a->at);
    }
    if (!b) return interp_error(I, a->at, ValueError, "help(): no builtin named %s", v.kind == V_STR ? v.as.s->data : "that");
    fprintf(f, "%s\n  %s\n", b->signature, b->help);
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
    if (!args_check(I, a, "time", 1, 1, NULL)) return false;
    Value r;
    double t0 = now_seconds();
    if (!interp_call(I, a->pos[0], 0, NULL, a->at, &r)) return false;
    double t1 = now_seconds();
    val_release(r);
    *out = val_f64(t1 - t0);
    return true;
}

/* threads() gives the kernels' thread count; threads(n) sets it (and gives none,
   so setting it at the prompt echoes nothing, like torch.set_num_threads). */
static bool bi_threads(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "n", NULL };
    if (!args_check(I, a, "threads", 0, 1, kws)) return false;
    int64_t old = tl_get_threads(), n;   /* read first: it also starts the count from TL_THREADS */
    if (!arg_int(I, a, "threads", 0, "n", 0, &n)) return false;
    if (arg_find(a, 0, "n")) {   /* given: set it */
        if (n < 1 || n > TL_MAX_THREADS)
            return interp_error(I, a->at, ValueError, "threads(): n must be between 1 and %d, got %lld", TL_MAX_THREADS,
                                (long long)n);
        tl_set_threads((int)n);
        *out = val_none();
        return true;
    }
    *out = val_i64(old);
    return true;
}

static bool bi_printopts(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "precision", "threshold", "edgeitems", "linewidth", "suppress", NULL };
    if (!args_check(I, a, "printopts", 0, 0, kws)) return false;
    tl_printopts o = tl_print_options;
    int64_t precision, threshold, edgeitems, linewidth;
    bool suppress;
    if (!arg_int(I, a, "printopts", -1, "precision", o.precision, &precision) ||
        !arg_int(I, a, "printopts", -1, "threshold", o.threshold, &threshold) ||
        !arg_int(I, a, "printopts", -1, "edgeitems", o.edgeitems, &edgeitems) ||
        !arg_int(I, a, "printopts", -1, "linewidth", o.linewidth, &linewidth) ||
        !arg_bool(I, a, "printopts", -1, "suppress", o.suppress, &suppress))
        return false;
    if (precision < 0 || precision > 100 || threshold < 0 || edgeitems < 0 || edgeitems > 1000000 || linewidth < 1 || linewidth > 100000)
        return interp_error(I, a->at, ValueError, "printopts(): precision must be 0..100, linewidth 1..100000, threshold and edgeitems >= 0");
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
    { "print", bi_print, "print(x, ...)", "writes its arguments separated by spaces, then a newline", 0 },
    { "str", bi_str, "str(x)", "the print form of any value, as a string", 0 },
    { "fmt", bi_fmt, "fmt(template, args...)", "replaces each {} in template with the next argument's print form", 0 },
    { "len", bi_len, "len(x)", "length of a string, tuple, dict, or a tensor's first axis", 0 },
    { "keys", bi_keys, "keys(d)", "the keys of a dict, as a tuple of strings", 0 },
    { "range", bi_range, "range(stop) | range(start, stop, step=1)", "integers from start to stop (lazy in a for loop)", 0 },
    { "include", bi_include, "include(path)", "runs another .tl file (path relative to this file's folder)", 0 },
    { "error", bi_error, "error(msg) | error(kind, msg)",
      "raises an error (kind \"Error\" unless named, e.g. \"ValueError\"); try/catch catches it", 0 },
    { "assert", bi_assert, "assert(cond, msg=\"assertion failed\")", "raises an AssertionError when cond is false", 0 },
    { "help", bi_help, "help(name)", "prints a builtin's signature and description", 0 },
    { "time", bi_time, "time(f)", "calls f() and returns the seconds it took", 0 },
    { "threads", bi_threads, "threads(n=none)",
      "the kernels' thread count; threads(n) sets it (results never depend on it)", 0 },
    { "printopts", bi_printopts, "printopts(precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=false)",
      "changes how tensors print", 0 },
    { NULL, NULL, NULL, NULL, 0 },
};

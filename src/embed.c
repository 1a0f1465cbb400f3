/* embed.c — the embedding API of include/tl/tl.h over the interpreter: states, eval, zero-copy tensors */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <threads.h>

#include "tl/tl.h"

#include "interp.h"

/* The state behind a tl_state *: the interpreter, the values whose elements the caller is
   reading (tl_get's and tl_call's), and the last error in the form tl_lasterror gives it. */
struct tl_state {
    Interp *I;
    Value got;               /* the value tl_get read last (held so its elements stay) */
    Value result;            /* the value tl_call returned last */
    tl_error err;
    char *err_strings;       /* err's message, file and text, in one block (NULL when ok) */
};

/* ---- the public enums against the runtime's ----------------------------------------------- */

_Static_assert((int)TL_TYPE_COUNT == (int)TL_NDTYPES, "tl.h's tl_type lists every dtype of runtime/dtype_list.h");
_Static_assert(TL_ARRAY_MAXDIM == TL_MAXDIM, "tl.h's TL_ARRAY_MAXDIM is the runtime's TL_MAXDIM");
_Static_assert((int)TL_NERRKINDS == (int)TL_ERR_SYNTAX, "tl.h's tl_status lists every error kind of runtime/error.h");

/* The runtime's dtype of each public type. */
static const tl_dtype dtype_of_type[TL_TYPE_COUNT] = {
    [TL_TYPE_BOOL] = TL_BOOL, [TL_TYPE_U8] = TL_U8, [TL_TYPE_U16] = TL_U16, [TL_TYPE_U32] = TL_U32,
    [TL_TYPE_U64] = TL_U64, [TL_TYPE_I8] = TL_I8, [TL_TYPE_I16] = TL_I16, [TL_TYPE_I32] = TL_I32,
    [TL_TYPE_I64] = TL_I64, [TL_TYPE_F16] = TL_F16, [TL_TYPE_BF16] = TL_BF16, [TL_TYPE_F32] = TL_F32,
    [TL_TYPE_F64] = TL_F64, [TL_TYPE_C64] = TL_C64, [TL_TYPE_C128] = TL_C128,
};

/* The public status of each error kind. */
static const tl_status status_of_kind[TL_NERRKINDS] = {
    [TL_E_ShapeError] = TL_ERR_SHAPE, [TL_E_IndexError] = TL_ERR_INDEX, [TL_E_TypeError] = TL_ERR_TYPE,
    [TL_E_ValueError] = TL_ERR_VALUE, [TL_E_ZeroDivisionError] = TL_ERR_ZERO_DIVISION,
    [TL_E_MemoryError] = TL_ERR_MEMORY, [TL_E_FileError] = TL_ERR_FILE, [TL_E_RecursionError] = TL_ERR_RECURSION,
    [TL_E_AssertionError] = TL_ERR_ASSERTION, [TL_E_Error] = TL_ERR_ERROR, [TL_E_Interrupt] = TL_ERR_INTERRUPT,
    [TL_E_SyntaxError] = TL_ERR_SYNTAX,
};

/* The public type of a runtime dtype. */
static tl_type type_of_dtype(tl_dtype dt)
{
    for (int t = 0; t < TL_TYPE_COUNT; t++)
        if (dtype_of_type[t] == dt) return (tl_type)t;
    return TL_TYPE_COUNT;
}

const char *tl_typename(tl_type type) { return (unsigned)type < TL_TYPE_COUNT ? tl_dtype_name(dtype_of_type[type]) : "?"; }

size_t tl_typesize(tl_type type) { return (unsigned)type < TL_TYPE_COUNT ? tl_dtype_size(dtype_of_type[type]) : 0; }

const char *tl_version(void) { return TL_LIB_VERSION; }

void tl_interrupt(void) { tl_interrupt_flag = 1; }

/* ---- errors ----------------------------------------------------------------------------- */

/* Forgets the last error: tl_lasterror says TL_OK with empty strings. */
static void error_clear(tl_state *S)
{
    free(S->err_strings);
    S->err_strings = NULL;
    S->err = (tl_error){ .status = TL_OK, .kind = "", .message = "", .file = "", .text = "" };
}

/* Records an error of kind at file:line:col (file NULL: no place) with its message and full
   report, copied into the state; returns its status. */
static int error_set(tl_state *S, tl_errkind kind, const char *file, int line, int col, const char *msg,
                     const char *text)
{
    error_clear(S);
    if ((unsigned)kind >= TL_NERRKINDS) kind = TL_E_Error;
    size_t nm = strlen(msg) + 1, nf = file ? strlen(file) + 1 : 1, nt = strlen(text) + 1;
    char *b = malloc(nm + nf + nt);
    S->err.status = status_of_kind[kind];
    S->err.kind = tl_errkind_name(kind);
    if (!b) {   /* the kind survives; the strings stay empty */
        S->err.message = S->err.text = "out of memory";
        return S->err.status;
    }
    S->err_strings = b;
    S->err.message = memcpy(b, msg, nm);
    S->err.file = file ? memcpy(b + nm, file, nf) : memcpy(b + nm, "", 1);
    S->err.text = memcpy(b + nm + nf, text, nt);
    S->err.line = file ? line : 0;
    S->err.column = file ? col : 0;
    return S->err.status;
}

/* Records an error that has no place in any code (a missing name, a bad array). */
static int fail(tl_state *S, tl_errkind kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(tl_state *S, tl_errkind kind, const char *fmt, ...)
{
    char msg[DIAG_MSG_MAX], text[DIAG_MSG_MAX + 16];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(text, sizeof text, "error: %s\n", msg);
    return error_set(S, kind, NULL, 0, 0, msg, text);
}

/* Records the runtime's last error (tl_errmsg) as a placeless error. */
static int fail_rt(tl_state *S) { return fail(S, tl_errkind_last(), "%s", tl_errmsg()); }

/* Records the interpreter's pending error (I->err) with its report as the tl program prints it,
   then lets go of the error's spans, whose sources the caller may free. */
static int error_from_interp(tl_state *S)
{
    Interp *I = S->I;
    if (I->err.kind == TL_E_Interrupt) tl_interrupt_flag = 0;   /* handled: the next call runs */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        diag_print(f, &I->err);
        fclose(f);
    }
    const Span *at = &I->err.at;
    int st = error_set(S, I->err.kind, span_name(at), at->line, at->col, I->err.msg, text ? text : I->err.msg);
    free(text);
    I->err.at.src = NULL;
    I->err.ntrace = 0;
    return st;
}

const tl_error *tl_lasterror(tl_state *S) { return &S->err; }

/* ---- states ----------------------------------------------------------------------------- */

static once_flag seed_once = ONCE_FLAG_INIT;

/* Seeds the random numbers once per process, as the tl program does for each run: TL_SEED when
   it is a number, else fresh bits from the system (docs/embedding.md). */
static void seed_process(void)
{
    const char *s = getenv("TL_SEED");
    char *end = NULL;
    uint64_t seed = s && *s && *s != '-' ? strtoull(s, &end, 10) : 0;
    if (!end || *end) {
        if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != (ssize_t)sizeof seed) seed = (uint64_t)(uintptr_t)&seed;
    }
    tl_seed(seed);
}

tl_state *tl_open(void)
{
    call_once(&seed_once, seed_process);
    tl_state *S = calloc(1, sizeof *S);
    if (!S) return NULL;
    S->I = interp_new();
    if (!S->I) {
        free(S);
        return NULL;
    }
    S->got = S->result = val_none();
    error_clear(S);
    return S;
}

void tl_close(tl_state *S)
{
    if (!S) return;
    val_release(S->got);
    val_release(S->result);
    interp_free(S->I);
    error_clear(S);
    free(S);
}

void tl_setoutput(tl_state *S, FILE *out) { S->I->out = out ? out : stdout; }

/* ---- the evaluator's stack -------------------------------------------------------------- */

/* The lowest address of this thread's stack, measured once per thread (0: not yet). */
static _Thread_local uintptr_t thread_stack_low;

/* How far below `base` the evaluator may go on this thread's stack: what is left of it, less
   room for the builtins and the runtime (the share the tl program keeps on its own stack). */
static size_t stack_room(const char *base)
{
    if (!thread_stack_low) {
        pthread_attr_t attr;
        void *addr = NULL;
        size_t size = 0;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            pthread_attr_getstack(&attr, &addr, &size);
            pthread_attr_destroy(&attr);
        }
        thread_stack_low = addr ? (uintptr_t)addr : (uintptr_t)base - ((size_t)1 << 20);   /* unknown: 1 MiB */
    }
    size_t left = (uintptr_t)base > thread_stack_low ? (uintptr_t)base - thread_stack_low : 0;
    return left > ((size_t)2 << 20) ? left - ((size_t)1 << 20) - left / 8 : left / 2;
}

/* Makes base (a local of the API function) the bottom of the evaluator's stack for one call,
   so "recursion too deep" comes before the end of whatever stack the caller's thread has. */
static void stack_enter(Interp *I, char *base)
{
    I->stack_limit = stack_room(base);
    I->stack_base = base;
    I->stack_floor = (uintptr_t)base > I->stack_limit ? (uintptr_t)base - I->stack_limit : 1;
}

/* Ends what stack_enter began: outside the API's calls the evaluator measures nothing. */
static void stack_leave(Interp *I)
{
    I->stack_base = NULL;
    I->stack_floor = 0;
}

/* ---- running code ----------------------------------------------------------------------- */

int tl_evalbuffer(tl_state *S, const char *code, size_t len, const char *name, unsigned flags)
{
    error_clear(S);
    Source *src = source_new(name ? name : "<eval>", code, len);
    if (!src) return fail(S, TL_E_MemoryError, "out of memory");
    char base;
    stack_enter(S->I, &base);
    bool ok = interp_run_source(S->I, src, (flags & TL_EVAL_ECHO) != 0);
    stack_leave(S->I);
    int st = ok ? TL_OK : error_from_interp(S);
    source_release(src);
    return st;
}

int tl_eval(tl_state *S, const char *code) { return tl_evalbuffer(S, code, strlen(code), NULL, 0); }

/* ---- tensors ---------------------------------------------------------------------------- */

tl_array tl_array_of(void *data, tl_type type, int ndim, const int64_t *shape)
{
    tl_array a = { .data = data, .type = type, .ndim = ndim };
    if (ndim < 0 || ndim > TL_ARRAY_MAXDIM || (ndim > 0 && !shape)) {
        a.ndim = -1;   /* tl_bind and tl_call reject it */
        return a;
    }
    int64_t step = (int64_t)tl_typesize(type);
    for (int i = ndim - 1; i >= 0; i--) {
        a.shape[i] = shape[i];
        a.strides[i] = step;
        if (__builtin_mul_overflow(step, shape[i] > 0 ? shape[i] : 1, &step)) step = INT64_MAX;   /* tl_bind rejects the shape */
    }
    return a;
}

/* Checks an array from the caller: its type, rank, shape, alignment and strides; then the bytes
   its elements span, [*lo, *hi) from its data pointer (both 0 when it has no elements). */
static int array_check(tl_state *S, const tl_array *a, int64_t *lo, int64_t *hi)
{
    *lo = *hi = 0;
    if ((unsigned)a->type >= TL_TYPE_COUNT) return fail(S, TL_E_TypeError, "unknown element type %d", (int)a->type);
    if (a->ndim < 0 || a->ndim > TL_ARRAY_MAXDIM)
        return fail(S, TL_E_ValueError, "an array has 0 to %d dimensions, not %d", TL_ARRAY_MAXDIM, a->ndim);
    int64_t n, item = (int64_t)tl_typesize(a->type);
    if (tl_shape_size(a->ndim, a->shape, &n) < 0) return fail_rt(S);
    size_t align = (size_t)(a->type == TL_TYPE_C64 || a->type == TL_TYPE_C128 ? item / 2 : item);
    if (n > 0 && (!a->data || (uintptr_t)a->data % align))
        return fail(S, TL_E_ValueError, "an array's data must be a non-NULL pointer aligned to %zu bytes for %s", align,
                    tl_typename(a->type));
    *hi = n > 0 ? item : 0;
    bool overflow = false;
    for (int i = 0; i < a->ndim && n > 0; i++) {
        if (a->strides[i] % item)
            return fail(S, TL_E_ValueError, "stride %lld of axis %d is not a multiple of the %s element size %lld",
                        (long long)a->strides[i], i, tl_typename(a->type), (long long)item);
        int64_t span;
        overflow |= __builtin_mul_overflow(a->shape[i] - 1, a->strides[i], &span);
        overflow |= span < 0 ? __builtin_add_overflow(*lo, span, lo) : __builtin_add_overflow(*hi, span, hi);
    }
    if (overflow) return fail(S, TL_E_ValueError, "an array's shape and strides span more bytes than memory has");
    return TL_OK;
}

/* A tensor over the caller's array, no copy made (over an external storage); *out NULL on an error. */
static int tensor_over(tl_state *S, const tl_array *a, tl_tensor **out)
{
    *out = NULL;
    int64_t lo, hi;
    int st = array_check(S, a, &lo, &hi);
    if (st != TL_OK) return st;
    int64_t item = (int64_t)tl_typesize(a->type), strides[TL_MAXDIM];
    for (int i = 0; i < a->ndim; i++) strides[i] = a->strides[i] / item;
    tl_storage *s = tl_storage_external(hi > lo ? (char *)a->data + lo : NULL, (size_t)(hi - lo), NULL, NULL, "caller");
    if (!s) return fail_rt(S);
    tl_tensor *t = tl_tensor_view_of(s, dtype_of_type[a->type], a->ndim, a->shape, strides, -lo / item);
    tl_storage_release(s);   /* the tensor holds it now */
    if (!t) return fail_rt(S);
    if (a->readonly) t->readonly = true;
    *out = t;
    return TL_OK;
}

int tl_bind(tl_state *S, const char *name, const tl_array *a, tl_release_fn release, void *ctx)
{
    error_clear(S);
    tl_tensor *t;
    int st = tensor_over(S, a, &t);
    if (st != TL_OK) return st;
    tl_storage *s = t->storage;
    tl_storage_retain(s);
    if (interp_set_global(S->I, name, val_from_tensor(t))) {
        s->release = release;   /* only now: a failed bind does not call it */
        s->release_ctx = ctx;
    } else {
        st = fail(S, TL_E_MemoryError, "out of memory");
    }
    tl_storage_release(s);      /* a number's copy is bound: its array is let go at once */
    return st;
}

/* Describes v (a tensor, or a number held inline in *v) as an array; TL_ERR_TYPE for other values. */
static int array_of_value(tl_state *S, Value *v, const char *what, tl_array *out)
{
    memset(out, 0, sizeof *out);
    if (v->kind == V_NUM) {
        out->data = &v->as.num;
        out->type = type_of_dtype((tl_dtype)v->dtype);
        out->readonly = 1;   /* a copy: writing it changes nothing in tl */
        return TL_OK;
    }
    if (v->kind != V_TENSOR) return fail(S, TL_E_TypeError, "%s is a %s, not a tensor", what, val_kind_name(*v));
    const tl_tensor *t = v->as.t;
    int64_t item = (int64_t)tl_dtype_size(t->dtype);
    out->data = tl_tensor_data(t);
    out->type = type_of_dtype(t->dtype);
    out->ndim = t->ndim;
    out->readonly = t->readonly;
    for (int i = 0; i < t->ndim; i++) {
        out->shape[i] = t->shape[i];
        out->strides[i] = t->strides[i] * item;
    }
    return TL_OK;
}

/* The global variable name's value (borrowed), or NULL with the error recorded. */
static Value *global_named(tl_state *S, const char *name)
{
    Interp *I = S->I;
    int slot = symtab_find(&I->gsyms, name);
    if (slot < 0 || slot >= I->globals->nslots || I->globals->slots[slot].kind == V_UNDEF) {
        fail(S, TL_E_Error, "name '%s' is not defined", name);
        return NULL;
    }
    return &I->globals->slots[slot];
}

int tl_get(tl_state *S, const char *name, tl_array *out)
{
    error_clear(S);
    Value *v = global_named(S, name);
    if (!v) return S->err.status;
    val_release(S->got);
    S->got = val_retain(*v);
    char what[128];
    snprintf(what, sizeof what, "'%s'", name);
    return array_of_value(S, &S->got, what, out);
}

/* The call site that errors in a tl_call point back to: "<tl_call>:1:1", whose text is the name. */
static Source *call_site(const char *fname)
{
    return source_new("<tl_call>", fname, strlen(fname));   /* never parsed: errors show its one line */
}

/* After a call: the arguments' storages that something still holds get their own bytes, so tl
   keeps no pointer into the caller's arrays; then the call's references go. */
static int arguments_let_go(tl_state *S, int nargs, tl_storage **held, int st)
{
    for (int i = 0; i < nargs; i++) {
        if (!held[i]) continue;
        if (held[i]->refcount > 1 && tl_storage_detach(held[i]) < 0 && st == TL_OK) st = fail_rt(S);
        tl_storage_release(held[i]);
    }
    return st;
}

/* Wraps the arguments as values over the caller's arrays (vals) and keeps a reference to each
   one's storage (held, NULL for numbers), so tl_call can see whether anything kept them. */
static int arguments_wrap(tl_state *S, int nargs, const tl_array *args, Value *vals, tl_storage **held)
{
    for (int i = 0; i < nargs; i++) vals[i] = val_none(), held[i] = NULL;
    for (int i = 0; i < nargs; i++) {
        tl_tensor *t;
        int st = tensor_over(S, &args[i], &t);
        if (st != TL_OK) return st;
        if (t->ndim > 0) {
            held[i] = t->storage;
            tl_storage_retain(held[i]);
        }
        vals[i] = val_from_tensor(t);
    }
    return TL_OK;
}

int tl_call(tl_state *S, const char *fname, int nargs, const tl_array *args, tl_array *result)
{
    error_clear(S);
    val_release(S->result);
    S->result = val_none();
    if (nargs < 0 || (nargs > 0 && !args)) return fail(S, TL_E_ValueError, "tl_call needs nargs >= 0 arrays");
    Value *fn = global_named(S, fname);
    if (!fn) return S->err.status;
    Value small[8], *vals = nargs <= 8 ? small : malloc(sizeof(Value) * (size_t)nargs);
    tl_storage *small_held[8], **held = nargs <= 8 ? small_held : malloc(sizeof(tl_storage *) * (size_t)nargs);
    Source *site = call_site(fname);
    int st = !vals || !held || !site ? fail(S, TL_E_MemoryError, "out of memory") : arguments_wrap(S, nargs, args, vals, held);
    if (st == TL_OK) {
        Value f = val_retain(*fn), out = val_none();
        char base;
        stack_enter(S->I, &base);
        bool ok = interp_call(S->I, f, nargs, vals, (Span){ site, 1, 1 }, &out);
        stack_leave(S->I);
        val_release(f);
        if (ok) S->result = out;
        else st = error_from_interp(S);
    }
    for (int i = 0; vals && held && i < nargs; i++) val_release(vals[i]);
    if (vals && held) st = arguments_let_go(S, nargs, held, st);
    if (vals != small) free(vals);
    if (held != small_held) free(held);
    source_release(site);
    if (st == TL_OK && result) st = array_of_value(S, &S->result, "the result", result);
    return st;
}

int tl_setglobal(tl_state *S, const char *name)
{
    error_clear(S);
    if (!interp_set_global(S->I, name, val_retain(S->result))) return fail(S, TL_E_MemoryError, "out of memory");
    return TL_OK;
}

/* value.c — refcounting, strings, tuples, dicts, frames, and the print form of values */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "stmt_marks.h"
#include "quant.h"
#include "interp.h"
#include "value.h"

static void closure_free(Closure *c);

Value val_retain_obj(Value v)
{
    switch (v.kind) {
    case V_TENSOR: tl_tensor_retain(v.as.t); break;
    case V_STR: v.as.s->refcount++; break;
    case V_TUPLE: v.as.tu->refcount++; break;
    case V_LIST: v.as.l->refcount++; break;
    case V_DICT: v.as.d->refcount++; break;
    case V_FUNC: v.as.fn->refcount++; break;
    case V_ERROR: v.as.err->refcount++; break;
    case V_GRAPH: ((ObjHead *)v.as.g)->refcount++; break;
    case V_TRACE: if (v.as.tr.t) tl_tensor_retain(v.as.tr.t); break;
    default: break;
    }
    return v;
}

/* Tuples, lists and dicts whose last reference has gone, not yet freed. The outermost release
   frees them one at a time; one freed there may add its own contents here but never frees them
   itself, so a value nested millions deep is released in a loop, not a recursion. */
static _Thread_local struct {
    Tuple *tuples;
    List *lists;
    Dict *dicts;
    bool draining;
} dead;

/* The owner of the dicts and lists this thread makes now: the state running on it, if any. */
static _Thread_local ValOwner *current_owner;

void val_owner_init(ValOwner *o) { o->head.prev = o->head.next = &o->head; }

ValOwner *val_owner_enter(ValOwner *o)
{
    ValOwner *before = current_owner;
    current_owner = o;
    return before;
}

void val_owner_leave(ValOwner *before) { current_owner = before; }

void val_link_new(ValLink *l, bool is_list)
{
    l->is_list = is_list;
    l->owner = current_owner;
    if (!l->owner) {
        l->prev = l->next = NULL;
        return;
    }
    ValLink *h = &l->owner->head;
    l->prev = h, l->next = h->next;
    h->next->prev = l;
    h->next = l;
}

/* Takes a dict or list off its owner's ring (freed, or outliving the sweep). */
static void link_remove(ValLink *l)
{
    if (!l->owner) return;
    l->prev->next = l->next;
    l->next->prev = l->prev;
    l->owner = NULL;
}

/* The dict or list whose link is l. */
static Value link_value(ValLink *l)
{
    Value v = val_none();
    if (l->is_list) v.kind = V_LIST, v.as.l = (List *)((char *)l - offsetof(List, link));
    else v.kind = V_DICT, v.as.d = (Dict *)((char *)l - offsetof(Dict, link));
    return v;
}

void val_owner_sweep(ValOwner *o)
{
    int64_t n = 0;
    for (ValLink *l = o->head.next; l != &o->head; l = l->next) n++;
    Value *all = n ? malloc((size_t)n * sizeof *all) : NULL;
    int64_t k = 0;
    /* held here, none is freed while the others are emptied: emptying one releases the rest of
       its cycle's references, and the last release below frees each */
    for (ValLink *l = o->head.next; l != &o->head && all; l = l->next) all[k++] = val_retain(link_value(l));
    for (int64_t i = 0; i < k; i++) {
        if (all[i].kind == V_DICT) dict_clear(all[i].as.d);
        else while (all[i].as.l->n > 0) val_release(all[i].as.l->items[--all[i].as.l->n]);
    }
    /* unlinked first: a dict or list something outside still holds must not point at o */
    while (o->head.next != &o->head) link_remove(o->head.next);
    for (int64_t i = 0; i < k; i++) val_release(all[i]);
    free(all);
}

/* Releases a dead tuple's items and frees it. */
static void tuple_free(Tuple *t)
{
    for (int i = 0; i < t->n; i++) val_release(t->items[i]);
    free(t);
}

/* Releases a dead list's items and frees it. */
static void list_free(List *l)
{
    link_remove(&l->link);
    for (int64_t i = 0; i < l->n; i++) val_release(l->items[i]);
    free(l->items);
    free(l);
}

/* Releases a dead dict's keys and values and frees it. */
static void dict_free(Dict *d)
{
    link_remove(&d->link);
    for (int i = 0; i < d->n; i++) {
        if (--d->keys[i]->refcount == 0) str_free(d->keys[i]);
        val_release(d->vals[i]);
    }
    free(d->keys);
    free(d->vals);
    free(d->index);
    free(d->label);
    free(d);
}

/* Frees the dead tuples, lists and dicts, and those their contents add, unless an outer call is at it. */
static void drain_dead(void)
{
    if (dead.draining) return;
    dead.draining = true;
    while (dead.tuples || dead.lists || dead.dicts) {
        if (dead.tuples) {
            Tuple *t = dead.tuples;
            dead.tuples = t->next_dead;
            tuple_free(t);
        } else if (dead.lists) {
            List *l = dead.lists;
            dead.lists = l->next_dead;
            list_free(l);
        } else {
            Dict *d = dead.dicts;
            dead.dicts = d->next_dead;
            dict_free(d);
        }
    }
    dead.draining = false;
}

void val_release_obj(Value v)
{
    switch (v.kind) {
    case V_TENSOR: tl_tensor_release(v.as.t); break;
    case V_STR:
        if (--v.as.s->refcount == 0) str_free(v.as.s);
        break;
    case V_TUPLE:
        if (--v.as.tu->refcount == 0) {
            v.as.tu->next_dead = dead.tuples;
            dead.tuples = v.as.tu;
            drain_dead();
        }
        break;
    case V_LIST:
        if (--v.as.l->refcount == 0) {
            v.as.l->next_dead = dead.lists;
            dead.lists = v.as.l;
            drain_dead();
        }
        break;
    case V_DICT:
        if (--v.as.d->refcount == 0) {
            v.as.d->next_dead = dead.dicts;
            dead.dicts = v.as.d;
            drain_dead();
        }
        break;
    case V_ERROR:
        if (--v.as.err->refcount == 0) {
            free(v.as.err->file);
            free(v.as.err->message);
            free(v.as.err);
        }
        break;
    case V_GRAPH: {
        ObjHead *h = (ObjHead *)v.as.g;
        if (--h->refcount == 0) h->free(h);
        break;
    }
    case V_TRACE:
        if (v.as.tr.t) tl_tensor_release(v.as.tr.t);
        break;
    case V_FUNC: {
        Closure *c = v.as.fn;
        if (--c->refcount == 0) closure_free(c);
        else closure_collect_cycles(c);   /* its frame may now be held only by a cycle */
        break;
    }
    default: break;
    }
}

static void closure_free(Closure *c)
{
    if (c->defaults) {
        for (int i = 0; i < c->def->nparams; i++) val_release(c->defaults[i]);
        free(c->defaults);
    }
    free(c->has_default);
    if (c->env) frame_release(c->env);
    if (c->src) source_release(c->src);
    free(c);
}

Value val_str(const char *s, size_t n)
{
    Str *p = n <= STR_MAX_BYTES ? str_alloc(n) : NULL;
    if (!p) { tl_seterr(MemoryError, "out of memory"); return (Value){ .kind = V_UNDEF }; }
    p->refcount = 1;
    p->len = n;
    p->nchars = -1;
    if (n) memcpy(p->data, s, n);
    p->data[n] = 0;
    Value v = { .kind = V_STR };
    v.as.s = p;
    return v;
}

Value val_cstr(const char *s) { return val_str(s, strlen(s)); }

Value val_error_new(tl_errkind kind, const char *file, int line, int col, const char *message)
{
    ErrorVal *e = malloc(sizeof *e);
    char *f = strdup(file), *m = strdup(message);
    if (!e || !f || !m) {
        free(e); free(f); free(m);
        tl_seterr(MemoryError, "out of memory");
        return (Value){ .kind = V_UNDEF };
    }
    *e = (ErrorVal){ .refcount = 1, .kind = kind, .line = line, .col = col, .file = f, .message = m };
    Value v = { .kind = V_ERROR };
    v.as.err = e;
    return v;
}

bool val_error_attr(Value e, const char *name, Value *out)
{
    const ErrorVal *x = e.as.err;
    if (strcmp(name, "kind") == 0) *out = val_cstr(tl_errkind_name(x->kind));
    else if (strcmp(name, "message") == 0) *out = val_str(x->message, strcspn(x->message, "\n"));   /* its first line */
    else if (strcmp(name, "file") == 0) *out = val_cstr(x->file);
    else if (strcmp(name, "line") == 0) *out = val_i64(x->line);
    else if (strcmp(name, "col") == 0) *out = val_i64(x->col);
    else return false;
    return true;
}

Value val_tuple_new(int n)
{
    Tuple *t = malloc(sizeof(Tuple) + (size_t)n * sizeof(Value));
    if (!t) { tl_seterr(MemoryError, "out of memory"); return (Value){ .kind = V_UNDEF }; }
    t->refcount = 1;
    t->n = n;
    for (int i = 0; i < n; i++) t->items[i] = val_none();
    Value v = { .kind = V_TUPLE };
    v.as.tu = t;
    return v;
}

Value val_dict_new(void)
{
    Dict *d = calloc(1, sizeof(Dict));
    if (!d) { tl_seterr(MemoryError, "out of memory"); return (Value){ .kind = V_UNDEF }; }
    d->refcount = 1;
    val_link_new(&d->link, false);
    Value v = { .kind = V_DICT };
    v.as.d = d;
    return v;
}

/* val_from_tensor's 0-d case: the number it holds (t released). */
Value val_from_scalar_tensor(tl_tensor *t)
{
    Value v = (Value){ .kind = V_NUM, .dtype = (uint8_t)t->dtype };
    memcpy(v.as.num.bytes, tl_tensor_data(t), tl_dtype_size(t->dtype));
    tl_tensor_release(t);
    return v;
}

tl_tensor *val_to_tensor(Value v)
{
    if (v.kind == V_NUM) return tl_tensor_scalar((tl_dtype)v.dtype, v.as.num.bytes);
    if (v.kind == V_TENSOR) { tl_tensor_retain(v.as.t); return v.as.t; }
    if (v.kind == V_LIST) return values_to_tensor(v.as.l->n, v.as.l->items, 0);
    tl_seterr(TypeError, "expected a tensor, got %s", val_kind_name(v));
    return NULL;
}

const char *val_kind_name(Value v)
{
    switch (v.kind) {
    case V_NONE: return "none";
    case V_NUM: return "number";
    case V_TENSOR: return "tensor";
    case V_STR: return "string";
    case V_TUPLE: return "tuple";
    case V_LIST: return "list";
    case V_DICT: return "dict";
    case V_FUNC: return "function";
    case V_BUILTIN: return "builtin function";
    case V_ERROR: return "error";
    case V_GRAPH: return "graph";
    case V_TRACE: return "traced tensor";
    default: return "undefined";
    }
}

bool val_truthy(Value v, bool *out)
{
    switch (v.kind) {
    case V_NONE: *out = false; return true;
    case V_NUM: *out = tl_scalar_is_nonzero(v.as.num.bytes, (tl_dtype)v.dtype); return true;
    case V_TENSOR:
        if (tl_tensor_size(v.as.t) != 1) {
            tl_seterr(ValueError, "the truth value of a tensor with %lld elements is ambiguous; use any() or all()",
                      (long long)tl_tensor_size(v.as.t));
            return false;
        }
        *out = tl_scalar_is_nonzero(tl_tensor_data(v.as.t), v.as.t->dtype);
        return true;
    case V_TRACE: tl_seterr(TypeError, GRAPH_NEEDS_VALUES); return false;
    case V_STR: *out = v.as.s->len > 0; return true;
    case V_TUPLE: *out = v.as.tu->n > 0; return true;
    case V_LIST: *out = v.as.l->n > 0; return true;
    case V_DICT: *out = v.as.d->n > 0; return true;
    default: *out = true; return true;
    }
}

/* ---- string buffers ---------------------------------------------------- */

bool sb_append(StrBuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t ncap = b->cap ? b->cap : 64;
        while (ncap < b->len + n + 1) ncap *= 2;
        char *nd = realloc(b->data, ncap);
        if (!nd) { tl_seterr(MemoryError, "out of memory"); return false; }
        b->data = nd;
        b->cap = ncap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
    return true;
}

bool sb_printf(StrBuf *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return false;
    if ((size_t)n < sizeof tmp) return sb_append(b, tmp, (size_t)n);
    char *big = malloc((size_t)n + 1);
    if (!big) { tl_seterr(MemoryError, "out of memory"); return false; }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    bool ok = sb_append(b, big, (size_t)n);
    free(big);
    return ok;
}

void sb_free(StrBuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* ---- print forms ------------------------------------------------------- */

static int write_str(tl_write_fn w, void *ctx, const char *s) { return w(ctx, s, strlen(s)); }

/* Tuples, lists and dicts nested deeper than this are not printed (a RecursionError): each level
   is a C frame, and the stack has room for many more levels than anyone reads. */
#define MAX_PRINT_DEPTH 1000

/* The tuples, lists and dicts being written, innermost first: one met again inside itself is
   written as Python writes it, [...], (...) or {...}, where following it would never end. */
typedef struct PrintPath {
    const void *obj;
    const struct PrintPath *up;
} PrintPath;

/* The object of a tuple, list or dict (NULL for other values). */
static const void *container_obj(Value v)
{
    return v.kind == V_TUPLE ? (const void *)v.as.tu : v.kind == V_LIST ? (const void *)v.as.l
         : v.kind == V_DICT ? (const void *)v.as.d : NULL;
}

/* Whether v is a tuple, list or dict on the path (being written around it). */
static bool on_path(Value v, const PrintPath *p)
{
    const void *obj = container_obj(v);
    for (; obj && p; p = p->up)
        if (p->obj == obj) return true;
    return false;
}

static int write_value(Value v, tl_write_fn w, void *ctx, int depth, const PrintPath *path);

/* Writes an item of a tuple, list or dict at the given depth: strings as their repr. */
static int write_nested(Value v, tl_write_fn w, void *ctx, int depth, const PrintPath *path)
{
    if (v.kind == V_STR) return str_write_repr(v.as.s->data, v.as.s->len, w, ctx);
    if (on_path(v, path)) return write_str(w, ctx, v.kind == V_LIST ? "[...]" : v.kind == V_TUPLE ? "(...)" : "{...}");
    if (depth >= MAX_PRINT_DEPTH && (v.kind == V_TUPLE || v.kind == V_LIST || v.kind == V_DICT)) {
        tl_seterr(RecursionError, "a value nested too deeply to print (more than %d levels)", MAX_PRINT_DEPTH);
        return -1;
    }
    return write_value(v, w, ctx, depth, path);
}

int val_write_item(Value v, tl_write_fn w, void *ctx) { return write_nested(v, w, ctx, 0, NULL); }

/* A one-line summary for dict listings: tensors as dtype (ggml type when held as blocks) and shape. */
static int write_summary(Value v, tl_write_fn w, void *ctx, int depth, const PrintPath *path)
{
    if (v.kind == V_TENSOR) {
        char shp[TL_MAXDIM * 22 + 8];
        tl_shape_str(v.as.t->ndim, v.as.t->shape, shp, sizeof shp);
        if (write_str(w, ctx, tl_tensor_type_name(v.as.t)) || w(ctx, " ", 1)) return -1;
        return write_str(w, ctx, shp);
    }
    if (v.kind == V_DICT) {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "dict with %d entr%s", v.as.d->n, v.as.d->n == 1 ? "y" : "ies");
        return write_str(w, ctx, tmp);
    }
    return write_nested(v, w, ctx, depth, path);
}

/* Looks at most this many tuples, lists and dicts ahead for one nested too deep, so that print
   fails before it writes anything (a deeper find is still refused while writing). */
#define PRINT_LOOKAHEAD 100000

/* True for the values printed with their items (tuples, lists, dicts). */
static bool is_container(Value v) { return v.kind == V_TUPLE || v.kind == V_LIST || v.kind == V_DICT; }

/* Whether printing v at the given depth reaches a container below MAX_PRINT_DEPTH, looking at no
   more than *budget of them (a top-level dict's dicts print as a summary, so they are not
   entered; a dict inside a tuple or list prints its items). */
static bool nested_too_deep(Value v, int depth, int64_t *budget, const PrintPath *path)
{
    if (!is_container(v) || on_path(v, path)) return false;   /* one on the path prints as [...] */
    if (depth >= MAX_PRINT_DEPTH) return true;
    if (--*budget < 0) return false;
    PrintPath here = { container_obj(v), path };
    int64_t n = v.kind == V_TUPLE ? v.as.tu->n : v.kind == V_LIST ? v.as.l->n : v.as.d->n;
    for (int64_t i = 0; i < n; i++) {
        Value x = v.kind == V_TUPLE ? v.as.tu->items[i] : v.kind == V_LIST ? v.as.l->items[i] : v.as.d->vals[i];
        if ((depth > 0 || v.kind != V_DICT || x.kind != V_DICT) && nested_too_deep(x, depth + 1, budget, &here)) return true;
    }
    return false;
}

int val_write(Value v, tl_write_fn w, void *ctx)
{
    int64_t budget = PRINT_LOOKAHEAD;
    if (nested_too_deep(v, 0, &budget, NULL)) return write_nested(v, w, ctx, MAX_PRINT_DEPTH, NULL);
    return write_value(v, w, ctx, 0, NULL);
}

/* Bytes val_write_file has written in its latest call on this thread (val_file_bytes_written). */
static _Thread_local size_t file_bytes;

size_t val_file_bytes_written(void) { return file_bytes; }

/* Writes to a FILE (ctx), as val_write_file's writer when it marks dtypes: write_value knows it
   by its address. */
static int marking_writer(void *ctx, const char *s, size_t n)
{
    file_bytes += n;
    return fwrite(s, 1, n, ctx) == n ? 0 : -1;
}
static int plain_writer(void *ctx, const char *s, size_t n)
{
    file_bytes += n;
    return fwrite(s, 1, n, ctx) == n ? 0 : -1;
}

/* Writes a number or tensor; through the marking writer, a float or complex one between dtype
   markers naming the float dtype of its parts (tl --test's ulp tolerance reads them). */
static int write_numeric(Value v, tl_write_fn w, void *ctx)
{
    tl_dtype d = tl_dtype_real(v.kind == V_TENSOR ? v.as.t->dtype : (tl_dtype)v.dtype);
    bool mark = w == marking_writer && tl_is_float(d);
    if (mark && (w(ctx, (char[]){ MARK_OPEN }, 1) || write_str(w, ctx, MARK_DTYPE " ") || write_str(w, ctx, tl_dtype_name(d)) ||
                 w(ctx, (char[]){ MARK_CLOSE }, 1)))
        return -1;
    char buf[128];
    int rc = v.kind == V_TENSOR ? tl_fmt_tensor(v.as.t, &tl_print_options, w, ctx)
           : tl_fmt_scalar(v.as.num.bytes, (tl_dtype)v.dtype, buf, sizeof buf) < 0 ? -1 : write_str(w, ctx, buf);
    if (mark && (w(ctx, (char[]){ MARK_OPEN }, 1) || write_str(w, ctx, MARK_DTYPE) || w(ctx, (char[]){ MARK_CLOSE }, 1))) return -1;
    return rc;
}

int val_write_file(Value v, FILE *f, bool repr, bool mark_dtypes)
{
    tl_write_fn w = mark_dtypes ? marking_writer : plain_writer;
    file_bytes = 0;
    return repr ? val_write_repr(v, w, f) : val_write(v, w, f);
}

/* val_write for a value inside depth tuples and dicts. */
static int write_value(Value v, tl_write_fn w, void *ctx, int depth, const PrintPath *path)
{
    char buf[128];
    PrintPath here = { container_obj(v), path };   /* the path of v's items */
    switch (v.kind) {
    case V_NONE: return write_str(w, ctx, "none");
    case V_NUM:
    case V_TENSOR: return write_numeric(v, w, ctx);
    case V_STR: return w(ctx, v.as.s->data, v.as.s->len);
    case V_TUPLE: {
        if (w(ctx, "(", 1)) return -1;
        for (int i = 0; i < v.as.tu->n; i++) {
            if (i && w(ctx, ", ", 2)) return -1;
            if (write_nested(v.as.tu->items[i], w, ctx, depth + 1, &here)) return -1;
        }
        return write_str(w, ctx, v.as.tu->n == 1 ? ",)" : ")");
    }
    case V_LIST: {
        if (w(ctx, "[", 1)) return -1;
        for (int64_t i = 0; i < v.as.l->n; i++) {
            if (i && w(ctx, ", ", 2)) return -1;
            if (write_nested(v.as.l->items[i], w, ctx, depth + 1, &here)) return -1;
            if ((i & 1023) == 1023 && tl_check_interrupt()) return -1;
        }
        return w(ctx, "]", 1);
    }
    case V_DICT: {
        Dict *d = v.as.d;
        if (d->n == 0) return write_str(w, ctx, "{}");
        if (depth > 0) {   /* inside a tuple or list: as Python writes a dict, {'k': v, ...} */
            if (w(ctx, "{", 1)) return -1;
            for (int i = 0; i < d->n; i++) {
                if ((i && w(ctx, ", ", 2)) || str_write_repr(d->keys[i]->data, d->keys[i]->len, w, ctx) || w(ctx, ": ", 2))
                    return -1;
                if (write_nested(d->vals[i], w, ctx, depth + 1, &here)) return -1;
            }
            return w(ctx, "}", 1);
        }
        for (int i = 0; i < d->n; i++) {
            if (i && w(ctx, "\n", 1)) return -1;
            if (w(ctx, d->keys[i]->data, d->keys[i]->len) || w(ctx, ": ", 2)) return -1;
            if (write_summary(d->vals[i], w, ctx, depth + 1, &here)) return -1;
        }
        return 0;
    }
    case V_FUNC:
        snprintf(buf, sizeof buf, "<fn %s>", v.as.fn->def->name);
        return write_str(w, ctx, buf);
    case V_BUILTIN:
        snprintf(buf, sizeof buf, "<builtin %s>", v.as.bi->name);
        return write_str(w, ctx, buf);
    case V_ERROR: {
        char head[DIAG_HEAD_MAX];
        diag_headline(head, sizeof head, v.as.err->file, v.as.err->line, v.as.err->col, v.as.err->kind);
        const char *m = v.as.err->message;   /* its first line: the lines after it (aligned shapes) belong to the printed error */
        return write_str(w, ctx, head) || w(ctx, m, strcspn(m, "\n")) ? -1 : 0;
    }
    case V_GRAPH: return ((const ObjHead *)v.as.g)->write(v.as.g, w, ctx);
    case V_TRACE: tl_seterr(TypeError, GRAPH_NEEDS_VALUES " (printing reads them)"); return -1;
    default: return write_str(w, ctx, "<undefined>");
    }
}

int sb_write(void *ctx, const char *s, size_t n) { return sb_append(ctx, s, n) ? 0 : -1; }

bool val_format(StrBuf *b, Value v) { return val_write(v, sb_write, b) == 0; }

/* ---- frames ------------------------------------------------------------ */

Frame *frame_new(Frame *parent, int nslots)
{
    Frame *f = calloc(1, sizeof(Frame));
    if (!f) { tl_seterr(MemoryError, "out of memory"); return NULL; }
    f->refcount = 1;
    f->parent = parent;
    if (parent) parent->refcount++;
    if (!frame_ensure(f, nslots)) { free(f); if (parent) frame_release(parent); return NULL; }
    return f;
}

bool frame_ensure(Frame *f, int nslots)
{
    if (nslots <= f->cap) {
        if (nslots > f->nslots) f->nslots = nslots;
        return true;
    }
    int ncap = f->cap ? f->cap : 8;
    while (ncap < nslots) ncap *= 2;
    Value *ns = realloc(f->slots, (size_t)ncap * sizeof(Value));
    if (!ns) { tl_seterr(MemoryError, "out of memory"); return false; }
    for (int i = f->cap; i < ncap; i++) ns[i] = (Value){ .kind = V_UNDEF };
    f->slots = ns;
    f->cap = ncap;
    f->nslots = nslots;
    return true;
}

void frame_clear(Frame *f)
{
    for (int i = 0; i < f->nslots; i++) {
        Value v = f->slots[i];
        f->slots[i] = (Value){ .kind = V_UNDEF };
        val_release(v);
    }
}

void frame_release(Frame *f)
{
    if (--f->refcount == 0) {
        f->refcount = 1;           /* guard: releasing slots may come back here */
        f->collecting = true;
        frame_clear(f);
        free(f->slots);
        Frame *parent = f->parent;
        free(f);
        if (parent) frame_release(parent);
        return;
    }
    frame_collect_cycles(f);
}


/* fstring.c — f-strings: splitting one into text and fields (CPython 3.11's rules), and evaluating one */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_int.h"
#include "fstring.h"
#include "lexer.h"

/* ---- scanning ------------------------------------------------------------------------------ */

#define MAX_PAREN 200   /* brackets open at once inside one field's expression */

static FsItem scan_error(FsScan *sc, const char *at, const char *msg)
{
    sc->err = msg;
    sc->err_at = at;
    return FS_ERROR;
}

/* ASCII whitespace, as CPython's Py_ISSPACE. */
static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* A field's expression from sc->s (after the '{'): where it ends, as CPython's fstring_find_expr
   finds it; false with the error set. */
static bool scan_expression(FsScan *sc, FsField *f)
{
    static _Thread_local char msg[96];
    char stack[MAX_PAREN], quote = 0;
    int depth = 0;
    const char *s = sc->s, *end = sc->end;
    f->expr = s;
    for (; s < end; s++) {
        char c = *s;
        if (c == '\\') return scan_error(sc, s, "f-string expression part cannot include a backslash"), false;
        if (quote) {
            if (c == quote) quote = 0;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            if (depth >= MAX_PAREN) return scan_error(sc, s, "f-string: too many nested parenthesis"), false;
            stack[depth++] = c;
        } else if (c == '#') {
            return scan_error(sc, s, "f-string expression part cannot include '#'"), false;
        } else if (depth == 0 && c && strchr("!:}=<>", c)) {
            if (s + 1 < end && s[1] == '=' && c != ':' && c != '}') {   /* != == <= >= */
                s++;
                continue;
            }
            if (c == '<' || c == '>') continue;
            break;
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0) {
                snprintf(msg, sizeof msg, "f-string: unmatched '%c'", c);
                return scan_error(sc, s, msg), false;
            }
            char open = stack[--depth];
            if ((open == '(') != (c == ')') || (open == '[') != (c == ']')) {
                snprintf(msg, sizeof msg, "f-string: closing parenthesis '%c' does not match opening parenthesis '%c'", c, open);
                return scan_error(sc, s, msg), false;
            }
        }
    }
    if (quote) return scan_error(sc, f->expr, "f-string: unterminated string"), false;
    if (depth) {
        snprintf(msg, sizeof msg, "f-string: unmatched '%c'", stack[depth - 1]);
        return scan_error(sc, s, msg), false;
    }
    if (s >= end) return scan_error(sc, s, "f-string: expecting '}'"), false;
    f->expr_end = s;
    const char *p = f->expr;
    while (p < s && is_space(*p)) p++;
    if (p == s) return scan_error(sc, s, "f-string: empty expression not allowed"), false;
    sc->s = s;
    return true;
}

/* Records an error after the expression (FsField.err) and stops the field there. */
static FsItem field_error(FsScan *sc, FsField *f, const char *at, const char *msg)
{
    f->err = msg;
    f->err_at = at;
    sc->s = sc->end;
    return FS_FIELD;
}

/* After the expression: '=', '!c', ':spec', then the '}'. */
static FsItem scan_field_rest(FsScan *sc, FsField *f)
{
    const char *s = sc->s, *end = sc->end;
    if (*s == '=') {
        for (s++; s < end && is_space(*s); s++) {}
        f->debug_end = s;
        if (s >= end) return field_error(sc, f, s, "f-string: expecting '}'");
    }
    if (*s == '!') {
        if (++s >= end) return field_error(sc, f, s, "f-string: expecting '}'");
        f->conversion = *s;
        if (*s != 's' && *s != 'r' && *s != 'a')
            return field_error(sc, f, s, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
        s++;
    }
    if (s < end && *s == ':') {
        if (++s >= end) return field_error(sc, f, s, "f-string: expecting '}'");
        FsScan sub = { s, end, sc->level + 1, sc->raw, NULL, NULL };
        const char *t, *te;
        FsField inner;
        FsItem it;
        while ((it = fs_next(&sub, &t, &te, &inner)) != FS_END) {
            if (it == FS_ERROR) return field_error(sc, f, sub.err_at, sub.err);
            if (it == FS_FIELD && inner.err) return field_error(sc, f, inner.err_at, inner.err);
        }
        f->spec = s;
        f->spec_end = s = sub.s;
    }
    if (s >= end || *s != '}') return field_error(sc, f, s, "f-string: expecting '}'");
    sc->s = s + 1;
    return FS_FIELD;
}

FsItem fs_next(FsScan *sc, const char **text, const char **text_end, FsField *f)
{
    const char *start = sc->s, *s = sc->s, *end = sc->end;
    while (s < end) {
        char c = *s;
        if (c == '\\' && !sc->raw && s + 1 < end) {
            s += 2;
            continue;
        }
        if (c == '{' || c == '}') {
            if (sc->level == 0) {   /* doubled braces count only at the top: f'{x:{w}}' ends with two */
                if (s + 1 < end && s[1] == c) {
                    *text = start;
                    *text_end = s + 1;
                    sc->s = s + 2;
                    return FS_TEXT;
                }
                if (c == '}') return scan_error(sc, s, "f-string: single '}' is not allowed");
            }
            break;
        }
        s++;
    }
    sc->s = s;
    if (s > start) {
        *text = start;
        *text_end = s;
        return FS_TEXT;
    }
    if (s >= end || *s == '}') return FS_END;
    if (sc->level >= 2) return scan_error(sc, s, "f-string: expressions nested too deeply");
    memset(f, 0, sizeof *f);
    sc->s = s + 1;
    if (!scan_expression(sc, f)) return FS_ERROR;
    return scan_field_rest(sc, f);
}

/* ---- building the nodes -------------------------------------------------------------------- */

static void *fs_alloc(const FsParser *fp, size_t n)
{
    void *m = arena_alloc(fp->arena, n);
    if (!m) fp->fail(fp->p, NULL, "out of memory");
    return m;
}

/* A new node placed at byte `at` of the f-string. */
static Node *fs_node(const FsParser *fp, NodeKind kind, const char *at)
{
    Node *n = fs_alloc(fp, sizeof *n);
    n->kind = kind;
    n->at = fp->span_at(fp->p, at);
    return n;
}

/* Text pieces decoded into one N_STR until a field comes. */
typedef struct FsText {
    char *data;
    size_t len, cap;
    const char *at;
} FsText;

/* Appends text [s, e) to t, its escapes decoded (checked first) when decode. */
static void text_add(const FsParser *fp, FsText *t, const char *s, const char *e, bool decode)
{
    if (decode) {
        const char *msg;
        const char *bad = lexer_bad_escape(s, (size_t)(e - s), &msg);
        if (bad) fp->fail(fp->p, bad, msg);
    }
    size_t n = (size_t)(e - s);
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->len + n + 1) * 2;
        char *d = fs_alloc(fp, cap);
        if (t->len) memcpy(d, t->data, t->len);
        t->data = d;
        t->cap = cap;
    }
    if (!t->at) t->at = s;
    t->len += decode ? lexer_unescape(s, n, t->data + t->len) : (memcpy(t->data + t->len, s, n), n);
    t->data[t->len] = '\0';
}

/* The parts of an f-string as they are built. */
typedef struct FsList {
    Node **items;
    int n, cap;
} FsList;

/* Appends a part, growing the list in the arena. */
static void list_push(const FsParser *fp, FsList *l, Node *x)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 4;
        Node **m = fs_alloc(fp, (size_t)cap * sizeof *m);
        if (l->n) memcpy(m, l->items, (size_t)l->n * sizeof *m);
        l->items = m;
        l->cap = cap;
    }
    l->items[l->n++] = x;
}

/* Adds the text gathered so far as an N_STR part. */
static void text_flush(const FsParser *fp, FsText *t, FsList *l)
{
    if (!t->at) return;
    Node *s = fs_node(fp, N_STR, t->at);
    s->str = t->data;
    s->slen = t->len;
    list_push(fp, l, s);
    *t = (FsText){ 0 };
}

static Node *fs_parts(const FsParser *fp, const char *s, const char *end, bool raw, int level, const char *at);

/* A field's spec: constant text parsed once into fspec, or an N_FSTRING when it holds fields. */
static void field_spec(const FsParser *fp, Node *field, const FsField *f, bool raw, int level)
{
    Node *spec = fs_parts(fp, f->spec, f->spec_end, raw, level + 1, f->spec);
    if (spec->n == 0) {
        spec = fs_node(fp, N_STR, f->spec);
        spec->str = "";
    } else if (spec->n == 1 && spec->list[0]->kind == N_STR) {
        spec = spec->list[0];
    }
    field->b = spec;
    if (spec->kind == N_STR) {
        tl_fmtspec *parsed = fs_alloc(fp, sizeof *parsed);
        tl_fmtspec_parse(parsed, spec->str, spec->slen);
        field->fspec = parsed;
    }
}

/* The N_FSTRING of a body (level 0) or spec (level 1, 2) [s, end). */
static Node *fs_parts(const FsParser *fp, const char *s, const char *end, bool raw, int level, const char *at)
{
    Node *n = fs_node(fp, N_FSTRING, at);
    FsList parts = { 0 };
    FsText text = { 0 };
    FsScan sc = { s, end, level, raw, NULL, NULL };
    const char *t, *te;
    FsField f;
    FsItem it;
    while ((it = fs_next(&sc, &t, &te, &f)) != FS_END) {
        if (it == FS_ERROR) fp->fail(fp->p, sc.err_at, sc.err);
        if (it == FS_TEXT) {
            text_add(fp, &text, t, te, !raw);
            continue;
        }
        if (f.debug_end) text_add(fp, &text, f.expr, f.debug_end, false);
        text_flush(fp, &text, &parts);
        Node *field = fs_node(fp, N_FIELD, f.expr);
        field->a = fp->expression(fp->p, f.expr, f.expr_end);
        if (f.err) fp->fail(fp->p, f.err_at, f.err);
        field->op = f.conversion ? f.conversion : f.debug_end && !f.spec ? 'r' : 0;
        if (f.spec) field_spec(fp, field, &f, raw, level);
        list_push(fp, &parts, field);
    }
    text_flush(fp, &text, &parts);
    n->list = parts.items;
    n->n = parts.n;
    return n;
}

Node *fs_build(const FsParser *fp, const char *body, const char *end, bool raw, const char *at)
{
    return fs_parts(fp, body, end, raw, 0, at);
}

/* ---- evaluating ------------------------------------------------------------------------------ */

/* The text being built: on the stack while it is short (the common case allocates only the result). */
typedef struct FBuf {
    char *p;
    size_t n, cap;
    char small[240];
} FBuf;

/* An empty buffer on its own stack space. */
static void fbuf_init(FBuf *b)
{
    b->p = b->small;
    b->n = 0;
    b->cap = sizeof b->small;
}

/* The tl_write_fn that appends to an FBuf (moving to the heap when it outgrows the stack). */
static int fbuf_write(void *ctx, const char *s, size_t n)
{
    FBuf *b = ctx;
    if (n > b->cap - b->n) {
        size_t cap = b->cap * 2;
        while (cap - b->n < n) cap *= 2;
        char *p = b->p == b->small ? malloc(cap) : realloc(b->p, cap);
        if (!p) {
            tl_seterr(MemoryError, "out of memory");
            return -1;
        }
        if (b->p == b->small) memcpy(p, b->small, b->n);
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    return 0;
}

/* Frees an FBuf's heap memory, if it took any. */
static void fbuf_free(FBuf *b)
{
    if (b->p != b->small) free(b->p);
}

static bool fstring_build(Ctx *C, Node *n, FBuf *b);

/* One field: its value through its conversion and spec (a spec holding fields is built first). */
static bool field_write(Ctx *C, Node *f, FBuf *b)
{
    const tl_fmtspec *spec = f->fspec;
    tl_fmtspec built;
    FBuf text;
    fbuf_init(&text);
    if (f->b && f->b->kind == N_FSTRING) {
        if (!fstring_build(C, f->b, &text)) {
            fbuf_free(&text);
            return false;
        }
        tl_fmtspec_parse(&built, text.p, text.n);
        spec = &built;
    }
    Value v;
    bool ok = eval_expr(C, f->a, &v);
    if (ok) {
        int rc = f->op ? val_write_field(v, f->op, spec, fbuf_write, b) : val_write_spec(v, spec, fbuf_write, b);
        ok = rc == 0 || interp_error_rt(C->I, f->at);
        val_release(v);
    }
    fbuf_free(&text);
    return ok;
}

/* Appends the parts of an f-string (or of a spec holding fields) to b. */
static bool fstring_build(Ctx *C, Node *n, FBuf *b)
{
    for (int i = 0; i < n->n; i++) {
        Node *part = n->list[i];
        if (part->kind != N_STR) {
            if (!field_write(C, part, b)) return false;
        } else if (fbuf_write(b, part->str, part->slen) < 0) {
            return interp_error_rt(C->I, n->at);
        }
    }
    return true;
}

bool eval_fstring(Ctx *C, Node *n, Value *out)
{
    FBuf b;
    fbuf_init(&b);
    bool ok = fstring_build(C, n, &b);
    if (ok) {
        *out = val_str(b.p, b.n);
        if (out->kind != V_STR) ok = interp_error_rt(C->I, n->at);
    }
    fbuf_free(&b);
    return ok;
}

/* parse.c — the Pratt parser: one table maps each token to its prefix handler, infix handler and binding power */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstring.h"
#include "hint.h"
#include "lexer.h"
#include "parse_int.h"

/* Each context's opening bracket, as messages and the shell's prompt show it. */
static const char opener[] = { [CTX_PAREN] = '(', [CTX_BRACKET] = '[', [CTX_DICT] = '{', [CTX_BLOCK] = '{' };
static const TokenKind closer[] = { [CTX_PAREN] = TK_RPAREN, [CTX_BRACKET] = TK_RBRACKET, [CTX_DICT] = TK_RBRACE,
                                    [CTX_BLOCK] = TK_RBRACE };

/* Binding powers, lowest first (docs/language.md §3). */
enum {
    BP_NONE = 0,
    BP_COND = 10,     /* x if c else y */
    BP_OR = 20,
    BP_AND = 30,
    BP_NOT = 40,      /* prefix not */
    BP_BOR = 50,      /* | */
    BP_BXOR = 55,     /* ^ */
    BP_BAND = 60,     /* & */
    BP_CMP = 70,      /* == != < <= > >= */
    BP_SHIFT = 75,    /* << >> */
    BP_ADD = 80,
    BP_MUL = 90,      /* * / // % @ */
    BP_UNARY = 100,   /* prefix - + ~ */
    BP_POW = 110,     /* ** (right-associative) */
    BP_POSTFIX = 120, /* call, index, attribute */
};

typedef Node *(*PrefixFn)(Parser *p);
typedef Node *(*InfixFn)(Parser *p, Node *left);
typedef struct Rule {
    PrefixFn prefix;
    InfixFn infix;
    int lbp;          /* how strongly the infix form binds to its left operand */
    int binop;        /* the operator the infix form stands for (tl_binop or OP_MATMUL) */
    UnaryOp unop;     /* the operator the prefix form stands for (unary_expr) */
} Rule;

static const Rule rules[TK_COUNT];

/* ---- errors ---- */

_Noreturn void ps_fail_at(Parser *p, Span at, const char *fmt, ...)
{
    if (p->err) {
        char msg[DIAG_MSG_MAX];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        diag_set(p->err, at, TL_E_SyntaxError, "%s", msg);
    }
    longjmp(p->fail, 1);
}

Span ps_span_of(const Parser *p, const Token *t)
{
    return (Span){ .src = p->src, .line = t->line, .col = t->col };
}

/* How a token reads in "found X": end of input, ')', name 'x', number. */
static const char *describe(const Token *t, char *buf, size_t size)
{
    switch (t->kind) {
    case TK_NAME:
        snprintf(buf, size, "name '%.*s%s'", t->len > 40 ? 40 : (int)t->len, t->start,
                 t->len > 40 ? "..." : "");
        return buf;
    case TK_INT: case TK_FLOAT: case TK_IMAG: return "number";
    default: return token_kind_name(t->kind);
    }
}

static bool is_word_or_punct(TokenKind k)
{
    return k >= TK_FN && k < TK_COUNT;
}

static void fail_if_never_closed(Parser *p);

/* Reports an error at the current token as a habit from Python when it is one: the current token
   or the one before it is a Python keyword tl does not have ("Python's 'def': tl defines a
   function with fn: ..."), or a block opened with ':' instead of '{'. */
void ps_fail_if_habit(Parser *p)
{
    const Token *ts[2] = { &p->tok, &p->prev };
    for (int i = 0; i < 2; i++) {
        const char *hint = ts[i]->kind == TK_NAME ? hint_habit(ts[i]->start, ts[i]->len, true) : NULL;
        if (hint) ps_fail_at(p, ps_span_of(p, ts[i]), "Python's '%.*s': %s", (int)ts[i]->len, ts[i]->start, hint);
    }
}

/* Python's x //= y (and %= **= &= |= ^= <<= >>=) reads as the operator followed by '=':
   says which augmented assignments tl has, at the operator. */
static void fail_if_python_augmented(Parser *p)
{
    static const TokenKind ops[] = { TK_DSLASH, TK_PERCENT, TK_DSTAR, TK_AMP, TK_PIPE, TK_CARET, TK_SHL, TK_SHR };
    if (p->tok.kind != TK_ASSIGN) return;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)   /* (before the first token, prev is empty) */
        if (p->prev.kind == ops[i] && p->prev.start + p->prev.len == p->tok.start)
            ps_fail_at(p, ps_span_of(p, &p->prev), "'%.*s=' is not an operator in tl (its augmented assignments are "
                       "+= -= *= /= @=): write x = x %.*s y", (int)p->prev.len, p->prev.start, (int)p->prev.len,
                       p->prev.start);
}

_Noreturn void ps_fail_unexpected(Parser *p)
{
    if (p->sub_expr && p->tok.kind == TK_EOF) fail_here(p, "f-string: the expression ends unfinished");
    fail_if_never_closed(p);
    ps_fail_if_habit(p);
    fail_if_python_augmented(p);
    char buf[64];
    const char *what = describe(&p->tok, buf, sizeof buf);
    if (is_word_or_punct(p->tok.kind)) fail_here(p, "unexpected token %s", what);
    fail_here(p, "unexpected %s", what);
}

_Noreturn void ps_fail_expected(Parser *p, const char *expected)
{
    fail_if_never_closed(p);
    ps_fail_if_habit(p);
    fail_if_python_augmented(p);
    if (p->tok.kind == TK_COLON && strcmp(expected, "'{'") == 0)
        fail_here(p, "expected '{' but found ':'; tl's blocks are in braces, not after a colon: if c { ... }");
    char buf[64];
    fail_here(p, "expected %s but found %s", expected, describe(&p->tok, buf, sizeof buf));
}

/* Errors that no further input can fix: never "incomplete", even at the end of input. */
static _Noreturn void fail_final(Parser *p, const char *msg)
{
    ps_fail_at(p, ps_span_of(p, &p->tok), "%s", msg);
}

/* ---- tokens and bracket context ---- */

static bool newlines_ignored(const Parser *p)
{
    return p->nctx > 0 && p->ctx[p->nctx - 1] != CTX_BLOCK;
}

/* Consumes the current token and reads the next one (skipping newlines inside brackets). */
void ps_advance(Parser *p)
{
    Token t;
    do t = lexer_next(&p->lx);
    while (t.kind == TK_NEWLINE && newlines_ignored(p));
    p->prev = p->tok;
    p->tok = t;
    if (t.kind == TK_ERROR) {
        p->incomplete = strcmp(t.error, LEX_UNTERMINATED) == 0;
        if (p->incomplete) p->open_quote = (char)t.start[strcspn(t.start, "'\"")];
        ps_fail_at(p, ps_span_of(p, &t), "%s", t.error);
    }
}

/* Kind of the token after the current one, without consuming anything. */
TokenKind ps_peek_kind(Parser *p)
{
    Lexer copy = p->lx;
    Token t;
    do t = lexer_next(&copy);
    while (t.kind == TK_NEWLINE && newlines_ignored(p));
    return t.kind;
}

bool ps_at(const Parser *p, TokenKind k) { return p->tok.kind == k; }

void ps_expect(Parser *p, TokenKind k)
{
    if (!ps_at(p, k)) ps_fail_expected(p, token_kind_name(k));
    ps_advance(p);
}

/* Enters a bracket's newline context, opened at (line, col). */
static void push_context(Parser *p, int ctx, int line, int col)
{
    if (p->nctx >= (int)sizeof p->ctx) fail_final(p, "nesting too deep");
    p->ctx[p->nctx] = (unsigned char)ctx;
    p->open_line[p->nctx] = line;
    p->open_col[p->nctx++] = col;
}

/* Consumes an opening bracket and enters its newline context. */
void ps_open_bracket(Parser *p, int ctx)
{
    push_context(p, ctx, p->tok.line, p->tok.col);
    ps_advance(p);
}

/* Whether a closer of the innermost open bracket comes later in the input: the scan from the
   current token keeps its own count of the brackets it opens, and stops at the first closer
   of one it did not open (the innermost's, when it matches) or at the end of the input. */
static bool closed_later(Parser *p)
{
    Lexer copy = p->lx;
    long depth = 0;
    for (Token t = p->tok;; t = lexer_next(&copy)) {
        switch (t.kind) {
        case TK_LPAREN: case TK_LBRACKET: case TK_LBRACE: depth++; break;
        case TK_RPAREN: case TK_RBRACKET: case TK_RBRACE:
            if (depth-- == 0) return t.kind == closer[p->ctx[p->nctx - 1]];
            break;
        case TK_EOF: return false;
        case TK_ERROR: return true;   /* unknown: the error as found stands */
        default: break;
        }
    }
}

/* Reports an error at the current token as the innermost open bracket's, as Python 3.10 does,
   when it is one: a closer of another kind ("closing ']' does not match the '(' on line 2"), or
   a bracket never closed, reported where it was opened: the input ends inside it, or the error
   is on a later line than the bracket and no closer for it follows. */
static void fail_if_never_closed(Parser *p)
{
    if (p->nctx == 0 || p->sub_expr) return;
    int i = p->nctx - 1;
    if (p->open_line[i] == 0) return;
    TokenKind k = p->tok.kind;
    if ((k == TK_RPAREN || k == TK_RBRACKET || k == TK_RBRACE) && k != closer[p->ctx[i]])
        ps_fail_at(p, ps_span_of(p, &p->tok), "closing '%c' does not match the '%c' on line %d", *p->tok.start, opener[p->ctx[i]],
                p->open_line[i]);
    bool at_end = k == TK_EOF;
    if (!at_end && (p->tok.line <= p->open_line[i] || closed_later(p))) return;
    p->incomplete = at_end;
    ps_fail_at(p, (Span){ .src = p->src, .line = p->open_line[i], .col = p->open_col[i] }, "'%c' was never closed", opener[p->ctx[i]]);
}

/* Consumes the closing bracket `k`; the context is left before reading on, so the
   token after it is read under the outer rules. */
void ps_close_bracket(Parser *p, TokenKind k)
{
    if (!ps_at(p, k)) ps_fail_expected(p, token_kind_name(k));
    p->nctx--;
    ps_advance(p);
}

void ps_enter(Parser *p)
{
    if (++p->depth > MAX_NESTING) fail_final(p, "nesting too deep");
}

void ps_leave(Parser *p) { p->depth--; }

/* ---- allocation ---- */

void *ps_alloc(Parser *p, size_t n)
{
    void *m = arena_alloc(p->arena, n);
    if (!m) fail_final(p, "out of memory");
    return m;
}

Node *ps_new_node(Parser *p, NodeKind kind, Span at)
{
    Node *n = ps_alloc(p, sizeof *n);
    n->kind = kind;
    n->at = at;
    return n;
}

Node *ps_node_here(Parser *p, NodeKind kind) { return ps_new_node(p, kind, ps_span_of(p, &p->tok)); }

char *ps_token_text(Parser *p, const Token *t)
{
    char *s = arena_strndup(p->arena, t->start, t->len);
    if (!s) fail_final(p, "out of memory");
    return s;
}

static void *grow(Parser *p, void *old, int n, int cap, size_t size)
{
    void *m = ps_alloc(p, (size_t)cap * size);
    if (n) memcpy(m, old, (size_t)n * size);
    return m;
}

void ps_vec_push_named(Parser *p, NodeVec *v, Node *item, char *name, Span at)
{
    if (v->n == v->cap) {
        if (v->cap > (1 << 28)) fail_final(p, "too many items");
        int cap = v->cap ? v->cap * 2 : 4;
        v->items = grow(p, v->items, v->n, cap, sizeof *v->items);
        if (v->named) {
            v->names = grow(p, v->names, v->n, cap, sizeof *v->names);
            v->spans = grow(p, v->spans, v->n, cap, sizeof *v->spans);
        }
        v->cap = cap;
    }
    v->items[v->n] = item;
    if (v->named) {
        v->names[v->n] = name;
        v->spans[v->n] = at;
    }
    v->n++;
}

void ps_vec_push(Parser *p, NodeVec *v, Node *item) { ps_vec_push_named(p, v, item, NULL, item->at); }

void ps_set_list(Node *n, const NodeVec *v)
{
    n->list = v->n ? v->items : NULL;
    n->n = v->n;
}

/* Orders indices into names[] by name, then by position. */
static int cmp_by_name(const void *a, const void *b, void *names)
{
    int i = *(const int *)a, j = *(const int *)b;
    int c = strcmp(((char **)names)[i], ((char **)names)[j]);
    return c ? c : (i > j) - (i < j);
}

/* Position of the first name in names[from..n) that repeats an earlier one there, or -1 (NULL
   names skipped).
   Sorting keeps this O(n log n) for machine-written calls with huge argument lists. */
int ps_find_repeated(Parser *p, char **names, int from, int n)
{
    int count = 0;
    int *idx = ps_alloc(p, (size_t)(n > from ? n - from : 1) * sizeof *idx);
    for (int i = from; i < n; i++)
        if (names[i]) idx[count++] = i;   /* (a **a argument has no name) */
    if (count < 2) return -1;
    qsort_r(idx, (size_t)count, sizeof *idx, cmp_by_name, names);
    int first = -1;
    for (int i = 1; i < count; i++)
        if (strcmp(names[idx[i - 1]], names[idx[i]]) == 0 && (first < 0 || idx[i] < first))
            first = idx[i];
    return first;
}

/* The first token's position of an expression (binary nodes point at their operator).
   A loop, not recursion: left spines can be very long. */
Span node_start(const Node *n)
{
    for (;;) {
        switch (n->kind) {
        case N_BINARY: case N_AND: case N_OR: case N_COND: case N_CALL:
        case N_METHOD: case N_ATTR: case N_INDEX:
            n = n->a;
            break;
        default:
            return n->at;
        }
    }
}

/* ---- expressions ---- */

static Node *parse_expr(Parser *p, int rbp);

/* The Pratt loop: a prefix form, then infix forms while they bind tighter than rbp. */
static Node *parse_expr(Parser *p, int rbp)
{
    ps_enter(p);
    PrefixFn prefix = rules[p->tok.kind].prefix;
    if (!prefix) ps_fail_unexpected(p);
    Node *left = prefix(p);
    while (rules[p->tok.kind].lbp > rbp) left = rules[p->tok.kind].infix(p, left);
    ps_leave(p);
    return left;
}

Node *ps_expression(Parser *p) { return parse_expr(p, BP_NONE); }

bool ps_starts_expression(const Parser *p) { return rules[p->tok.kind].prefix != NULL; }

bool ps_kind_starts_operand_only(TokenKind k) { return rules[k].prefix != NULL && rules[k].infix == NULL; }

static Node *literal(Parser *p)
{
    static const NodeKind kinds[TK_COUNT] = {
        [TK_INT] = N_INT, [TK_FLOAT] = N_FLOAT, [TK_IMAG] = N_IMAG, [TK_STRING] = N_STR,
        [TK_TRUE] = N_TRUE, [TK_FALSE] = N_FALSE, [TK_NONE] = N_NONE,
    };
    Node *n = ps_node_here(p, kinds[p->tok.kind]);
    n->ival = p->tok.ival;
    n->fval = p->tok.fval;
    n->str = p->tok.str;
    n->slen = p->tok.slen;
    ps_advance(p);
    return n;
}

Node *ps_name_expr(Parser *p)
{
    Node *n = ps_node_here(p, N_NAME);
    n->name = ps_token_text(p, &p->tok);
    ps_advance(p);
    return n;
}

/* - + ~ */
static Node *unary_expr(Parser *p)
{
    Node *n = ps_node_here(p, N_UNARY);
    n->op = rules[p->tok.kind].unop;
    ps_advance(p);
    n->a = parse_expr(p, BP_UNARY);
    return n;
}

static Node *not_expr(Parser *p)
{
    Node *n = ps_node_here(p, N_UNARY);
    n->op = UOP_NOT;
    ps_advance(p);
    n->a = parse_expr(p, BP_NOT);
    return n;
}

static Node *comprehension(Parser *p, Node *n, NodeKind kind, TokenKind close);

/* Python's generator expression, `(e for x in it ...)` or a call's only argument `f(e for x in
   it)`, from its item on (the '(' open): evaluated at once, as [e for x in it ...] is. */
static Node *generator_expr(Parser *p, Node *item, Span at)
{
    Node *n = ps_new_node(p, N_LIST, at);
    n->a = item;
    return comprehension(p, n, N_LISTCOMP, TK_RPAREN);
}

Node *ps_display_item(Parser *p, bool *splat)
{
    if (!ps_at(p, TK_STAR)) return parse_expr(p, BP_NONE);
    Node *s = ps_node_here(p, N_STARARG);
    ps_advance(p);
    s->a = parse_expr(p, BP_NONE);
    *splat = true;
    return s;
}

Node *ps_tuple_rest(Parser *p, Node *first, bool splat, Span at, TokenKind end)
{
    Node *t = ps_new_node(p, N_TUPLE, at);
    NodeVec items = {0};
    ps_vec_push(p, &items, first);
    while (ps_at(p, TK_COMMA)) {
        ps_advance(p);
        if (end == TK_COUNT ? !ps_starts_expression(p) && !ps_at(p, TK_STAR) : ps_at(p, end)) break;
        ps_vec_push(p, &items, ps_display_item(p, &splat));
    }
    t->splat = splat;
    ps_set_list(t, &items);
    return t;
}

/* Refuses a starred item where it cannot splice: alone in parentheses, or (comprehension) as
   a comprehension's item. */
static void no_lone_star(Parser *p, const Node *item, bool comprehension)
{
    if (item->kind != N_STARARG) return;
    const char *x = starred_name(item);
    if (comprehension) ps_fail_at(p, item->at, "a starred *%s cannot be a comprehension's item", x);
    ps_fail_at(p, item->at, "a starred *%s cannot stand alone in parentheses: write (*%s,) for a tuple of its items", x, x);
}

/* (x) is x; () (x,) (x, y) are tuples, where *xs splices xs's items; (e for x in it) is a
   generator expression. */
static Node *paren_expr(Parser *p)
{
    Span open_at = ps_span_of(p, &p->tok);
    ps_open_bracket(p, CTX_PAREN);
    if (ps_at(p, TK_RPAREN)) {
        ps_close_bracket(p, TK_RPAREN);
        return ps_new_node(p, N_TUPLE, open_at);
    }
    bool splat = false;
    Node *first = ps_display_item(p, &splat);
    if (ps_at(p, TK_RPAREN)) {
        no_lone_star(p, first, false);
        ps_close_bracket(p, TK_RPAREN);
        return first;
    }
    if (ps_at(p, TK_FOR)) {   /* (e for x in it) */
        no_lone_star(p, first, true);
        return generator_expr(p, first, open_at);
    }
    Node *t = ps_tuple_rest(p, first, splat, open_at, TK_RPAREN);
    ps_close_bracket(p, TK_RPAREN);
    return t;
}

/* Comma-separated items of `display` up to `close` (trailing comma allowed), e.g. a list literal. */
static void parse_items(Parser *p, Node *display, NodeVec *v, TokenKind close)
{
    while (!ps_at(p, close)) {
        ps_vec_push(p, v, ps_display_item(p, &display->splat));
        if (!ps_at(p, TK_COMMA)) break;
        ps_advance(p);
    }
    ps_close_bracket(p, close);
}

static Node *list_expr(Parser *p)
{
    Node *n = ps_node_here(p, N_LIST);
    ps_open_bracket(p, CTX_BRACKET);
    NodeVec items = {0};
    if (!ps_at(p, TK_RBRACKET)) {
        Node *first = ps_display_item(p, &n->splat);
        if (ps_at(p, TK_FOR)) {   /* [e for x in it ...] */
            no_lone_star(p, first, true);
            n->a = first;
            return comprehension(p, n, N_LISTCOMP, TK_RBRACKET);
        }
        ps_vec_push(p, &items, first);
        if (ps_at(p, TK_COMMA)) ps_advance(p);
        else {
            ps_close_bracket(p, TK_RBRACKET);
            ps_set_list(n, &items);
            return n;
        }
    }
    parse_items(p, n, &items, TK_RBRACKET);
    ps_set_list(n, &items);
    return n;
}

/* {k: v, ...}, where **d merges dict d's entries (a key-value pair whose key is the
   N_STARSTAR and whose value is an N_NONE not evaluated); {k: v for ...}. */
static Node *dict_expr(Parser *p)
{
    Node *n = ps_node_here(p, N_DICT);
    ps_open_bracket(p, CTX_DICT);
    NodeVec kv = {0};
    while (!ps_at(p, TK_RBRACE)) {
        if (ps_at(p, TK_DSTAR)) {
            Node *s = ps_node_here(p, N_STARSTAR);
            ps_advance(p);
            s->a = parse_expr(p, BP_NONE);
            n->splat = true;
            ps_vec_push(p, &kv, s);
            ps_vec_push(p, &kv, ps_new_node(p, N_NONE, s->at));
            if (!ps_at(p, TK_COMMA)) break;
            ps_advance(p);
            continue;
        }
        ps_vec_push(p, &kv, parse_expr(p, BP_NONE));
        if (!ps_at(p, TK_COLON)) ps_fail_expected(p, "':' after a dict key");
        ps_advance(p);
        ps_vec_push(p, &kv, parse_expr(p, BP_NONE));
        if (kv.n == 2 && !n->splat && ps_at(p, TK_FOR)) {   /* {k: v for x in it ...} */
            n->a = kv.items[0];
            n->b = kv.items[1];
            return comprehension(p, n, N_DICTCOMP, TK_RBRACE);
        }
        if (!ps_at(p, TK_COMMA)) break;
        ps_advance(p);
    }
    ps_close_bracket(p, TK_RBRACE);
    ps_set_list(n, &kv);
    return n;
}

static Node *lambda_expr(Parser *p)
{
    Node *n = ps_node_here(p, N_LAMBDA);
    ps_advance(p);
    n->fn = ps_fn_rest(p, "<lambda>", n->at);
    return n;
}

/* A binary operator whose right operand binds tighter than rbp. */
static Node *binary_operands(Parser *p, Node *left, int rbp)
{
    Node *n = ps_node_here(p, N_BINARY);
    n->op = rules[p->tok.kind].binop;
    ps_advance(p);
    n->a = left;
    n->b = parse_expr(p, rbp);
    return n;
}

/* Binary operators that group to the left: a - b - c is (a - b) - c. */
static Node *binary_left(Parser *p, Node *left)
{
    return binary_operands(p, left, rules[p->tok.kind].lbp);
}

/* ** groups to the right: 2**3**2 is 2**(3**2). */
static Node *binary_right(Parser *p, Node *left)
{
    return binary_operands(p, left, rules[p->tok.kind].lbp - 1);
}

static Node *comparison(Parser *p, Node *left)
{
    Node *n = binary_left(p, left);
    if (rules[p->tok.kind].lbp == BP_CMP) fail_here(p, "comparison operators cannot be chained");
    return n;
}

static Node *and_or_expr(Parser *p, Node *left)
{
    Node *n = ps_node_here(p, ps_at(p, TK_AND) ? N_AND : N_OR);
    int bp = rules[p->tok.kind].lbp;
    ps_advance(p);
    n->a = left;
    n->b = parse_expr(p, bp);
    return n;
}

/* x in c, x not in c: comparison-level operators (N_IN; op 1 for `not in`), not chained. */
static Node *in_expr(Parser *p, Node *left)
{
    Node *n = ps_node_here(p, N_IN);
    if (ps_at(p, TK_NOT)) {
        ps_advance(p);
        if (!ps_at(p, TK_IN)) ps_fail_expected(p, "'in' after 'not'");
        n->op = 1;
    }
    ps_advance(p);
    n->a = left;
    n->b = parse_expr(p, BP_CMP);
    if (rules[p->tok.kind].lbp == BP_CMP) fail_here(p, "comparison operators cannot be chained");
    return n;
}

/* then if cond else other: the else part may itself be a conditional. */
static Node *cond_expr(Parser *p, Node *left)
{
    Node *n = ps_node_here(p, N_COND);
    ps_advance(p);
    n->a = left;
    n->b = parse_expr(p, BP_COND);
    if (!ps_at(p, TK_ELSE)) ps_fail_expected(p, "'else'");
    ps_advance(p);
    n->c = parse_expr(p, BP_COND - 1);
    return n;
}

/* Arguments after '(': positional, then name=value; the ')' is consumed. */
static void parse_args(Parser *p, Node *call)
{
    ps_open_bracket(p, CTX_PAREN);
    NodeVec args = { .named = true };
    int first_kw = -1;
    while (!ps_at(p, TK_RPAREN)) {
        if (ps_at(p, TK_NAME) && ps_peek_kind(p) == TK_ASSIGN) {
            Span name_at = ps_span_of(p, &p->tok);
            char *name = ps_token_text(p, &p->tok);
            ps_advance(p);
            ps_advance(p);
            if (first_kw < 0) first_kw = args.n;
            ps_vec_push_named(p, &args, parse_expr(p, BP_NONE), name, name_at);
        } else if (ps_at(p, TK_DSTAR) || ps_at(p, TK_STAR)) {   /* **d (with the keywords), *xs (positional) */
            bool names = ps_at(p, TK_DSTAR);
            if (!names && first_kw >= 0) fail_here(p, "*iterable follows a keyword argument; put it before the keywords");
            Node *s = ps_node_here(p, names ? N_STARSTAR : N_STARARG);
            ps_advance(p);
            s->a = parse_expr(p, BP_NONE);
            if (names && first_kw < 0) first_kw = args.n;
            ps_vec_push_named(p, &args, s, NULL, s->at);
            call->splat = true;
        } else {
            if (first_kw >= 0) fail_here(p, "positional argument follows keyword argument");
            Node *e = parse_expr(p, BP_NONE);
            if (ps_at(p, TK_FOR)) {   /* f(e for x in it): the call's one argument */
                if (args.n) fail_here(p, "a generator expression must be the call's only argument, or in parentheses");
                ps_vec_push(p, &args, generator_expr(p, e, e->at));
                ps_set_list(call, &args);
                call->names = NULL;
                return;
            }
            ps_vec_push(p, &args, e);
        }
        if (!ps_at(p, TK_COMMA)) break;
        ps_advance(p);
    }
    ps_close_bracket(p, TK_RPAREN);
    if (first_kw >= 0) {
        int dup = ps_find_repeated(p, args.names, first_kw, args.n);
        if (dup >= 0) ps_fail_at(p, args.spans[dup], "keyword argument repeated: %s", args.names[dup]);
    }
    ps_set_list(call, &args);
    call->names = args.n ? args.names : NULL;
}

static Node *call_expr(Parser *p, Node *left)
{
    Node *n = ps_node_here(p, N_CALL);
    n->a = left;
    parse_args(p, n);
    return n;
}

/* One index item: an expression, a slice a:b:c with any part omitted, or '...'. */
static Node *index_item(Parser *p)
{
    if (ps_at(p, TK_ELLIPSIS)) {
        Node *e = ps_node_here(p, N_ELLIPSIS);
        ps_advance(p);
        return e;
    }
    Node *start = NULL;
    if (!ps_at(p, TK_COLON)) {
        start = parse_expr(p, BP_NONE);
        if (!ps_at(p, TK_COLON)) return start;
    }
    Node *s = ps_node_here(p, N_SLICE);
    s->a = start;
    ps_advance(p);
    if (!ps_at(p, TK_COLON) && !ps_at(p, TK_COMMA) && !ps_at(p, TK_RBRACKET)) s->b = parse_expr(p, BP_NONE);
    if (ps_at(p, TK_COLON)) {
        ps_advance(p);
        if (!ps_at(p, TK_COMMA) && !ps_at(p, TK_RBRACKET)) s->c = parse_expr(p, BP_NONE);
    }
    return s;
}

static Node *index_expr(Parser *p, Node *left)
{
    Node *n = ps_node_here(p, N_INDEX);
    n->a = left;
    ps_open_bracket(p, CTX_BRACKET);
    NodeVec items = {0};
    do {
        if (items.n) ps_advance(p);               /* the ',' */
        if (items.n && ps_at(p, TK_RBRACKET)) break;
        ps_vec_push(p, &items, index_item(p));
    } while (ps_at(p, TK_COMMA));
    ps_close_bracket(p, TK_RBRACKET);
    ps_set_list(n, &items);
    return n;
}

/* ---- f-strings: src/fstring.c splits them; the parser parses each field's expression ---- */

/* The place of byte `at` of the current token's text (an f-string may span lines). */
static Span span_in_token(const Parser *p, const char *at)
{
    const Token *t = &p->tok;
    Span sp = ps_span_of(p, t);
    const char *line_start = t->start - (t->col - 1);
    for (const char *q = t->start; q < at; q++)
        if (*q == '\n') sp.line++, line_start = q + 1;
    sp.col = (int32_t)(at - line_start) + 1;
    return sp;
}

static Span fs_span_at(void *p, const char *at) { return span_in_token(p, at); }

static void fs_fail(void *pv, const char *at, const char *msg)
{
    Parser *p = pv;
    ps_fail_at(p, at ? span_in_token(p, at) : ps_span_of(p, &p->tok), "%s", msg);
}

/* A field's expression up to the end of its text: as in Python, items separated by commas
   (where *xs splices) make a tuple, f"{a, b}". */
static Node *field_items(Parser *p, Span at)
{
    bool splat = false;
    Node *first = ps_display_item(p, &splat);
    if (!ps_at(p, TK_COMMA)) {
        no_lone_star(p, first, false);
        return first;
    }
    return ps_tuple_rest(p, first, splat, at, TK_EOF);
}

/* A field's expression [start, end) of the current f-string token, lexed from a copy of its line
   (so columns stay those of the source) as if inside parentheses; the token is kept. */
static Node *fs_expression(void *pv, const char *start, const char *end)
{
    Parser *p = pv;
    Span where = span_in_token(p, start);
    const char *line_start = start - (where.col - 1);
    size_t len = (size_t)(end - line_start);
    char *copy = ps_alloc(p, len + 1);
    memcpy(copy, line_start, len);
    copy[len] = '\0';
    Lexer saved_lx = p->lx;
    Token saved_tok = p->tok;
    bool saved_sub = p->sub_expr;
    p->lx.cur = (const unsigned char *)copy + (start - line_start);
    p->lx.lim = (const unsigned char *)copy + len;
    p->lx.line_start = (const unsigned char *)copy;
    p->lx.line = where.line;
    p->sub_expr = true;
    push_context(p, CTX_PAREN, 0, 0);
    ps_advance(p);
    Node *e = field_items(p, where);
    if (!ps_at(p, TK_EOF)) ps_fail_unexpected(p);
    p->nctx--;
    p->lx = saved_lx;
    p->tok = saved_tok;
    p->sub_expr = saved_sub;
    return e;
}

/* f"..." (also f'...', rf"...", fr"..."): an N_FSTRING of text and fields. */
static Node *fstring_expr(Parser *p)
{
    const Token *t = &p->tok;
    size_t prefix = t->start[1] == '"' || t->start[1] == '\'' ? 1 : 2;
    bool raw = prefix == 2;
    FsParser fp = { p, p->arena, fs_span_at, fs_expression, fs_fail };
    Node *n = fs_build(&fp, t->start + prefix + 1, t->start + t->len - 1, raw, t->start);
    ps_advance(p);
    return n;
}

/* a.name is N_ATTR; a.name(args) is N_METHOD. Both point at the name. */
static Node *attr_expr(Parser *p, Node *left)
{
    ps_advance(p);
    if (!ps_at(p, TK_NAME)) ps_fail_expected(p, "a name after '.'");
    Node *n = ps_node_here(p, N_ATTR);
    n->a = left;
    n->name = ps_token_text(p, &p->tok);
    ps_advance(p);
    if (ps_at(p, TK_LPAREN)) {
        n->kind = N_METHOD;
        parse_args(p, n);
    }
    return n;
}

static const Rule rules[TK_COUNT] = {
    [TK_INT] = { .prefix = literal },
    [TK_FLOAT] = { .prefix = literal },
    [TK_IMAG] = { .prefix = literal },
    [TK_STRING] = { .prefix = literal },
    [TK_FSTRING] = { .prefix = fstring_expr },
    [TK_TRUE] = { .prefix = literal },
    [TK_FALSE] = { .prefix = literal },
    [TK_NONE] = { .prefix = literal },
    [TK_NAME] = { .prefix = ps_name_expr },
    [TK_FN] = { .prefix = lambda_expr },
    [TK_LBRACE] = { .prefix = dict_expr },
    [TK_LPAREN] = { .prefix = paren_expr, .infix = call_expr, .lbp = BP_POSTFIX },
    [TK_LBRACKET] = { .prefix = list_expr, .infix = index_expr, .lbp = BP_POSTFIX },
    [TK_DOT] = { .infix = attr_expr, .lbp = BP_POSTFIX },
    [TK_IF] = { .infix = cond_expr, .lbp = BP_COND },
    [TK_OR] = { .infix = and_or_expr, .lbp = BP_OR },
    [TK_AND] = { .infix = and_or_expr, .lbp = BP_AND },
    [TK_NOT] = { .prefix = not_expr, .infix = in_expr, .lbp = BP_CMP },
    [TK_IN] = { .infix = in_expr, .lbp = BP_CMP },
    [TK_PIPE] = { .infix = binary_left, .lbp = BP_BOR, .binop = TL_OR },
    [TK_CARET] = { .infix = binary_left, .lbp = BP_BXOR, .binop = TL_XOR },
    [TK_AMP] = { .infix = binary_left, .lbp = BP_BAND, .binop = TL_AND },
    [TK_SHL] = { .infix = binary_left, .lbp = BP_SHIFT, .binop = TL_LSHIFT },
    [TK_SHR] = { .infix = binary_left, .lbp = BP_SHIFT, .binop = TL_RSHIFT },
    [TK_EQ] = { .infix = comparison, .lbp = BP_CMP, .binop = TL_EQ },
    [TK_NE] = { .infix = comparison, .lbp = BP_CMP, .binop = TL_NE },
    [TK_LT] = { .infix = comparison, .lbp = BP_CMP, .binop = TL_LT },
    [TK_LE] = { .infix = comparison, .lbp = BP_CMP, .binop = TL_LE },
    [TK_GT] = { .infix = comparison, .lbp = BP_CMP, .binop = TL_GT },
    [TK_GE] = { .infix = comparison, .lbp = BP_CMP, .binop = TL_GE },
    [TK_PLUS] = { .prefix = unary_expr, .infix = binary_left, .lbp = BP_ADD, .binop = TL_ADD, .unop = UOP_PLUS },
    [TK_MINUS] = { .prefix = unary_expr, .infix = binary_left, .lbp = BP_ADD, .binop = TL_SUB, .unop = UOP_NEG },
    [TK_STAR] = { .infix = binary_left, .lbp = BP_MUL, .binop = TL_MUL },
    [TK_SLASH] = { .infix = binary_left, .lbp = BP_MUL, .binop = TL_DIV },
    [TK_DSLASH] = { .infix = binary_left, .lbp = BP_MUL, .binop = TL_FLOORDIV },
    [TK_PERCENT] = { .infix = binary_left, .lbp = BP_MUL, .binop = TL_MOD },
    [TK_AT] = { .infix = binary_left, .lbp = BP_MUL, .binop = OP_MATMUL },
    [TK_TILDE] = { .prefix = unary_expr, .unop = UOP_INVERT },
    [TK_DSTAR] = { .infix = binary_right, .lbp = BP_POW, .binop = TL_POW },
};

/* ---- loop targets and comprehensions ---- */

/* One item of a loop target: a name, or a parenthesized target. */
static Node *target_item(Parser *p)
{
    if (ps_at(p, TK_LPAREN)) {
        ps_open_bracket(p, CTX_PAREN);
        Node *t = ps_target(p);
        ps_close_bracket(p, TK_RPAREN);
        return t;
    }
    if (!ps_at(p, TK_NAME)) ps_fail_expected(p, "a loop variable name");
    return ps_name_expr(p);
}

/* A target item, or *name (N_STARARG: the items left over, as a list) when `starred` is
   still allowed. */
static Node *target_item_or_starred(Parser *p, bool *starred)
{
    if (!ps_at(p, TK_STAR)) return target_item(p);
    if (*starred) fail_here(p, "only one target of a tuple may be starred");
    *starred = true;
    Node *s = ps_node_here(p, N_STARARG);
    ps_advance(p);
    if (!ps_at(p, TK_NAME)) ps_fail_expected(p, "a name after '*'");
    s->a = ps_name_expr(p);
    return s;
}

/* What `for` binds: a name, or names and parenthesized targets separated by commas (a tuple
   that unpacks each item: for i, x in enumerate(xs)), one of them maybe starred (for a, *b in xs). */
Node *ps_target(Parser *p)
{
    bool starred = false;
    Node *first = target_item_or_starred(p, &starred);
    if (!ps_at(p, TK_COMMA)) {
        if (starred) ps_fail_at(p, first->at, "a starred target must be one of several: a, *rest");
        return first;
    }
    Node *t = ps_new_node(p, N_TUPLE, first->at);
    NodeVec items = {0};
    ps_vec_push(p, &items, first);
    while (ps_at(p, TK_COMMA)) {
        ps_advance(p);
        if (ps_at(p, TK_IN) || ps_at(p, TK_RPAREN)) break;
        ps_vec_push(p, &items, target_item_or_starred(p, &starred));
    }
    ps_set_list(t, &items);
    return t;
}

/* The clauses after a comprehension's item (n->a, and n->b for a dict), up to `close`:
   `for target in iterable` and `if condition`, the first a `for`. The iterables and
   conditions bind tighter than `x if c else y` (Python's or_test), so `if` starts a filter. */
static Node *comprehension(Parser *p, Node *n, NodeKind kind, TokenKind close)
{
    n->kind = kind;
    FnDef *fn = ps_alloc(p, sizeof *fn);
    fn->name = kind == N_LISTCOMP ? "<listcomp>" : "<dictcomp>";
    fn->at = n->at;
    NodeVec clauses = {0};
    while (ps_at(p, TK_FOR) || ps_at(p, TK_IF)) {
        Node *c = ps_node_here(p, ps_at(p, TK_FOR) ? N_COMPFOR : N_COMPIF);
        ps_advance(p);
        if (c->kind == N_COMPFOR) {
            c->c = ps_target(p);
            ps_expect(p, TK_IN);
            c->b = parse_expr(p, BP_COND);
        } else {
            c->a = parse_expr(p, BP_COND);
        }
        ps_vec_push(p, &clauses, c);
    }
    if (close == TK_RPAREN && ps_at(p, TK_COMMA)) fail_here(p, "a generator expression must be the call's only argument, or in parentheses");
    ps_close_bracket(p, close);
    ps_set_list(n, &clauses);
    n->fn = fn;
    return n;
}

/* ---- entry ---- */

static void *lexer_arena_alloc(void *arena, size_t n) { return arena_alloc(arena, n); }

static Node *parse_top(Parser *p)
{
    Node *root = ps_new_node(p, N_BLOCK, (Span){ .src = p->src, .line = 1, .col = 1 });
    ps_advance(p);
    ps_statements(p, root, TK_EOF);
    return root;
}

/* What an incomplete input leaves open, outermost first: the innermost PARSE_OPEN_MAX of its
   brackets and the string it ends inside. */
static void describe_open(const Parser *p, char *out)
{
    int n = 0, room = PARSE_OPEN_MAX - (p->open_quote != 0);
    for (int i = p->nctx > room ? p->nctx - room : 0; i < p->nctx; i++)
        if (p->open_line[i]) out[n++] = opener[p->ctx[i]];
    if (p->open_quote) out[n++] = p->open_quote;
    out[n] = '\0';
}

ParseResult parse_program(const Source *src, Arena *arena, Diag *err)
{
    ParseResult res = { 0 };
    /* On the heap so its fields are well defined after longjmp. */
    Parser *p = calloc(1, sizeof *p);
    if (!p) {
        if (err) diag_set(err, (Span){ src, 1, 1 }, TL_E_MemoryError, "out of memory");
        return res;
    }
    p->src = src;
    p->arena = arena;
    p->err = err;
    lexer_init(&p->lx, src->text, src->len);
    lexer_set_alloc(&p->lx, lexer_arena_alloc, arena);
    if (setjmp(p->fail) == 0) res.root = parse_top(p);
    else if ((res.incomplete = p->incomplete)) describe_open(p, res.open);
    free(p);
    return res;
}

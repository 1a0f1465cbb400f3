/* parse.c — the Pratt parser: one table maps each token to its prefix handler, infix handler and binding power */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstring.h"
#include "hint.h"
#include "lexer.h"
#include "parse.h"

#define MAX_NESTING 1000       /* nested expressions and blocks before "nesting too deep" */
#define MAX_TREE_HEIGHT 2500   /* longest path of nodes in a statement: bounds every recursive tree walk */

/* The innermost open bracket decides whether a newline ends a statement:
   inside (), [] and a dict's {} it does not; in a block's {} (and at top level) it does. */
enum { CTX_PAREN, CTX_BRACKET, CTX_DICT, CTX_BLOCK };
/* Each context's opening bracket, as messages and the shell's prompt show it. */
static const char opener[] = { [CTX_PAREN] = '(', [CTX_BRACKET] = '[', [CTX_DICT] = '{', [CTX_BLOCK] = '{' };
static const TokenKind closer[] = { [CTX_PAREN] = TK_RPAREN, [CTX_BRACKET] = TK_RBRACKET, [CTX_DICT] = TK_RBRACE,
                                    [CTX_BLOCK] = TK_RBRACE };

typedef struct Parser {
    Lexer lx;
    const Source *src;
    Arena *arena;
    Diag *err;
    Token tok;                 /* the current token, not yet consumed */
    Token prev;                /* the token before it */
    int depth;                 /* recursion depth of expressions and blocks */
    int nctx;
    unsigned char ctx[MAX_NESTING + 8];
    int open_line[MAX_NESTING + 8];   /* where each open bracket was opened (0: an f-string field's, opened by no token) */
    int open_col[MAX_NESTING + 8];
    int loop_depth;            /* loops around here within the current function */
    int fn_depth;
    bool incomplete;
    char open_quote;           /* the quote of a string the input ends inside, or 0 */
    bool sub_expr;             /* parsing an f-string field's expression: its end of input is the field's end */
    jmp_buf fail;
} Parser;

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

static _Noreturn void fail_at(Parser *p, Span at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void fail_at(Parser *p, Span at, const char *fmt, ...)
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

static Span span_of(const Parser *p, const Token *t)
{
    return (Span){ .src = p->src, .line = t->line, .col = t->col };
}

/* Reports an error at the current token. Running into the end of input inside an
   open bracket or block means the input is merely unfinished. */
#define fail_here(p, ...) \
    do { \
        if ((p)->tok.kind == TK_EOF && (p)->nctx > 0 && !(p)->sub_expr) (p)->incomplete = true; \
        fail_at((p), span_of((p), &(p)->tok), __VA_ARGS__); \
    } while (0)

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
static void fail_if_habit(Parser *p)
{
    const Token *ts[2] = { &p->tok, &p->prev };
    for (int i = 0; i < 2; i++) {
        const char *hint = ts[i]->kind == TK_NAME ? hint_habit(ts[i]->start, ts[i]->len, true) : NULL;
        if (hint) fail_at(p, span_of(p, ts[i]), "Python's '%.*s': %s", (int)ts[i]->len, ts[i]->start, hint);
    }
}

static _Noreturn void fail_unexpected(Parser *p)
{
    if (p->sub_expr && p->tok.kind == TK_EOF) fail_here(p, "f-string: the expression ends unfinished");
    fail_if_never_closed(p);
    fail_if_habit(p);
    char buf[64];
    const char *what = describe(&p->tok, buf, sizeof buf);
    if (is_word_or_punct(p->tok.kind)) fail_here(p, "unexpected token %s", what);
    fail_here(p, "unexpected %s", what);
}

static _Noreturn void fail_expected(Parser *p, const char *expected)
{
    fail_if_never_closed(p);
    fail_if_habit(p);
    if (p->tok.kind == TK_COLON && strcmp(expected, "'{'") == 0)
        fail_here(p, "expected '{' but found ':'; tl's blocks are in braces, not after a colon: if c { ... }");
    char buf[64];
    fail_here(p, "expected %s but found %s", expected, describe(&p->tok, buf, sizeof buf));
}

/* Errors that no further input can fix: never "incomplete", even at the end of input. */
static _Noreturn void fail_final(Parser *p, const char *msg)
{
    fail_at(p, span_of(p, &p->tok), "%s", msg);
}

/* ---- tokens and bracket context ---- */

static bool newlines_ignored(const Parser *p)
{
    return p->nctx > 0 && p->ctx[p->nctx - 1] != CTX_BLOCK;
}

/* Consumes the current token and reads the next one (skipping newlines inside brackets). */
static void advance(Parser *p)
{
    Token t;
    do t = lexer_next(&p->lx);
    while (t.kind == TK_NEWLINE && newlines_ignored(p));
    p->prev = p->tok;
    p->tok = t;
    if (t.kind == TK_ERROR) {
        p->incomplete = strcmp(t.error, LEX_UNTERMINATED) == 0;
        if (p->incomplete) p->open_quote = (char)t.start[strcspn(t.start, "'\"")];
        fail_at(p, span_of(p, &t), "%s", t.error);
    }
}

/* Kind of the token after the current one, without consuming anything. */
static TokenKind peek_kind(Parser *p)
{
    Lexer copy = p->lx;
    Token t;
    do t = lexer_next(&copy);
    while (t.kind == TK_NEWLINE && newlines_ignored(p));
    return t.kind;
}

static bool at(const Parser *p, TokenKind k) { return p->tok.kind == k; }

static void expect(Parser *p, TokenKind k)
{
    if (!at(p, k)) fail_expected(p, token_kind_name(k));
    advance(p);
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
static void open_bracket(Parser *p, int ctx)
{
    push_context(p, ctx, p->tok.line, p->tok.col);
    advance(p);
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
        fail_at(p, span_of(p, &p->tok), "closing '%c' does not match the '%c' on line %d", *p->tok.start, opener[p->ctx[i]],
                p->open_line[i]);
    bool at_end = k == TK_EOF;
    if (!at_end && (p->tok.line <= p->open_line[i] || closed_later(p))) return;
    p->incomplete = at_end;
    fail_at(p, (Span){ .src = p->src, .line = p->open_line[i], .col = p->open_col[i] }, "'%c' was never closed", opener[p->ctx[i]]);
}

/* Consumes the closing bracket `k`; the context is left before reading on, so the
   token after it is read under the outer rules. */
static void close_bracket(Parser *p, TokenKind k)
{
    if (!at(p, k)) fail_expected(p, token_kind_name(k));
    p->nctx--;
    advance(p);
}

static void enter(Parser *p)
{
    if (++p->depth > MAX_NESTING) fail_final(p, "nesting too deep");
}

static void leave(Parser *p) { p->depth--; }

/* ---- allocation ---- */

static void *alloc(Parser *p, size_t n)
{
    void *m = arena_alloc(p->arena, n);
    if (!m) fail_final(p, "out of memory");
    return m;
}

static Node *new_node(Parser *p, NodeKind kind, Span at)
{
    Node *n = alloc(p, sizeof *n);
    n->kind = kind;
    n->at = at;
    return n;
}

static Node *node_here(Parser *p, NodeKind kind) { return new_node(p, kind, span_of(p, &p->tok)); }

static char *token_text(Parser *p, const Token *t)
{
    char *s = arena_strndup(p->arena, t->start, t->len);
    if (!s) fail_final(p, "out of memory");
    return s;
}

/* A growing list of nodes; a `named` one (call arguments, parameters) also keeps a
   name and a position per item. The arrays live in the arena, so a failed parse
   leaks nothing. */
typedef struct NodeVec {
    Node **items;
    char **names;
    Span *spans;
    int n, cap;
    bool named;
} NodeVec;

static void *grow(Parser *p, void *old, int n, int cap, size_t size)
{
    void *m = alloc(p, (size_t)cap * size);
    if (n) memcpy(m, old, (size_t)n * size);
    return m;
}

static void vec_push_named(Parser *p, NodeVec *v, Node *item, char *name, Span at)
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

static void vec_push(Parser *p, NodeVec *v, Node *item) { vec_push_named(p, v, item, NULL, item->at); }

static void set_list(Node *n, const NodeVec *v)
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

/* Position of the first name in names[from..n) that repeats an earlier one there, or -1.
   Sorting keeps this O(n log n) for machine-written calls with huge argument lists. */
static int find_repeated(Parser *p, char **names, int from, int n)
{
    int count = n - from;
    if (count < 2) return -1;
    int *idx = alloc(p, (size_t)count * sizeof *idx);
    for (int i = 0; i < count; i++) idx[i] = from + i;
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
static Node *parse_block(Parser *p);
static FnDef *parse_fn_rest(Parser *p, char *name, Span fn_at);

/* The Pratt loop: a prefix form, then infix forms while they bind tighter than rbp. */
static Node *parse_expr(Parser *p, int rbp)
{
    enter(p);
    PrefixFn prefix = rules[p->tok.kind].prefix;
    if (!prefix) fail_unexpected(p);
    Node *left = prefix(p);
    while (rules[p->tok.kind].lbp > rbp) left = rules[p->tok.kind].infix(p, left);
    leave(p);
    return left;
}

static Node *literal(Parser *p)
{
    static const NodeKind kinds[TK_COUNT] = {
        [TK_INT] = N_INT, [TK_FLOAT] = N_FLOAT, [TK_IMAG] = N_IMAG, [TK_STRING] = N_STR,
        [TK_TRUE] = N_TRUE, [TK_FALSE] = N_FALSE, [TK_NONE] = N_NONE,
    };
    Node *n = node_here(p, kinds[p->tok.kind]);
    n->ival = p->tok.ival;
    n->fval = p->tok.fval;
    n->str = p->tok.str;
    n->slen = p->tok.slen;
    advance(p);
    return n;
}

static Node *name_expr(Parser *p)
{
    Node *n = node_here(p, N_NAME);
    n->name = token_text(p, &p->tok);
    advance(p);
    return n;
}

/* - + ~ */
static Node *unary_expr(Parser *p)
{
    Node *n = node_here(p, N_UNARY);
    n->op = rules[p->tok.kind].unop;
    advance(p);
    n->a = parse_expr(p, BP_UNARY);
    return n;
}

static Node *not_expr(Parser *p)
{
    Node *n = node_here(p, N_UNARY);
    n->op = UOP_NOT;
    advance(p);
    n->a = parse_expr(p, BP_NOT);
    return n;
}

/* (x) is x; () (x,) (x, y) are tuples. */
static Node *paren_expr(Parser *p)
{
    Span open_at = span_of(p, &p->tok);
    open_bracket(p, CTX_PAREN);
    NodeVec items = {0};
    if (at(p, TK_RPAREN)) {
        close_bracket(p, TK_RPAREN);
        return new_node(p, N_TUPLE, open_at);
    }
    Node *first = parse_expr(p, BP_NONE);
    if (at(p, TK_RPAREN)) {
        close_bracket(p, TK_RPAREN);
        return first;
    }
    vec_push(p, &items, first);
    while (at(p, TK_COMMA)) {
        advance(p);
        if (at(p, TK_RPAREN)) break;
        vec_push(p, &items, parse_expr(p, BP_NONE));
    }
    close_bracket(p, TK_RPAREN);
    Node *t = new_node(p, N_TUPLE, open_at);
    set_list(t, &items);
    return t;
}

/* Comma-separated expressions up to `close` (trailing comma allowed), e.g. a list literal. */
static void parse_items(Parser *p, NodeVec *v, TokenKind close)
{
    while (!at(p, close)) {
        vec_push(p, v, parse_expr(p, BP_NONE));
        if (!at(p, TK_COMMA)) break;
        advance(p);
    }
    close_bracket(p, close);
}

static Node *comprehension(Parser *p, Node *n, NodeKind kind, TokenKind close);

static Node *list_expr(Parser *p)
{
    Node *n = node_here(p, N_LIST);
    open_bracket(p, CTX_BRACKET);
    NodeVec items = {0};
    if (!at(p, TK_RBRACKET)) {
        Node *first = parse_expr(p, BP_NONE);
        if (at(p, TK_FOR)) {   /* [e for x in it ...] */
            n->a = first;
            return comprehension(p, n, N_LISTCOMP, TK_RBRACKET);
        }
        vec_push(p, &items, first);
        if (at(p, TK_COMMA)) advance(p);
        else {
            close_bracket(p, TK_RBRACKET);
            set_list(n, &items);
            return n;
        }
    }
    parse_items(p, &items, TK_RBRACKET);
    set_list(n, &items);
    return n;
}

static Node *dict_expr(Parser *p)
{
    Node *n = node_here(p, N_DICT);
    open_bracket(p, CTX_DICT);
    NodeVec kv = {0};
    while (!at(p, TK_RBRACE)) {
        vec_push(p, &kv, parse_expr(p, BP_NONE));
        if (!at(p, TK_COLON)) fail_expected(p, "':' after a dict key");
        advance(p);
        vec_push(p, &kv, parse_expr(p, BP_NONE));
        if (kv.n == 2 && at(p, TK_FOR)) {   /* {k: v for x in it ...} */
            n->a = kv.items[0];
            n->b = kv.items[1];
            return comprehension(p, n, N_DICTCOMP, TK_RBRACE);
        }
        if (!at(p, TK_COMMA)) break;
        advance(p);
    }
    close_bracket(p, TK_RBRACE);
    set_list(n, &kv);
    return n;
}

static Node *lambda_expr(Parser *p)
{
    Node *n = node_here(p, N_LAMBDA);
    advance(p);
    n->fn = parse_fn_rest(p, "<lambda>", n->at);
    return n;
}

/* A binary operator whose right operand binds tighter than rbp. */
static Node *binary_operands(Parser *p, Node *left, int rbp)
{
    Node *n = node_here(p, N_BINARY);
    n->op = rules[p->tok.kind].binop;
    advance(p);
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
    Node *n = node_here(p, at(p, TK_AND) ? N_AND : N_OR);
    int bp = rules[p->tok.kind].lbp;
    advance(p);
    n->a = left;
    n->b = parse_expr(p, bp);
    return n;
}

/* x in c, x not in c: comparison-level operators (N_IN; op 1 for `not in`), not chained. */
static Node *in_expr(Parser *p, Node *left)
{
    Node *n = node_here(p, N_IN);
    if (at(p, TK_NOT)) {
        advance(p);
        if (!at(p, TK_IN)) fail_expected(p, "'in' after 'not'");
        n->op = 1;
    }
    advance(p);
    n->a = left;
    n->b = parse_expr(p, BP_CMP);
    if (rules[p->tok.kind].lbp == BP_CMP) fail_here(p, "comparison operators cannot be chained");
    return n;
}

/* then if cond else other: the else part may itself be a conditional. */
static Node *cond_expr(Parser *p, Node *left)
{
    Node *n = node_here(p, N_COND);
    advance(p);
    n->a = left;
    n->b = parse_expr(p, BP_COND);
    if (!at(p, TK_ELSE)) fail_expected(p, "'else'");
    advance(p);
    n->c = parse_expr(p, BP_COND - 1);
    return n;
}

/* Arguments after '(': positional, then name=value; the ')' is consumed. */
static void parse_args(Parser *p, Node *call)
{
    open_bracket(p, CTX_PAREN);
    NodeVec args = { .named = true };
    int first_kw = -1;
    while (!at(p, TK_RPAREN)) {
        if (at(p, TK_NAME) && peek_kind(p) == TK_ASSIGN) {
            Span name_at = span_of(p, &p->tok);
            char *name = token_text(p, &p->tok);
            advance(p);
            advance(p);
            if (first_kw < 0) first_kw = args.n;
            vec_push_named(p, &args, parse_expr(p, BP_NONE), name, name_at);
        } else {
            if (first_kw >= 0) fail_here(p, "positional argument follows keyword argument");
            vec_push(p, &args, parse_expr(p, BP_NONE));
        }
        if (!at(p, TK_COMMA)) break;
        advance(p);
    }
    close_bracket(p, TK_RPAREN);
    if (first_kw >= 0) {
        int dup = find_repeated(p, args.names, first_kw, args.n);
        if (dup >= 0) fail_at(p, args.spans[dup], "keyword argument repeated: %s", args.names[dup]);
    }
    set_list(call, &args);
    call->names = args.n ? args.names : NULL;
}

static Node *call_expr(Parser *p, Node *left)
{
    Node *n = node_here(p, N_CALL);
    n->a = left;
    parse_args(p, n);
    return n;
}

/* One index item: an expression, a slice a:b:c with any part omitted, or '...'. */
static Node *index_item(Parser *p)
{
    if (at(p, TK_ELLIPSIS)) {
        Node *e = node_here(p, N_ELLIPSIS);
        advance(p);
        return e;
    }
    Node *start = NULL;
    if (!at(p, TK_COLON)) {
        start = parse_expr(p, BP_NONE);
        if (!at(p, TK_COLON)) return start;
    }
    Node *s = node_here(p, N_SLICE);
    s->a = start;
    advance(p);
    if (!at(p, TK_COLON) && !at(p, TK_COMMA) && !at(p, TK_RBRACKET)) s->b = parse_expr(p, BP_NONE);
    if (at(p, TK_COLON)) {
        advance(p);
        if (!at(p, TK_COMMA) && !at(p, TK_RBRACKET)) s->c = parse_expr(p, BP_NONE);
    }
    return s;
}

static Node *index_expr(Parser *p, Node *left)
{
    Node *n = node_here(p, N_INDEX);
    n->a = left;
    open_bracket(p, CTX_BRACKET);
    NodeVec items = {0};
    do {
        if (items.n) advance(p);               /* the ',' */
        if (items.n && at(p, TK_RBRACKET)) break;
        vec_push(p, &items, index_item(p));
    } while (at(p, TK_COMMA));
    close_bracket(p, TK_RBRACKET);
    set_list(n, &items);
    return n;
}

/* ---- f-strings: src/fstring.c splits them; the parser parses each field's expression ---- */

/* The place of byte `at` of the current token's text (an f-string may span lines). */
static Span span_in_token(const Parser *p, const char *at)
{
    const Token *t = &p->tok;
    Span sp = span_of(p, t);
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
    fail_at(p, at ? span_in_token(p, at) : span_of(p, &p->tok), "%s", msg);
}

/* A field's expression [start, end) of the current f-string token, lexed from a copy of its line
   (so columns stay those of the source) as if inside parentheses; the token is kept. */
static Node *fs_expression(void *pv, const char *start, const char *end)
{
    Parser *p = pv;
    Span where = span_in_token(p, start);
    const char *line_start = start - (where.col - 1);
    size_t len = (size_t)(end - line_start);
    char *copy = alloc(p, len + 1);
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
    advance(p);
    Node *e = parse_expr(p, BP_NONE);
    if (!at(p, TK_EOF)) fail_unexpected(p);
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
    advance(p);
    return n;
}

/* a.name is N_ATTR; a.name(args) is N_METHOD. Both point at the name. */
static Node *attr_expr(Parser *p, Node *left)
{
    advance(p);
    if (!at(p, TK_NAME)) fail_expected(p, "a name after '.'");
    Node *n = node_here(p, N_ATTR);
    n->a = left;
    n->name = token_text(p, &p->tok);
    advance(p);
    if (at(p, TK_LPAREN)) {
        n->kind = N_METHOD;
        parse_args(p, n);
    }
    return n;
}

static const Rule rules[TK_COUNT] = {
    [TK_INT] = { literal, NULL, 0 },
    [TK_FLOAT] = { literal, NULL, 0 },
    [TK_IMAG] = { literal, NULL, 0 },
    [TK_STRING] = { literal, NULL, 0 },
    [TK_FSTRING] = { fstring_expr, NULL, 0 },
    [TK_TRUE] = { literal, NULL, 0 },
    [TK_FALSE] = { literal, NULL, 0 },
    [TK_NONE] = { literal, NULL, 0 },
    [TK_NAME] = { name_expr, NULL, 0 },
    [TK_FN] = { lambda_expr, NULL, 0 },
    [TK_LBRACE] = { dict_expr, NULL, 0 },
    [TK_LPAREN] = { paren_expr, call_expr, BP_POSTFIX },
    [TK_LBRACKET] = { list_expr, index_expr, BP_POSTFIX },
    [TK_DOT] = { NULL, attr_expr, BP_POSTFIX },
    [TK_IF] = { NULL, cond_expr, BP_COND },
    [TK_OR] = { NULL, and_or_expr, BP_OR },
    [TK_AND] = { NULL, and_or_expr, BP_AND },
    [TK_NOT] = { not_expr, in_expr, BP_CMP },
    [TK_IN] = { NULL, in_expr, BP_CMP },
    [TK_PIPE] = { NULL, binary_left, BP_BOR, TL_OR },
    [TK_CARET] = { NULL, binary_left, BP_BXOR, TL_XOR },
    [TK_AMP] = { NULL, binary_left, BP_BAND, TL_AND },
    [TK_SHL] = { NULL, binary_left, BP_SHIFT, TL_LSHIFT },
    [TK_SHR] = { NULL, binary_left, BP_SHIFT, TL_RSHIFT },
    [TK_EQ] = { NULL, comparison, BP_CMP, TL_EQ },
    [TK_NE] = { NULL, comparison, BP_CMP, TL_NE },
    [TK_LT] = { NULL, comparison, BP_CMP, TL_LT },
    [TK_LE] = { NULL, comparison, BP_CMP, TL_LE },
    [TK_GT] = { NULL, comparison, BP_CMP, TL_GT },
    [TK_GE] = { NULL, comparison, BP_CMP, TL_GE },
    [TK_PLUS] = { unary_expr, binary_left, BP_ADD, TL_ADD, UOP_PLUS },
    [TK_MINUS] = { unary_expr, binary_left, BP_ADD, TL_SUB, UOP_NEG },
    [TK_STAR] = { NULL, binary_left, BP_MUL, TL_MUL },
    [TK_SLASH] = { NULL, binary_left, BP_MUL, TL_DIV },
    [TK_DSLASH] = { NULL, binary_left, BP_MUL, TL_FLOORDIV },
    [TK_PERCENT] = { NULL, binary_left, BP_MUL, TL_MOD },
    [TK_AT] = { NULL, binary_left, BP_MUL, OP_MATMUL },
    [TK_TILDE] = { unary_expr, NULL, 0, 0, UOP_INVERT },
    [TK_DSTAR] = { NULL, binary_right, BP_POW, TL_POW },
};

/* ---- loop targets and comprehensions ---- */

static Node *parse_target(Parser *p);

/* One item of a loop target: a name, or a parenthesized target. */
static Node *target_item(Parser *p)
{
    if (at(p, TK_LPAREN)) {
        open_bracket(p, CTX_PAREN);
        Node *t = parse_target(p);
        close_bracket(p, TK_RPAREN);
        return t;
    }
    if (!at(p, TK_NAME)) fail_expected(p, "a loop variable name");
    return name_expr(p);
}

/* What `for` binds: a name, or names and parenthesized targets separated by commas (a tuple
   that unpacks each item: for i, x in enumerate(xs)). */
static Node *parse_target(Parser *p)
{
    Node *first = target_item(p);
    if (!at(p, TK_COMMA)) return first;
    Node *t = new_node(p, N_TUPLE, first->at);
    NodeVec items = {0};
    vec_push(p, &items, first);
    while (at(p, TK_COMMA)) {
        advance(p);
        if (at(p, TK_IN) || at(p, TK_RPAREN)) break;
        vec_push(p, &items, target_item(p));
    }
    set_list(t, &items);
    return t;
}

/* The clauses after a comprehension's item (n->a, and n->b for a dict), up to `close`:
   `for target in iterable` and `if condition`, the first a `for`. The iterables and
   conditions bind tighter than `x if c else y` (Python's or_test), so `if` starts a filter. */
static Node *comprehension(Parser *p, Node *n, NodeKind kind, TokenKind close)
{
    n->kind = kind;
    FnDef *fn = alloc(p, sizeof *fn);
    fn->name = kind == N_LISTCOMP ? "<listcomp>" : "<dictcomp>";
    fn->at = n->at;
    NodeVec clauses = {0};
    while (at(p, TK_FOR) || at(p, TK_IF)) {
        Node *c = node_here(p, at(p, TK_FOR) ? N_COMPFOR : N_COMPIF);
        advance(p);
        if (c->kind == N_COMPFOR) {
            c->c = parse_target(p);
            expect(p, TK_IN);
            c->b = parse_expr(p, BP_COND);
        } else {
            c->a = parse_expr(p, BP_COND);
        }
        vec_push(p, &clauses, c);
    }
    close_bracket(p, close);
    set_list(n, &clauses);
    n->fn = fn;
    return n;
}

/* ---- functions ---- */

/* After "fn" or "fn name": (params) = expr, or (params) { block }. */
static FnDef *parse_fn_rest(Parser *p, char *name, Span fn_at)
{
    FnDef *fn = alloc(p, sizeof *fn);
    fn->name = name;
    fn->at = fn_at;
    if (!at(p, TK_LPAREN)) fail_expected(p, "'('");
    open_bracket(p, CTX_PAREN);
    NodeVec params = { .named = true };   /* items: the defaults (or NULL); names: the parameters */
    bool seen_default = false;
    while (!at(p, TK_RPAREN)) {
        if (!at(p, TK_NAME)) fail_expected(p, "a parameter name");
        Span pat = span_of(p, &p->tok);
        char *pname = token_text(p, &p->tok);
        advance(p);
        Node *def = NULL;
        if (at(p, TK_ASSIGN)) {
            advance(p);
            def = parse_expr(p, BP_NONE);
            seen_default = true;
        } else if (seen_default) {
            fail_at(p, pat, "parameter '%s' without a default follows one with a default", pname);
        }
        vec_push_named(p, &params, def, pname, pat);
        if (!at(p, TK_COMMA)) break;
        advance(p);
    }
    close_bracket(p, TK_RPAREN);
    int dup = find_repeated(p, params.names, 0, params.n);
    if (dup >= 0) fail_at(p, params.spans[dup], "duplicate parameter '%s'", params.names[dup]);
    fn->nparams = params.n;
    fn->params = params.n ? params.names : NULL;
    fn->defaults = params.n ? params.items : NULL;

    int saved_loops = p->loop_depth;
    p->loop_depth = 0;
    p->fn_depth++;
    if (at(p, TK_ASSIGN)) {
        advance(p);
        fn->body = parse_expr(p, BP_NONE);
        fn->body_is_expr = true;
    } else if (at(p, TK_LBRACE)) {
        fn->body = parse_block(p);
    } else {
        fail_expected(p, "'=' or '{' after the parameters");
    }
    p->fn_depth--;
    p->loop_depth = saved_loops;
    return fn;
}

/* ---- statements ---- */

static Node *parse_statement(Parser *p);
static void check_height(Parser *p, Node *root);

static bool at_statement_end(const Parser *p)
{
    TokenKind k = p->tok.kind;
    return k == TK_NEWLINE || k == TK_SEMI || k == TK_EOF || k == TK_RBRACE;
}

/* Statements separated by newlines or ';' into blk, up to `end` (not consumed). Each
   top-level statement is height-checked as soon as it is parsed, so errors come out
   in source order. */
static void parse_statements(Parser *p, Node *blk, TokenKind end)
{
    NodeVec stmts = {0};
    for (;;) {
        while (at(p, TK_NEWLINE) || at(p, TK_SEMI)) advance(p);
        if (at(p, end)) break;
        if (at(p, TK_EOF)) fail_expected(p, "'}'");
        if (at(p, TK_RBRACE)) fail_unexpected(p);
        Node *s = parse_statement(p);
        if (!at_statement_end(p)) {
            fail_if_habit(p);
            fail_here(p, "invalid syntax");
        }
        if (p->nctx == 0) check_height(p, s);
        vec_push(p, &stmts, s);
    }
    set_list(blk, &stmts);
}

/* { statements }: the '{' must be on the header's line (a newline there is an error). */
static Node *parse_block(Parser *p)
{
    if (!at(p, TK_LBRACE)) fail_expected(p, "'{'");
    enter(p);
    Node *blk = node_here(p, N_BLOCK);
    open_bracket(p, CTX_BLOCK);
    parse_statements(p, blk, TK_RBRACE);
    close_bracket(p, TK_RBRACE);
    leave(p);
    return blk;
}

static Node *loop_body(Parser *p)
{
    p->loop_depth++;
    Node *body = parse_block(p);
    p->loop_depth--;
    return body;
}

/* if c { } else if d { } else { }: else-if chains are built in a loop, not by recursion. */
static Node *if_stmt(Parser *p)
{
    Node *first = node_here(p, N_IF), *cur = first;
    for (;;) {
        advance(p);                     /* the 'if' */
        cur->a = parse_expr(p, BP_NONE);
        cur->b = parse_block(p);
        if (!at(p, TK_ELSE)) return first;
        advance(p);
        if (at(p, TK_LBRACE)) {
            cur->c = parse_block(p);
            return first;
        }
        if (!at(p, TK_IF)) fail_expected(p, "'{' or 'if' after 'else'");
        cur->c = node_here(p, N_IF);
        cur = cur->c;
    }
}

static Node *while_stmt(Parser *p)
{
    Node *n = node_here(p, N_WHILE);
    advance(p);
    n->a = parse_expr(p, BP_NONE);
    n->b = loop_body(p);
    return n;
}

static Node *for_stmt(Parser *p)
{
    Node *n = node_here(p, N_FOR);
    advance(p);
    Node *target = parse_target(p);
    if (target->kind == N_NAME) n->name = target->name;
    else n->c = target;   /* for i, x in ...: each item unpacks */
    expect(p, TK_IN);
    n->a = parse_expr(p, BP_NONE);
    n->b = loop_body(p);
    return n;
}

/* try { body } catch e { handler } */
static Node *try_stmt(Parser *p)
{
    Node *n = node_here(p, N_TRY);
    advance(p);
    n->a = parse_block(p);
    expect(p, TK_CATCH);
    if (!at(p, TK_NAME)) fail_expected(p, "a name for the error after 'catch'");
    n->name = token_text(p, &p->tok);
    advance(p);
    n->b = parse_block(p);
    return n;
}

static Node *jump_stmt(Parser *p)
{
    Node *n = node_here(p, at(p, TK_BREAK) ? N_BREAK : N_CONTINUE);
    if (p->loop_depth == 0)
        fail_here(p, "%s outside a loop", at(p, TK_BREAK) ? "'break'" : "'continue'");
    advance(p);
    return n;
}

static Node *parse_exprlist(Parser *p);

/* global x, y: the function's assignments to these names rebind the globals. */
static Node *global_stmt(Parser *p)
{
    Node *n = node_here(p, N_GLOBAL);
    NodeVec names = {0};
    do {
        advance(p);   /* 'global' or ',' */
        if (!at(p, TK_NAME)) fail_expected(p, "a name after 'global'");
        vec_push(p, &names, name_expr(p));
    } while (at(p, TK_COMMA));
    set_list(n, &names);
    return n;
}

/* del t, ...: names, items (xs[i], d[k]) and slices (xs[a:b]). */
static Node *del_stmt(Parser *p)
{
    Node *n = node_here(p, N_DEL);
    advance(p);
    Node *t = parse_exprlist(p);
    NodeVec targets = {0};
    if (t->kind == N_TUPLE && t->n > 0) {
        for (int i = 0; i < t->n; i++) vec_push(p, &targets, t->list[i]);
    } else {
        vec_push(p, &targets, t);
    }
    for (int i = 0; i < targets.n; i++) {
        Node *x = targets.items[i];
        if (x->kind != N_NAME && x->kind != N_INDEX) fail_at(p, node_start(x), "cannot delete this expression (del takes names and items such as xs[i])");
    }
    set_list(n, &targets);
    return n;
}

static Node *return_stmt(Parser *p)
{
    Node *n = node_here(p, N_RETURN);
    if (p->fn_depth == 0) fail_here(p, "'return' outside a function");
    advance(p);
    if (!at_statement_end(p)) n->a = parse_exprlist(p);
    return n;
}

static Node *fn_stmt(Parser *p)
{
    Node *n = node_here(p, N_FNDEF);
    advance(p);
    n->name = token_text(p, &p->tok);
    advance(p);
    n->fn = parse_fn_rest(p, n->name, n->at);
    return n;
}

/* e or e1, e2, ... (a tuple, trailing comma allowed): statement values and targets. */
static Node *parse_exprlist(Parser *p)
{
    Node *first = parse_expr(p, BP_NONE);
    if (!at(p, TK_COMMA)) return first;
    Node *t = new_node(p, N_TUPLE, node_start(first));
    NodeVec items = {0};
    vec_push(p, &items, first);
    while (at(p, TK_COMMA)) {
        advance(p);
        if (!rules[p->tok.kind].prefix) break;
        vec_push(p, &items, parse_expr(p, BP_NONE));
    }
    set_list(t, &items);
    return t;
}

/* Targets are names and index expressions (and, for '=', tuples of targets). */
static void check_target(Parser *p, Node *t, bool tuple_ok)
{
    switch (t->kind) {
    case N_NAME: case N_INDEX:
        return;
    case N_ATTR:
        fail_at(p, t->at, "cannot assign to attribute '%s'", t->name);
    case N_TUPLE:
        if (!tuple_ok) fail_at(p, t->at, "augmented assignment needs a single name or index target");
        if (t->n == 0) break;
        for (int i = 0; i < t->n; i++) check_target(p, t->list[i], true);
        return;
    default:
        break;
    }
    fail_at(p, node_start(t), "cannot assign to this expression");
}

/* The operator of a compound assignment token (+= gives TL_ADD), or -1. */
static int opassign_op(TokenKind k)
{
    switch (k) {
    case TK_PLUS_ASSIGN: return TL_ADD;
    case TK_MINUS_ASSIGN: return TL_SUB;
    case TK_STAR_ASSIGN: return TL_MUL;
    case TK_SLASH_ASSIGN: return TL_DIV;
    case TK_AT_ASSIGN: return OP_MATMUL;
    default: return -1;
    }
}

/* Expression statement, x = e, p, q = e, or x += e. Assignments point at their operator. */
static Node *simple_stmt(Parser *p)
{
    Node *e = parse_exprlist(p);
    int op = opassign_op(p->tok.kind);
    if (at(p, TK_ASSIGN) || op >= 0) {
        check_target(p, e, op < 0);
        Node *n = node_here(p, op < 0 ? N_ASSIGN : N_OPASSIGN);
        n->op = op < 0 ? 0 : op;
        advance(p);
        n->a = e;
        n->b = parse_exprlist(p);
        return n;
    }
    Node *n = new_node(p, N_EXPR_STMT, node_start(e));
    n->a = e;
    n->echo = !at(p, TK_SEMI);
    return n;
}

static Node *parse_statement(Parser *p)
{
    switch (p->tok.kind) {
    case TK_FN:
        if (peek_kind(p) == TK_NAME) return fn_stmt(p);
        break;
    case TK_IF: return if_stmt(p);
    case TK_WHILE: return while_stmt(p);
    case TK_FOR: return for_stmt(p);
    case TK_TRY: return try_stmt(p);
    case TK_BREAK: case TK_CONTINUE: return jump_stmt(p);
    case TK_RETURN: return return_stmt(p);
    case TK_GLOBAL: return global_stmt(p);
    case TK_DEL: return del_stmt(p);
    case TK_ELSE: fail_here(p, "'else' must follow '}' on the same line");
    default: break;
    }
    return simple_stmt(p);
}

/* ---- tree height ---- */

typedef struct Pending {
    Node *node;
    int depth;
} Pending;

static bool push_pending(Pending **st, int *n, int *cap, Node *node, int depth)
{
    if (!node) return true;
    if (*n == *cap) {
        int ncap = *cap ? *cap * 2 : 64;
        Pending *m = realloc(*st, (size_t)ncap * sizeof *m);
        if (!m) return false;
        *st = m;
        *cap = ncap;
    }
    (*st)[(*n)++] = (Pending){ node, depth };
    return true;
}

/* Fails when a path from root is longer than MAX_TREE_HEIGHT nodes, so that the
   resolver and evaluator, which recurse over the tree, stay within the C stack
   (1+1+...+1 parses without recursion but makes a very deep left spine). */
static void check_height(Parser *p, Node *root)
{
    Pending *st = NULL;
    int n = 0, cap = 0;
    bool ok = push_pending(&st, &n, &cap, root, 1);
    while (ok && n > 0) {
        Pending cur = st[--n];
        Node *x = cur.node;
        if (cur.depth > MAX_TREE_HEIGHT) {
            free(st);
            fail_at(p, node_start(root), "expression too long or too deeply nested");
        }
        int d = cur.depth + 1;
        ok = push_pending(&st, &n, &cap, x->a, d) && push_pending(&st, &n, &cap, x->b, d) &&
             push_pending(&st, &n, &cap, x->c, d);
        for (int i = 0; ok && i < x->n; i++) ok = push_pending(&st, &n, &cap, x->list[i], d);
        if ((x->kind == N_FNDEF || x->kind == N_LAMBDA) && x->fn) {
            FnDef *fn = x->fn;
            for (int i = 0; ok && i < fn->nparams; i++)
                ok = push_pending(&st, &n, &cap, fn->defaults[i], d);
            ok = ok && push_pending(&st, &n, &cap, fn->body, d);
        }
    }
    free(st);
    if (!ok) fail_at(p, root->at, "out of memory");
}

/* ---- entry ---- */

static void *lexer_arena_alloc(void *arena, size_t n) { return arena_alloc(arena, n); }

static Node *parse_top(Parser *p)
{
    Node *root = new_node(p, N_BLOCK, (Span){ .src = p->src, .line = 1, .col = 1 });
    advance(p);
    parse_statements(p, root, TK_EOF);
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

/* parse_int.h — what the parser's two files share: the parser's state and its token, bracket,
   node and error helpers (parse.c: tokens, expressions, functions; parse_stmt.c: statements) */
#ifndef TL_PARSE_INT_H
#define TL_PARSE_INT_H

#include <setjmp.h>
#include <stdbool.h>

#include "lexer.h"
#include "parse.h"

#define MAX_NESTING 1000       /* nested expressions and blocks before "nesting too deep" */
#define MAX_TREE_HEIGHT 2500   /* longest path of nodes in a statement: bounds every recursive tree walk */

/* The innermost open bracket decides whether a newline ends a statement:
   inside (), [] and a dict's {} it does not; in a block's {} (and at top level) it does. */
enum { CTX_PAREN, CTX_BRACKET, CTX_DICT, CTX_BLOCK };

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

/* Reports an error at the current token. Running into the end of input inside an
   open bracket or block means the input is merely unfinished. */
#define fail_here(p, ...) \
    do { \
        if ((p)->tok.kind == TK_EOF && (p)->nctx > 0 && !(p)->sub_expr) (p)->incomplete = true; \
        ps_fail_at((p), ps_span_of((p), &(p)->tok), __VA_ARGS__); \
    } while (0)

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

/* ---- errors (parse.c) ---- */

/* Reports msg at `at` and unwinds to parse_program. */
_Noreturn void ps_fail_at(Parser *p, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The place of token t. */
Span ps_span_of(const Parser *p, const Token *t);
/* "unexpected ..." at the current token, with a Python or numpy habit's hint when one fits. */
_Noreturn void ps_fail_unexpected(Parser *p);
/* "expected E but found ..." at the current token. */
_Noreturn void ps_fail_expected(Parser *p, const char *expected);
/* Fails with a hint when the current token starts a Python or numpy habit tl spells otherwise. */
void ps_fail_if_habit(Parser *p);

/* ---- tokens and brackets (parse.c) ---- */

/* Consumes the current token. */
void ps_advance(Parser *p);
/* The kind of the token after the current one. */
TokenKind ps_peek_kind(Parser *p);
/* An item of a tuple or list display: an expression, or *e (N_STARARG: *splat is set), whose
   items the display splices in. */
Node *ps_display_item(Parser *p, bool *splat);
/* The tuple (at `at`) of first, whose splat is given, and the items after each comma: a
   trailing comma is allowed before `end`, or, with end TK_COUNT (a statement's list), before
   anything that starts no item. Parenthesized tuples, f-string fields and statements share it. */
Node *ps_tuple_rest(Parser *p, Node *first, bool splat, Span at, TokenKind end);
/* Can a token of kind k start an expression, but not continue one (no infix or postfix use)? */
bool ps_kind_starts_operand_only(TokenKind k);
/* Is the current token of kind k? */
bool ps_at(const Parser *p, TokenKind k);
/* Consumes a token of kind k, or fails. */
void ps_expect(Parser *p, TokenKind k);
/* Consumes an opening bracket of context ctx (CTX_*) and remembers where it was opened. */
void ps_open_bracket(Parser *p, int ctx);
/* Consumes the closing bracket k of the innermost context. */
void ps_close_bracket(Parser *p, TokenKind k);
/* One level deeper of expressions or blocks (fails past MAX_NESTING), and back. */
void ps_enter(Parser *p);
void ps_leave(Parser *p);

/* ---- nodes (parse.c) ---- */

/* n bytes from the source's arena, zeroed (fails the parse when out of memory). */
void *ps_alloc(Parser *p, size_t n);
Node *ps_new_node(Parser *p, NodeKind kind, Span at);
/* A node at the current token. */
Node *ps_node_here(Parser *p, NodeKind kind);
/* Token t's text, copied into the arena. */
char *ps_token_text(Parser *p, const Token *t);
void ps_vec_push(Parser *p, NodeVec *v, Node *item);
/* Appends item, named name (at: the name's place), to a named NodeVec. */
void ps_vec_push_named(Parser *p, NodeVec *v, Node *item, char *name, Span at);
/* Position of the first name in names[from, n) that repeats an earlier one there, or -1 (NULL names skipped). */
int ps_find_repeated(Parser *p, char **names, int from, int n);
/* Gives n the items of v. */
void ps_set_list(Node *n, const NodeVec *v);

/* ---- expressions (parse.c) and functions (parse_fn.c) ---- */

/* A whole expression. */
Node *ps_expression(Parser *p);
/* Can the current token start an expression? */
bool ps_starts_expression(const Parser *p);
/* A name, as an expression. */
Node *ps_name_expr(Parser *p);
/* A loop target: a name, or names in parentheses or brackets. */
Node *ps_target(Parser *p);
/* A function's parameters and body, after its name (or after fn for a lambda). */
FnDef *ps_fn_rest(Parser *p, char *name, Span fn_at);

/* ---- statements (parse_stmt.c) ---- */

/* Statements separated by newlines or ';' into blk, up to `end` (not consumed). */
void ps_statements(Parser *p, Node *blk, TokenKind end);
/* A block: { statements }. */
Node *ps_block(Parser *p);

#endif

/* parse_stmt.c — statements: blocks, if/while/for/try, jumps, global, del, return, fn, assignments; the tree-height check */
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"

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
void ps_statements(Parser *p, Node *blk, TokenKind end)
{
    NodeVec stmts = {0};
    for (;;) {
        while (ps_at(p, TK_NEWLINE) || ps_at(p, TK_SEMI)) ps_advance(p);
        if (ps_at(p, end)) break;
        if (ps_at(p, TK_EOF)) ps_fail_expected(p, "'}'");
        if (ps_at(p, TK_RBRACE)) ps_fail_unexpected(p);
        Node *s = parse_statement(p);
        if (!at_statement_end(p)) {
            ps_fail_if_habit(p);
            fail_here(p, "invalid syntax");
        }
        if (p->nctx == 0) check_height(p, s);
        ps_vec_push(p, &stmts, s);
    }
    ps_set_list(blk, &stmts);
}

/* { statements }: the '{' must be on the header's line (a newline there is an error). */
Node *ps_block(Parser *p)
{
    if (!ps_at(p, TK_LBRACE)) ps_fail_expected(p, "'{'");
    ps_enter(p);
    Node *blk = ps_node_here(p, N_BLOCK);
    ps_open_bracket(p, CTX_BLOCK);
    ps_statements(p, blk, TK_RBRACE);
    ps_close_bracket(p, TK_RBRACE);
    ps_leave(p);
    return blk;
}

static Node *loop_body(Parser *p)
{
    p->loop_depth++;
    Node *body = ps_block(p);
    p->loop_depth--;
    return body;
}

/* if c { } else if d { } else { }: else-if chains are built in a loop, not by recursion. */
static Node *if_stmt(Parser *p)
{
    Node *first = ps_node_here(p, N_IF), *cur = first;
    for (;;) {
        ps_advance(p);                     /* the 'if' */
        cur->a = ps_expression(p);
        cur->b = ps_block(p);
        if (!ps_at(p, TK_ELSE)) return first;
        ps_advance(p);
        if (ps_at(p, TK_LBRACE)) {
            cur->c = ps_block(p);
            return first;
        }
        if (!ps_at(p, TK_IF)) ps_fail_expected(p, "'{' or 'if' after 'else'");
        cur->c = ps_node_here(p, N_IF);
        cur = cur->c;
    }
}

static Node *while_stmt(Parser *p)
{
    Node *n = ps_node_here(p, N_WHILE);
    ps_advance(p);
    n->a = ps_expression(p);
    n->b = loop_body(p);
    return n;
}

static Node *for_stmt(Parser *p)
{
    Node *n = ps_node_here(p, N_FOR);
    ps_advance(p);
    Node *target = ps_target(p);
    if (target->kind == N_NAME) n->name = target->name;
    else n->c = target;   /* for i, x in ...: each item unpacks */
    ps_expect(p, TK_IN);
    n->a = ps_expression(p);
    n->b = loop_body(p);
    return n;
}

/* try { body } catch e { handler } */
static Node *try_stmt(Parser *p)
{
    Node *n = ps_node_here(p, N_TRY);
    ps_advance(p);
    n->a = ps_block(p);
    ps_expect(p, TK_CATCH);
    if (!ps_at(p, TK_NAME)) ps_fail_expected(p, "a name for the error after 'catch'");
    n->name = ps_token_text(p, &p->tok);
    ps_advance(p);
    n->b = ps_block(p);
    return n;
}

static Node *jump_stmt(Parser *p)
{
    Node *n = ps_node_here(p, ps_at(p, TK_BREAK) ? N_BREAK : N_CONTINUE);
    if (p->loop_depth == 0)
        fail_here(p, "%s outside a loop", ps_at(p, TK_BREAK) ? "'break'" : "'continue'");
    ps_advance(p);
    return n;
}

static Node *parse_exprlist(Parser *p);
static void no_starred(Parser *p, Node *e);

/* global x, y: the function's assignments to these names rebind the globals; nonlocal x, y
   (op 1), in a function: they rebind an enclosing function's locals (the resolver finds which). */
static Node *global_stmt(Parser *p)
{
    Node *n = ps_node_here(p, N_GLOBAL);
    n->op = ps_at(p, TK_NONLOCAL);
    if (n->op && p->fn_depth == 0) fail_here(p, "'nonlocal' outside a function (at the top level every name is global)");
    NodeVec names = {0};
    do {
        ps_advance(p);   /* 'global', 'nonlocal' or ',' */
        if (!ps_at(p, TK_NAME)) ps_fail_expected(p, n->op ? "a name after 'nonlocal'" : "a name after 'global'");
        ps_vec_push(p, &names, ps_name_expr(p));
    } while (ps_at(p, TK_COMMA));
    ps_set_list(n, &names);
    return n;
}

/* del t, ...: names, items (xs[i], d[k]) and slices (xs[a:b]). */
static Node *del_stmt(Parser *p)
{
    Node *n = ps_node_here(p, N_DEL);
    ps_advance(p);
    Node *t = parse_exprlist(p);
    NodeVec targets = {0};
    if (t->kind == N_TUPLE && t->n > 0) {
        for (int i = 0; i < t->n; i++) ps_vec_push(p, &targets, t->list[i]);
    } else {
        ps_vec_push(p, &targets, t);
    }
    for (int i = 0; i < targets.n; i++) {
        Node *x = targets.items[i];
        if (x->kind != N_NAME && x->kind != N_INDEX) ps_fail_at(p, node_start(x), "cannot delete this expression (del takes names and items such as xs[i])");
    }
    ps_set_list(n, &targets);
    return n;
}

static Node *return_stmt(Parser *p)
{
    Node *n = ps_node_here(p, N_RETURN);
    if (p->fn_depth == 0) fail_here(p, "'return' outside a function");
    ps_advance(p);
    if (!at_statement_end(p)) {
        n->a = parse_exprlist(p);
        no_starred(p, n->a);
    }
    return n;
}

static Node *fn_stmt(Parser *p)
{
    Node *n = ps_node_here(p, N_FNDEF);
    ps_advance(p);
    n->name = ps_token_text(p, &p->tok);
    ps_advance(p);
    n->fn = ps_fn_rest(p, n->name, n->at);
    return n;
}

/* e or e1, e2, ... (a tuple, trailing comma allowed): statement values and targets. An item
   may be *e: in a value it splices e's items into the tuple (x = 1, *t), in a target it takes
   the items left over (a, *rest = t); alone it is neither (no_starred, check_target). */
static Node *parse_exprlist(Parser *p)
{
    bool splat = false;
    Node *first = ps_display_item(p, &splat);
    if (!ps_at(p, TK_COMMA)) return first;
    return ps_tuple_rest(p, first, splat, node_start(first), TK_COUNT);
}

/* Refuses a value that is a starred *e alone (in a tuple it splices). */
static void no_starred(Parser *p, Node *e)
{
    if (e->kind == N_STARARG)
        ps_fail_at(p, e->at, "a starred *%s cannot stand alone: write *%s, for a tuple of its items (or a, *rest = t to unpack)",
                   starred_name(e), starred_name(e));
}

/* Targets are names and index expressions (and, for '=', tuples of targets, one item of a
   tuple may be starred: a, *rest = t). */
static void check_target(Parser *p, Node *t, bool tuple_ok)
{
    switch (t->kind) {
    case N_NAME: case N_INDEX:
        return;
    case N_ATTR:
        ps_fail_at(p, t->at, "cannot assign to attribute '%s'", t->name);
    case N_STARARG:
        ps_fail_at(p, t->at, tuple_ok ? "a starred target must be one of several: a, *rest = t"
                                      : "augmented assignment needs a single name or index target");
    case N_TUPLE:
        if (!tuple_ok) ps_fail_at(p, t->at, "augmented assignment needs a single name or index target");
        if (t->n == 0) break;
        for (int i = 0, starred = 0; i < t->n; i++) {
            Node *item = t->list[i];
            if (item->kind == N_STARARG) {
                if (starred++) ps_fail_at(p, item->at, "only one target of a tuple may be starred");
                item = item->a;
                if (item->kind == N_STARARG || item->kind == N_TUPLE) ps_fail_at(p, node_start(item), "cannot assign to this expression");
            }
            check_target(p, item, true);
        }
        return;
    default:
        break;
    }
    ps_fail_at(p, node_start(t), "cannot assign to this expression");
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
    if (ps_at(p, TK_ASSIGN) || op >= 0) {
        check_target(p, e, op < 0);
        Node *n = ps_node_here(p, op < 0 ? N_ASSIGN : N_OPASSIGN);
        n->op = op < 0 ? 0 : op;
        ps_advance(p);
        n->a = e;
        n->b = parse_exprlist(p);
        no_starred(p, n->b);
        return n;
    }
    no_starred(p, e);
    Node *n = ps_new_node(p, N_EXPR_STMT, node_start(e));
    n->a = e;
    n->echo = !ps_at(p, TK_SEMI);
    return n;
}

/* Python's statement form `assert cond` or `assert cond, message`: a call of assert (a builtin,
   shadowable as any global). Taken only where `assert` followed by that token could not be an
   expression: `assert(c)`, `assert[i]` and `assert - x` stay expressions (`assert not c` is the
   statement: `assert not in xs` would ask whether the function is in xs). */
static Node *assert_stmt(Parser *p)
{
    Node *call = ps_node_here(p, N_CALL);
    call->a = ps_name_expr(p);
    NodeVec args = {0};
    ps_vec_push(p, &args, ps_expression(p));
    if (ps_at(p, TK_COMMA)) {
        ps_advance(p);
        ps_vec_push(p, &args, ps_expression(p));
    }
    ps_set_list(call, &args);
    Node *n = ps_new_node(p, N_EXPR_STMT, call->at);
    n->a = call;
    n->echo = false;
    return n;
}

static Node *parse_statement(Parser *p)
{
    switch (p->tok.kind) {
    case TK_NAME:
        if (p->tok.len == 6 && memcmp(p->tok.start, "assert", 6) == 0 &&
            (ps_peek_kind(p) == TK_NOT || ps_kind_starts_operand_only(ps_peek_kind(p))))
            return assert_stmt(p);
        break;
    case TK_FN:
        if (ps_peek_kind(p) == TK_NAME) return fn_stmt(p);
        break;
    case TK_IF: return if_stmt(p);
    case TK_WHILE: return while_stmt(p);
    case TK_FOR: return for_stmt(p);
    case TK_TRY: return try_stmt(p);
    case TK_BREAK: case TK_CONTINUE: return jump_stmt(p);
    case TK_RETURN: return return_stmt(p);
    case TK_GLOBAL: case TK_NONLOCAL: return global_stmt(p);
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
            ps_fail_at(p, node_start(root), "expression too long or too deeply nested");
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
    if (!ok) ps_fail_at(p, root->at, "out of memory");
}


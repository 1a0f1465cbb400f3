/* test_parser.c — the Pratt parser: trees as S-expressions, statements, errors, incomplete input, nesting limits */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "parse.h"
#include "token.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(parser);

/* ---- a small S-expression printer for trees ---- */

static void show(FILE *out, const Node *n);

static void show_list(FILE *out, const Node *n)
{
    for (int i = 0; i < n->n; i++) {
        fputc(' ', out);
        if (n->names && n->names[i]) fprintf(out, "%s=", n->names[i]);
        show(out, n->list[i]);
    }
}

static void show_opt(FILE *out, const Node *n)
{
    if (n) show(out, n);
    else fputc('_', out);
}

static void show_fn(FILE *out, const FnDef *fn)
{
    fputc('(', out);
    for (int k = 0; k < fndef_written_count(fn); k++) {   /* in the order written */
        const char *stars;
        int i = fndef_written_param(fn, k, &stars);
        if (k) fputc(' ', out);
        fputs(stars, out);
        if (i < 0) continue;   /* a bare * */
        fputs(fn->params[i], out);
        if (fn->defaults[i]) {
            fputc('=', out);
            show(out, fn->defaults[i]);
        }
    }
    fputs(") ", out);
    show(out, fn->body);
}

/* Expressions print Lisp-style: (+ a b), (? cond then else), [list], (tuple ...);
   statements as (= t v), (if c {..} else), {blocks}; an unechoed statement as (quiet e). */
static void show(FILE *out, const Node *n)
{
    switch (n->kind) {
    case N_INT: fprintf(out, "%lld", (long long)n->ival); break;
    case N_FLOAT: fprintf(out, "%g", n->fval); break;
    case N_IMAG: fprintf(out, "%gj", n->fval); break;
    case N_STR:
        fputc('"', out);
        fwrite(n->str, 1, n->slen, out);
        fputc('"', out);
        break;
    case N_TRUE: fputs("true", out); break;
    case N_FALSE: fputs("false", out); break;
    case N_NONE: fputs("none", out); break;
    case N_NAME: fputs(n->name, out); break;
    case N_UNARY: fprintf(out, "(%s ", op_unary_symbol((UnaryOp)n->op)); show(out, n->a); fputc(')', out); break;
    case N_BINARY:
        fprintf(out, "(%s ", op_binary_symbol(n->op));
        show(out, n->a);
        fputc(' ', out);
        show(out, n->b);
        fputc(')', out);
        break;
    case N_AND: case N_OR:
        fprintf(out, "(%s ", n->kind == N_AND ? "and" : "or");
        show(out, n->a);
        fputc(' ', out);
        show(out, n->b);
        fputc(')', out);
        break;
    case N_COND:
        fputs("(? ", out);
        show(out, n->b);
        fputc(' ', out);
        show(out, n->a);
        fputc(' ', out);
        show(out, n->c);
        fputc(')', out);
        break;
    case N_CALL: fputs("(call ", out); show(out, n->a); show_list(out, n); fputc(')', out); break;
    case N_METHOD:
        fputs("(method ", out);
        show(out, n->a);
        fprintf(out, " %s", n->name);
        show_list(out, n);
        fputc(')', out);
        break;
    case N_ATTR: fputs("(. ", out); show(out, n->a); fprintf(out, " %s)", n->name); break;
    case N_INDEX: fputs("(index ", out); show(out, n->a); show_list(out, n); fputc(')', out); break;
    case N_SLICE:
        fputs("(slice ", out);
        show_opt(out, n->a);
        fputc(' ', out);
        show_opt(out, n->b);
        fputc(' ', out);
        show_opt(out, n->c);
        fputc(')', out);
        break;
    case N_ELLIPSIS: fputs("...", out); break;
    case N_LIST:
        fputc('[', out);
        for (int i = 0; i < n->n; i++) {
            if (i) fputc(' ', out);
            show(out, n->list[i]);
        }
        fputc(']', out);
        break;
    case N_TUPLE: fputs("(tuple", out); show_list(out, n); fputc(')', out); break;
    case N_DICT: fputs("(dict", out); show_list(out, n); fputc(')', out); break;
    case N_LAMBDA: fputs("(fn ", out); show_fn(out, n->fn); fputc(')', out); break;
    case N_EXPR_STMT:
        if (n->echo) show(out, n->a);
        else { fputs("(quiet ", out); show(out, n->a); fputc(')', out); }
        break;
    case N_ASSIGN: case N_OPASSIGN:
        fprintf(out, "(%s%s ", n->kind == N_OPASSIGN ? op_binary_symbol(n->op) : "", "=");
        show(out, n->a);
        fputc(' ', out);
        show(out, n->b);
        fputc(')', out);
        break;
    case N_FNDEF: fprintf(out, "(def %s ", n->name); show_fn(out, n->fn); fputc(')', out); break;
    case N_IF:
        fputs("(if ", out);
        show(out, n->a);
        fputc(' ', out);
        show(out, n->b);
        if (n->c) { fputc(' ', out); show(out, n->c); }
        fputc(')', out);
        break;
    case N_WHILE: fputs("(while ", out); show(out, n->a); fputc(' ', out); show(out, n->b); fputc(')', out); break;
    case N_FOR:
        if (n->name) fprintf(out, "(for %s ", n->name);
        else { fputs("(for ", out); show(out, n->c); fputc(' ', out); }
        show(out, n->a);
        fputc(' ', out);
        show(out, n->b);
        fputc(')', out);
        break;
    case N_BREAK: fputs("break", out); break;
    case N_CONTINUE: fputs("continue", out); break;
    case N_RETURN:
        fputs("(return", out);
        if (n->a) { fputc(' ', out); show(out, n->a); }
        fputc(')', out);
        break;
    case N_BLOCK:
        fputc('{', out);
        for (int i = 0; i < n->n; i++) {
            if (i) fputs("; ", out);
            show(out, n->list[i]);
        }
        fputc('}', out);
        break;
    case N_IN:
        fprintf(out, "(%s ", n->op ? "not-in" : "in");
        show(out, n->a);
        fputc(' ', out);
        show(out, n->b);
        fputc(')', out);
        break;
    case N_LISTCOMP: case N_DICTCOMP:
        fprintf(out, "(%s ", n->kind == N_LISTCOMP ? "listcomp" : "dictcomp");
        show(out, n->a);
        if (n->b) { fputc(' ', out); show(out, n->b); }
        show_list(out, n);
        fputc(')', out);
        break;
    case N_COMPFOR: fputs("(for ", out); show(out, n->c); fputc(' ', out); show(out, n->b); fputc(')', out); break;
    case N_COMPIF: fputs("(if ", out); show(out, n->a); fputc(')', out); break;
    case N_STARARG: fputs("(* ", out); show(out, n->a); fputc(')', out); break;
    case N_STARSTAR: fputs("(** ", out); show(out, n->a); fputc(')', out); break;
    case N_GLOBAL: fputs("(global", out); show_list(out, n); fputc(')', out); break;
    case N_DEL: fputs("(del", out); show_list(out, n); fputc(')', out); break;
    default: fprintf(out, "?kind%d", n->kind);
    }
}

/* ---- parsing helpers ---- */

typedef struct Parsed {
    Source src;
    Arena *arena;
    Diag err;
    ParseResult res;
} Parsed;

static Parsed *parse_n(const char *text, size_t len)
{
    Parsed *p = calloc(1, sizeof *p);
    p->src.name = "<test>";
    p->src.text = (char *)text;
    p->src.len = len;
    p->arena = arena_new();
    p->res = parse_program(&p->src, p->arena, &p->err);
    return p;
}

static Parsed *parse(const char *text) { return parse_n(text, strlen(text)); }

static void done(Parsed *p)
{
    arena_free(p->arena);
    free(p);
}

/* The program's statements as S-expressions joined by "; ", or "error L:C: message". */
static char *sexpr_n(const char *text, size_t len)
{
    Parsed *p = parse_n(text, len);
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    if (!p->res.root) {
        fprintf(out, "error %d:%d: %s%s", p->err.at.line, p->err.at.col, p->err.msg,
                p->res.incomplete ? " (incomplete)" : "");
    } else {
        const Node *root = p->res.root;
        cr_assert_eq(root->kind, N_BLOCK);
        for (int i = 0; i < root->n; i++) {
            if (i) fputs("; ", out);
            show(out, root->list[i]);
        }
    }
    fclose(out);
    done(p);
    return buf;
}

static char *sexpr(const char *text) { return sexpr_n(text, strlen(text)); }

#define expect_tree(text, expected) \
    do { \
        char *got_ = sexpr(text); \
        cr_assert_str_eq(got_, expected, "parsing [%s]", text); \
        free(got_); \
    } while (0)

/* The first top-level node of text, which must parse; the arena stays alive in *keep. */
static Node *first_node(const char *text, Parsed **keep)
{
    *keep = parse(text);
    cr_assert_not_null((*keep)->res.root, "%s: %s", text, (*keep)->err.msg);
    cr_assert_geq((*keep)->res.root->n, 1);
    return (*keep)->res.root->list[0];
}

/* ---- precedence and associativity, one level at a time ---- */

Test(parser, power_binds_tighter_than_prefix_minus)
{
    expect_tree("-2**2", "(- (** 2 2))");
    expect_tree("2**-1", "(** 2 (- 1))");
    expect_tree("-2**-2", "(- (** 2 (- 2)))");
    expect_tree("2**-x*3", "(* (** 2 (- x)) 3)");
    expect_tree("2**3**2", "(** 2 (** 3 2))");
    expect_tree("a.b**2", "(** (. a b) 2)");
}

Test(parser, prefix_operators)
{
    expect_tree("-a * b", "(* (- a) b)");
    expect_tree("~a + b", "(+ (~ a) b)");
    expect_tree("+a", "(+ a)");
    expect_tree("- -a", "(- (- a))");
    expect_tree("-x.T", "(- (. x T))");
    expect_tree("-f(x)[0]", "(- (index (call f x) 0))");
}

Test(parser, multiplicative_and_additive)
{
    expect_tree("a + b * c", "(+ a (* b c))");
    expect_tree("a * b + c", "(+ (* a b) c)");
    expect_tree("a - b - c", "(- (- a b) c)");
    expect_tree("a / b // c % d @ e", "(@ (% (// (/ a b) c) d) e)");
    expect_tree("(a + b) * c", "(* (+ a b) c)");
    expect_tree("a @ b.T", "(@ a (. b T))");
}

Test(parser, comparisons)
{
    expect_tree("a == b + 1", "(== a (+ b 1))");
    expect_tree("a != b", "(!= a b)");
    expect_tree("a < b", "(< a b)");
    expect_tree("a <= b", "(<= a b)");
    expect_tree("a > b", "(> a b)");
    expect_tree("a >= -b", "(>= a (- b))");
    expect_tree("(a < b) < c", "(< (< a b) c)");
}

Test(parser, comparisons_cannot_chain)
{
    expect_tree("a < b < c", "error 1:7: comparison operators cannot be chained");
    expect_tree("a == b + 1 != c", "error 1:12: comparison operators cannot be chained");
}

Test(parser, bitwise_and_or_bind_looser_than_comparisons)
{
    expect_tree("x > 1 & x < 5", "(& (> x 1) (< x 5))");
    expect_tree("a | b & c", "(| a (& b c))");
    expect_tree("a & b | c", "(| (& a b) c)");
    expect_tree("a | b | c", "(| (| a b) c)");
    expect_tree("a == b | c", "(| (== a b) c)");
}

Test(parser, not_and_or)
{
    expect_tree("not a == b", "(not (== a b))");
    expect_tree("not a & b", "(not (& a b))");
    expect_tree("not a and b", "(and (not a) b)");
    expect_tree("not not a", "(not (not a))");
    expect_tree("a or b and c", "(or a (and b c))");
    expect_tree("a and b or c", "(or (and a b) c)");
    expect_tree("a and b and c", "(and (and a b) c)");
    expect_tree("a or not b", "(or a (not b))");
}

Test(parser, conditional_expression)
{
    expect_tree("a if c else b", "(? c a b)");
    expect_tree("a if c else b if d else e", "(? c a (? d b e))");
    expect_tree("a or b if c or d else e", "(? (or c d) (or a b) e)");
    expect_tree("x = 1 if c else 2", "(= x (? c 1 2))");
    expect_tree("a if c", "error 1:7: expected 'else' but found end of input");
}

/* ---- postfix forms ---- */

Test(parser, calls_with_keywords)
{
    expect_tree("f()", "(call f)");
    expect_tree("f(x)", "(call f x)");
    expect_tree("sum(x, axis=1)", "(call sum x axis=1)");
    expect_tree("sum(x, axis=1, keepdims=true)", "(call sum x axis=1 keepdims=true)");
    expect_tree("f(a, b,)", "(call f a b)");
    expect_tree("f(x == 1)", "(call f (== x 1))");
    expect_tree("f(x)(y)", "(call (call f x) y)");
    expect_tree("f(\n  x,\n  axis = 1\n)", "(call f x axis=1)");
}

Test(parser, call_argument_errors)
{
    expect_tree("f(axis=1, x)", "error 1:11: positional argument follows keyword argument");
    expect_tree("f(a=1, b=2, a=3)", "error 1:13: keyword argument repeated: a");
    expect_tree("f(a b)", "error 1:5: expected ')' but found name 'b'");
    expect_tree("f(,)", "error 1:3: unexpected token ','");
}

Test(parser, splats_and_variadic_parameters)
{
    expect_tree("f(*xs)", "(call f (* xs))");
    expect_tree("f(a, *xs, *ys, k=1, **d)", "(call f a (* xs) (* ys) k=1 (** d))");
    expect_tree("f(**d, k=1)", "(call f (** d) k=1)");
    expect_tree("f(k=1, *xs)", "error 1:8: *iterable follows a keyword argument; put it before the keywords");
    expect_tree("f(**d, x)", "error 1:8: positional argument follows keyword argument");
    expect_tree("fn g(a, b=1, *rest, **names) = a", "(def g (a b=1 *rest **names) a)");
    expect_tree("fn(*xs) = xs", "(fn (*xs) xs)");
    expect_tree("fn g(*a, b) = a", "(def g (*a b) a)");   /* b keyword-only */
    expect_tree("fn g(a, *r, b=2, c, **k) = a", "(def g (a *r b=2 c **k) a)");
    expect_tree("fn g(a=1, *, b, c=3) = a", "(def g (a=1 * b c=3) a)");
    expect_tree("fn g(a, *) = a", "error 1:9: a bare * must be followed by a keyword-only parameter");
    expect_tree("fn g(a, *, **k) = a", "error 1:9: a bare * must be followed by a keyword-only parameter");
    expect_tree("fn g(*a, *, b) = a", "error 1:10: only one *rest or bare * may be written");
    expect_tree("fn g(*, b, *c) = b", "error 1:12: only one *rest or bare * may be written");
    expect_tree("fn g(a=1, *, b, c) = a", "(def g (a=1 * b c) a)");
    expect_tree("fn g(a=1, b, *, c) = a", "error 1:11: parameter 'b' without a default follows one with a default");
    expect_tree("fn g(**k, a) = a", "error 1:11: no parameter may follow **names");
    expect_tree("fn g(*a=1) = a", "error 1:8: *rest takes no default (it is () when nothing is left)");
}

Test(parser, call_node_layout)
{
    Parsed *keep;
    Node *s = first_node("  f(x, k=2)", &keep);
    Node *call = s->a;
    cr_assert_eq(call->kind, N_CALL);
    cr_assert_eq(call->at.col, 4, "a call points at its '('");
    cr_assert_eq(call->n, 2);
    cr_assert_null(call->names[0]);
    cr_assert_str_eq(call->names[1], "k");
    cr_assert_eq(s->at.col, 3, "a statement points at its first token");
    done(keep);
}

Test(parser, methods_and_attributes)
{
    expect_tree("a.T", "(. a T)");
    expect_tree("a.shape[0]", "(index (. a shape) 0)");
    expect_tree("a.f(1, k=2)", "(method a f 1 k=2)");
    expect_tree("a.sum(axis=1).max()", "(method (method a sum axis=1) max)");
    expect_tree("a.b.c", "(. (. a b) c)");
    expect_tree("x.(1)", "error 1:3: expected a name after '.' but found '('");
    expect_tree("x.1", "error 1:2: invalid syntax");   /* .1 is a number */
    Parsed *keep;
    Node *m = first_node("xs.reshape(2, 3)", &keep)->a;
    cr_assert_eq(m->kind, N_METHOD);
    cr_assert_str_eq(m->name, "reshape");
    cr_assert_eq(m->n, 2);
    cr_assert_eq(m->at.col, 4, "a method points at its name");
    done(keep);
}

Test(parser, indexing_and_slices)
{
    expect_tree("a[1]", "(index a 1)");
    expect_tree("a[i, j]", "(index a i j)");
    expect_tree("a[1:2]", "(index a (slice 1 2 _))");
    expect_tree("a[:]", "(index a (slice _ _ _))");
    expect_tree("a[::2]", "(index a (slice _ _ 2))");
    expect_tree("a[1:]", "(index a (slice 1 _ _))");
    expect_tree("a[:-1]", "(index a (slice _ (- 1) _))");
    expect_tree("a[::-1]", "(index a (slice _ _ (- 1)))");
    expect_tree("a[1:2:3]", "(index a (slice 1 2 3))");
    expect_tree("a[1::3]", "(index a (slice 1 _ 3))");
    expect_tree("a[..., 0]", "(index a ... 0)");
    expect_tree("a[none, :, 1]", "(index a none (slice _ _ _) 1)");
    expect_tree("a[[0, 2]]", "(index a [0 2])");
    expect_tree("a[a > 0]", "(index a (> a 0))");
    expect_tree("a[1,]", "(index a 1)");
    expect_tree("a[0][1]", "(index (index a 0) 1)");
    expect_tree("a[\n1,\n2]", "(index a 1 2)");
}

Test(parser, index_errors)
{
    expect_tree("a[]", "error 1:3: unexpected token ']'");
    expect_tree("x = ...", "error 1:5: unexpected token '...'");
    expect_tree("a[... + 1]", "error 1:7: expected ']' but found '+'");
    expect_tree("a[1:2:3:4]", "error 1:8: expected ']' but found ':'");
}

/* ---- literals ---- */

Test(parser, literals)
{
    expect_tree("42; 1.5; 2j; \"s\"; true; false; none", "(quiet 42); (quiet 1.5); (quiet 2j); (quiet \"s\"); (quiet true); (quiet false); none");
    expect_tree("'a\\tb'", "\"a\tb\"");
}

Test(parser, tuples_versus_parentheses)
{
    expect_tree("(1, 2)", "(tuple 1 2)");
    expect_tree("(3,)", "(tuple 3)");
    expect_tree("()", "(tuple)");
    expect_tree("(x)", "x");
    expect_tree("((x))", "x");
    expect_tree("(1, 2,)", "(tuple 1 2)");
    expect_tree("((1, 2), (3,))", "(tuple (tuple 1 2) (tuple 3))");
    expect_tree("(,)", "error 1:2: unexpected token ','");
}

Test(parser, lists)
{
    expect_tree("[]", "[]");
    expect_tree("[1, 2, 3]", "[1 2 3]");
    expect_tree("[[1, 2], [3, 4]]", "[[1 2] [3 4]]");
    expect_tree("[1,]", "[1]");
    expect_tree("[\n  1,\n  2,\n]", "[1 2]");
    expect_tree("[1 2]", "error 1:4: expected ']' but found number");
}

Test(parser, section13_syntax)
{
    expect_tree("a in b", "(in a b)");
    expect_tree("a not in b", "(not-in a b)");
    expect_tree("not a in b", "(not (in a b))");
    expect_tree("a + 1 in b or c", "(or (in (+ a 1) b) c)");
    expect_tree("x in y == z", "error 1:8: comparison operators cannot be chained");
    expect_tree("a < b in c", "error 1:7: comparison operators cannot be chained");
    expect_tree("a not b", "error 1:7: expected 'in' after 'not' but found name 'b'");
    expect_tree("[x * 2 for x in xs]", "(listcomp (* x 2) (for x xs))");
    expect_tree("[x for x in xs if x > 0 if x < 9]", "(listcomp x (for x xs) (if (> x 0)) (if (< x 9)))");
    expect_tree("[(i, j) for i in a for j in b]", "(listcomp (tuple i j) (for i a) (for j b))");
    expect_tree("[a if c else b for x in xs if c]", "(listcomp (? c a b) (for x xs) (if c))");
    expect_tree("[k for k, v in items(d)]", "(listcomp k (for (tuple k v) (call items d)))");
    expect_tree("[y for (a, (b, y)) in t]", "(listcomp y (for (tuple a (tuple b y)) t))");
    expect_tree("{k: v for k in ks}", "(dictcomp k v (for k ks))");
    expect_tree("[\n x\n for x in xs\n if x\n]", "(listcomp x (for x xs) (if x))");
    expect_tree("[x for 1 in xs]", "error 1:8: expected a loop variable name but found number");
    expect_tree("[x for x xs]", "error 1:10: expected 'in' but found name 'xs'");
    expect_tree("[x, y for x in xs]", "error 1:7: expected ']' but found 'for'");
    expect_tree("for i, x in e { }", "(for (tuple i x) e {})");
    expect_tree("for i, *x in e { }", "(for (tuple i (* x)) e {})");
    expect_tree("for *x in e { }", "error 1:5: a starred target must be one of several: a, *rest");
    expect_tree("for (i, x) in e { }", "(for (tuple i x) e {})");
    expect_tree("fn f() { global a, b; a = 1 }", "(def f () {(global a b); (= a 1)})");
    expect_tree("global", "error 1:7: expected a name after 'global' but found end of input");
    expect_tree("del xs[0], d[\"k\"], y", "(del (index xs 0) (index d \"k\") y)");
    expect_tree("del f()", "error 1:5: cannot delete this expression (del takes names and items such as xs[i])");
}

Test(parser, dicts)
{
    expect_tree("{}", "(dict)");
    expect_tree("{\"a\": 1, \"b\": x}", "(dict \"a\" 1 \"b\" x)");
    expect_tree("{'a': 1,}", "(dict \"a\" 1)");
    expect_tree("d = {\n  'a': [1,\n 2],\n  'b': 3\n}", "(= d (dict \"a\" [1 2] \"b\" 3))");
    expect_tree("d['a']", "(index d \"a\")");
    expect_tree("{1, 2}", "error 1:3: expected ':' after a dict key but found ','");
}

Test(parser, lambdas)
{
    expect_tree("fn(x) = x * 2", "(fn (x) (* x 2))");
    expect_tree("fn(x, y=1) = x + y", "(fn (x y=1) (+ x y))");
    expect_tree("fn() = 1", "(fn () 1)");
    expect_tree("f = fn(x) = x if x else -x", "(= f (fn (x) (? x x (- x))))");
    expect_tree("map(fn(x) = x, y)", "(call map (fn (x) x) y)");
    expect_tree("time(fn() {\n  x = 1\n  return x\n})", "(call time (fn () {(= x 1); (return x)}))");
    Parsed *keep;
    Node *lam = first_node("g = fn(a, b=2) = a", &keep)->b;
    cr_assert_eq(lam->kind, N_LAMBDA);
    cr_assert_str_eq(lam->fn->name, "<lambda>");
    cr_assert_eq(lam->fn->nparams, 2);
    cr_assert_null(lam->fn->defaults[0]);
    cr_assert_eq(lam->fn->defaults[1]->ival, 2);
    cr_assert(lam->fn->body_is_expr);
    done(keep);
}

/* ---- statements ---- */

Test(parser, assignments)
{
    expect_tree("x = 1", "(= x 1)");
    expect_tree("a[i] = e", "(= (index a i) e)");
    expect_tree("a[1:2, 0] = 0", "(= (index a (slice 1 2 _) 0) 0)");
    expect_tree("a.T[0] = 1", "(= (index (. a T) 0) 1)");
    expect_tree("p, q = e", "(= (tuple p q) e)");
    expect_tree("p, q = q, p", "(= (tuple p q) (tuple q p))");
    expect_tree("assert x > 0", "(quiet (call assert (> x 0)))");
    expect_tree("assert not x, \"m\"", "(quiet (call assert (not x) \"m\"))");
    expect_tree("assert(x)", "(call assert x)");
    expect_tree("assert - x", "(- assert x)");
    expect_tree("p, *q = e", "(= (tuple p (* q)) e)");
    expect_tree("*p, q[0] = e", "(= (tuple (* p) (index q 0)) e)");
    expect_tree("*p = e", "error 1:1: a starred target must be one of several: a, *rest = t");
    expect_tree("p, *q, *r = e", "error 1:8: only one target of a tuple may be starred");
    expect_tree("p = 1, *q", "(= p (tuple 1 (* q)))");
    expect_tree("p, *q", "(tuple p (* q))");
    expect_tree("p = *q", "error 1:5: a starred *q cannot stand alone: write *q, for a tuple of its items (or a, *rest = t to unpack)");
    expect_tree("(*q, [*r, 1], {**d, \"k\": 2})", "(tuple (* q) [(* r) 1] (dict (** d) none \"k\" 2))");
    expect_tree("(*q)", "error 1:2: a starred *q cannot stand alone in parentheses: write (*q,) for a tuple of its items");
    expect_tree("[*q for q in r]", "error 1:2: a starred *q cannot be a comprehension's item");
    expect_tree("(a, *b), c = t", "(= (tuple (tuple a (* b)) c) t)");
    expect_tree("(p, q) = t", "(= (tuple p q) t)");
    expect_tree("a[0], b = t", "(= (tuple (index a 0) b) t)");
    expect_tree("(a, b), c = t", "(= (tuple (tuple a b) c) t)");
    expect_tree("x = 1, 2", "(= x (tuple 1 2))");
    expect_tree("x = 1,", "(= x (tuple 1))");
}

Test(parser, augmented_assignments)
{
    expect_tree("x += 1", "(+= x 1)");
    expect_tree("x -= 1", "(-= x 1)");
    expect_tree("x *= 2", "(*= x 2)");
    expect_tree("x /= 2", "(/= x 2)");
    expect_tree("m @= w", "(@= m w)");
    expect_tree("a[1:] += a[:-1]", "(+= (index a (slice 1 _ _)) (index a (slice _ (- 1) _)))");
    Parsed *keep;
    Node *s = first_node("x += 1", &keep);
    cr_assert_eq(s->kind, N_OPASSIGN);
    cr_assert_eq(s->op, TL_ADD);
    cr_assert_eq(s->at.col, 3, "an assignment points at its operator");
    done(keep);
}

Test(parser, assignment_errors)
{
    expect_tree("a.b = 1", "error 1:3: cannot assign to attribute 'b'");
    expect_tree("f(x) = 1", "error 1:1: cannot assign to this expression");
    expect_tree("y = 1 + 2 = 3", "error 1:11: invalid syntax");
    expect_tree("1 + 2 = 3", "error 1:1: cannot assign to this expression");
    expect_tree("x, 2 = t", "error 1:4: cannot assign to this expression");
    expect_tree("() = t", "error 1:1: cannot assign to this expression");
    expect_tree("a, b += 1", "error 1:1: augmented assignment needs a single name or index target");
    expect_tree("x.y += 1", "error 1:3: cannot assign to attribute 'y'");
    expect_tree("x = ", "error 1:5: unexpected end of input");
    expect_tree("x = \ny", "error 1:5: unexpected end of line");
    /* Python's other augmented assignments: the message names the operator and tl's own */
    static const char *const py[] = { "//", "%", "**", "&", "|", "^", "<<", ">>" };
    for (size_t i = 0; i < sizeof py / sizeof py[0]; i++) {
        char text[32], want[256];
        snprintf(text, sizeof text, "x %s= 2", py[i]);
        snprintf(want, sizeof want, "error 1:3: '%s=' is not an operator in tl (its augmented assignments are += -= *= /= @=): "
                 "write x = x %s y", py[i], py[i]);
        expect_tree(text, want);
    }
    expect_tree("x ** = 2", "error 1:6: unexpected token '='");   /* apart, they are two tokens */
    expect_tree("= x + 1", "error 1:1: unexpected token '='");     /* no token before it (fuzz_parse) */
}

Test(parser, function_definitions)
{
    expect_tree("fn f(p, q=1) = p + q", "(def f (p q=1) (+ p q))");
    expect_tree("fn f(x) {\n  return x\n}", "(def f (x) {(return x)})");
    expect_tree("fn f() {}", "(def f () {})");
    expect_tree("fn f(a,\n     b) = a", "(def f (a b) a)");
    expect_tree("fn f(a=1, b) = 0", "error 1:11: parameter 'b' without a default follows one with a default");
    expect_tree("fn f(a, b, a) = 0", "error 1:12: duplicate parameter 'a'");
    expect_tree("fn f(x)\n{ }", "error 1:8: expected '=' or '{' after the parameters but found end of line");
    expect_tree("fn f(1) = 0", "error 1:6: expected a parameter name but found number");
    Parsed *keep;
    Node *d = first_node("fn area(w, h=2) { return w * h }", &keep);
    cr_assert_eq(d->kind, N_FNDEF);
    cr_assert_str_eq(d->name, "area");
    cr_assert_str_eq(d->fn->name, "area");
    cr_assert_eq(d->fn->nparams, 2);
    cr_assert_str_eq(d->fn->params[1], "h");
    cr_assert_not(d->fn->body_is_expr);
    cr_assert_eq(d->fn->body->kind, N_BLOCK);
    done(keep);
}

Test(parser, if_statements)
{
    expect_tree("if c { x }", "(if c {x})");
    expect_tree("if c { x } else { y }", "(if c {x} {y})");
    expect_tree("if c { x } else if d { y } else { z }", "(if c {x} (if d {y} {z}))");
    expect_tree("if a {\n} else if b {\n} else if c {\n}", "(if a {} (if b {} (if c {})))");
    expect_tree("if x > 1 & x < 5 {\n  y = 1\n  z = 2\n}", "(if (& (> x 1) (< x 5)) {(= y 1); (= z 2)})");
    expect_tree("if (a\n > b) { }", "(if (> a b) {})");
}

Test(parser, if_statement_errors)
{
    expect_tree("if c { x }\nelse { y }", "error 2:1: 'else' must follow '}' on the same line");
    expect_tree("if c\n{ x }", "error 1:5: expected '{' but found end of line");
    expect_tree("if c { x } else y", "error 1:17: expected '{' or 'if' after 'else' but found name 'y'");
    expect_tree("if c { x } y", "error 1:12: invalid syntax");
}

Test(parser, loops_and_jumps)
{
    expect_tree("while c { x += 1 }", "(while c {(+= x 1)})");
    expect_tree("for i in range(n) {\n  s += i\n}", "(for i (call range n) {(+= s i)})");
    expect_tree("for row in t { print(row) }", "(for row t {(call print row)})");
    expect_tree("while true { break; continue }", "(while true {break; continue})");
    expect_tree("for x in xs { if x { break } }", "(for x xs {(if x {break})})");
    expect_tree("for 1 in x {}", "error 1:5: expected a loop variable name but found number");
    expect_tree("for x of y {}", "error 1:7: expected 'in' but found name 'of'");
}

Test(parser, returns)
{
    expect_tree("fn f() { return }", "(def f () {(return)})");
    expect_tree("fn f() { return; }", "(def f () {(return)})");
    expect_tree("fn f() {\n  return\n}", "(def f () {(return)})");
    expect_tree("fn f() { return x, y }", "(def f () {(return (tuple x y))})");
}

Test(parser, jumps_outside_their_construct)
{
    expect_tree("break", "error 1:1: 'break' outside a loop");
    expect_tree("if c { continue }", "error 1:8: 'continue' outside a loop");
    expect_tree("return 1", "error 1:1: 'return' outside a function");
    expect_tree("while c { f = fn() { break } }", "error 1:22: 'break' outside a loop");
    expect_tree("fn f() { while c { return 1 } }", "(def f () {(while c {(return 1)})})");
}

Test(parser, echo_and_separators)
{
    expect_tree("x", "x");
    expect_tree("x;", "(quiet x)");
    expect_tree("x; y", "(quiet x); y");
    expect_tree("x;;\n\n;y", "(quiet x); y");
    expect_tree("\n# comment\nx = 1  # trailing\n\n  y\n", "(= x 1); y");
    expect_tree("f(x); g(y)\nh(z)", "(quiet (call f x)); (call g y); (call h z)");
    expect_tree("x = 1; y = 2", "(= x 1); (= y 2)");
    expect_tree("1, 2", "(tuple 1 2)");
    expect_tree("", "");
    expect_tree("{ x }", "error 1:5: expected ':' after a dict key but found '}'");
    expect_tree("}", "error 1:1: unexpected token '}'");
    expect_tree(")", "error 1:1: unexpected token ')'");
    expect_tree("x = ]", "error 1:5: unexpected token ']'");
    expect_tree("x = 1 2", "error 1:7: invalid syntax");
}

Test(parser, newlines_end_statements_outside_brackets)
{
    expect_tree("f\n(1)", "f; 1");
    expect_tree("x = 1 +\n2", "error 1:8: unexpected end of line");
    expect_tree("x = (1 +\n2)", "(= x (+ 1 2))");
    expect_tree("f(fn(x) {\n  y = x\n  return y\n}, 2)", "(call f (fn (x) {(= y x); (return y)}) 2)");
}

Test(parser, error_positions_across_lines)
{
    expect_tree("x = 1\ny = (2 +\n  ]", "error 3:3: closing ']' does not match the '(' on line 2");
    expect_tree("x = [1, 2\ny = 3", "error 1:5: '[' was never closed");
    expect_tree("x = max(1,\n  2 3)", "error 2:5: expected ')' but found number");
    expect_tree("a = 1\n\tb = $", "error 2:6: invalid character");
    expect_tree("s = 'ab\\zc'", "error 1:8: " LEX_BAD_ESCAPE);
    expect_tree("s = 'ab\\x4'", "error 1:8: truncated \\xXX escape");
    expect_tree("n = 99999999999999999999", "error 1:5: integer literal too large");
}

/* ---- incomplete input (the shell asks for another line) ---- */

static void expect_incomplete(const char *text, bool want)
{
    Parsed *p = parse(text);
    cr_assert_null(p->res.root, "[%s] should fail", text);
    cr_assert_eq(p->res.incomplete, want, "[%s]: incomplete should be %d (%s)", text, want, p->err.msg);
    done(p);
}

Test(parser, incomplete_input)
{
    expect_incomplete("(", true);
    expect_incomplete("f(1,", true);
    expect_incomplete("x = [1, 2", true);
    expect_incomplete("a[1:", true);
    expect_incomplete("{", true);
    expect_incomplete("d = {\"a\":", true);
    expect_incomplete("if x {", true);
    expect_incomplete("fn f() {\n  x = 1\n", true);
    expect_incomplete("while x {\n  if y {\n", true);
    expect_incomplete("\"abc", true);
    expect_incomplete("x = 'abc\n", true);
    expect_incomplete("f(fn(x) {\n", true);
}

Test(parser, complete_but_wrong_input)
{
    expect_incomplete("x = ", false);
    expect_incomplete("x +", false);
    expect_incomplete(")", false);
    expect_incomplete("if x", false);
    expect_incomplete("(1 2", false);
    expect_incomplete("a < b < c", false);
    expect_incomplete("(x = 1", false);
    expect_incomplete("[1, $", false);
    expect_incomplete("f(\"a\\q\")", false);
    expect_incomplete("f(\"a\\q", true);   /* no closing quote: still inside the string */
}

Test(parser, incomplete_error_message)
{
    expect_tree("f(x", "error 1:2: '(' was never closed (incomplete)");
    expect_tree("if x {\n y = 1", "error 1:6: '{' was never closed (incomplete)");
}

/* ---- nesting limits ---- */

/* A string of n copies of `unit` followed by `tail`. */
static char *repeat(const char *unit, size_t n, const char *tail)
{
    size_t u = strlen(unit), t = strlen(tail);
    char *s = malloc(u * n + t + 1);
    for (size_t i = 0; i < n; i++) memcpy(s + i * u, unit, u);
    memcpy(s + u * n, tail, t + 1);
    return s;
}

static void expect_message(char *text, const char *msg)
{
    Parsed *p = parse(text);
    cr_assert_null(p->res.root);
    cr_assert_str_eq(p->err.msg, msg);
    cr_assert_not(p->res.incomplete);
    done(p);
    free(text);
}

Test(parser, hundred_thousand_nested_parens)
{
    char *text = repeat("(", 100000, "");
    Parsed *p = parse(text);
    cr_assert_null(p->res.root);
    cr_assert_str_eq(p->err.msg, "nesting too deep");
    cr_assert_not(p->res.incomplete, "too deep is an error even at the end of input");
    cr_assert_eq(p->err.at.line, 1);
    cr_assert_eq(p->err.at.col, 1001, "col %d", p->err.at.col);
    done(p);
    free(text);
    expect_message(repeat("(", 100000, "1" ), "nesting too deep");
}

Test(parser, other_deep_nesting_is_an_error_not_a_crash)
{
    expect_message(repeat("[", 1000, ""), "nesting too deep");   /* limit reached at end of input */
    expect_message(repeat("[", 100000, ""), "nesting too deep");
    expect_message(repeat("-", 100000, "1"), "nesting too deep");
    expect_message(repeat("not ", 100000, "x"), "nesting too deep");
    expect_message(repeat("2**", 100000, "2"), "nesting too deep");
    expect_message(repeat("f(", 100000, ""), "nesting too deep");
    expect_message(repeat("a[", 100000, ""), "nesting too deep");
    expect_message(repeat("{1:", 100000, ""), "nesting too deep");
    expect_message(repeat("fn() = ", 100000, "1"), "nesting too deep");
    expect_message(repeat("1 if c else ", 100000, "1"), "nesting too deep");
    expect_message(repeat("while c {", 100000, ""), "nesting too deep");
    expect_message(repeat("x = fn() {\n", 100000, ""), "nesting too deep");
}

Test(parser, long_chains_are_an_error_not_a_deep_tree)
{
    char *sum = repeat("1+", 100000, "1");
    char *text = malloc(strlen(sum) + 8);
    strcpy(text, "x = 1\n ");
    strcat(text, sum);
    Parsed *p = parse(text);
    cr_assert_str_eq(p->err.msg, "expression too long or too deeply nested");
    cr_assert_eq(p->err.at.line, 2, "points at the statement");
    cr_assert_eq(p->err.at.col, 2);
    done(p);
    free(text);
    free(sum);

    expect_message(repeat("1+", 500000, "1"), "expression too long or too deeply nested");
    char *attrs = repeat(".T", 100000, "");
    attrs[0] = 'x';                          /* xT.T.T... */
    expect_message(attrs, "expression too long or too deeply nested");
    expect_message(repeat("if c {} else ", 100000, "{}"), "expression too long or too deeply nested");
}

Test(parser, moderate_nesting_works)
{
    char *open = repeat("(", 400, "x");
    char *text = repeat(")", 400, "");
    char *both = malloc(strlen(open) + strlen(text) + 1);
    strcpy(both, open);
    strcat(both, text);
    char *got = sexpr(both);
    cr_assert_str_eq(got, "x");
    free(got);
    free(both);
    free(open);
    free(text);

    char *sum = repeat("1+", 1000, "1");
    Parsed *p = parse(sum);
    cr_assert_not_null(p->res.root, "%s", p->err.msg);
    done(p);
    free(sum);
}

Test(parser, megabyte_list_literal)
{
    char *items = repeat("1, ", 350000, "]");
    char *text = malloc(strlen(items) + 2);
    text[0] = '[';
    strcpy(text + 1, items);
    free(items);
    Parsed *p = parse(text);
    cr_assert_not_null(p->res.root, "%s", p->err.msg);
    Node *list = p->res.root->list[0]->a;
    cr_assert_eq(list->kind, N_LIST);
    cr_assert_eq(list->n, 350000);
    done(p);
    free(text);
}

Test(parser, nul_byte_in_code)
{
    char *got = sexpr_n("x = 1\0", 6);
    cr_assert_str_eq(got, "error 1:6: invalid character");
    free(got);
}

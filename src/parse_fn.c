/* parse_fn.c — function definitions: the parameter list (positional, *rest or a bare *, keyword-only, **names) and the body */
#include "parse_int.h"

/* After "fn" or "fn name": (params) = expr, or (params) { block }. */
FnDef *ps_fn_rest(Parser *p, char *name, Span fn_at)
{
    FnDef *fn = ps_alloc(p, sizeof *fn);
    fn->name = name;
    fn->at = fn_at;
    if (!ps_at(p, TK_LPAREN)) ps_fail_expected(p, "'('");
    ps_open_bracket(p, CTX_PAREN);
    NodeVec params = { .named = true };   /* items: the defaults (or NULL); names: the parameters */
    bool seen_default = false, seen_star = false;   /* a *rest or a bare * was written */
    int rest_at = -1;                                /* where *rest was written in params */
    Span star_at = fn_at;
    while (!ps_at(p, TK_RPAREN)) {
        /* positional ones, *rest or a bare *, keyword-only ones, **names: in that order */
        int stars = ps_at(p, TK_STAR) ? 1 : ps_at(p, TK_DSTAR) ? 2 : 0;
        if (fn->has_names) fail_here(p, "no parameter may follow **names");
        if (stars == 1 && seen_star) fail_here(p, "only one *rest or bare * may be written");
        if (stars) {
            if (stars == 1) star_at = ps_span_of(p, &p->tok);
            ps_advance(p);
        }
        if (stars == 1 && (ps_at(p, TK_COMMA) || ps_at(p, TK_RPAREN))) {   /* a bare *: keyword-only ones follow */
            seen_star = true;
            if (!ps_at(p, TK_COMMA)) break;
            ps_advance(p);
            continue;
        }
        if (!ps_at(p, TK_NAME)) ps_fail_expected(p, "a parameter name");
        Span pat = ps_span_of(p, &p->tok);
        char *pname = ps_token_text(p, &p->tok);
        ps_advance(p);
        Node *def = NULL;
        if (stars) {
            if (ps_at(p, TK_ASSIGN)) fail_here(p, stars == 1 ? "*rest takes no default (it is () when nothing is left)" : "**names takes no default (it is {} when nothing is left)");
            if (stars == 1) rest_at = params.n, seen_star = true;
            fn->has_rest |= stars == 1;
            fn->has_names |= stars == 2;
        } else if (ps_at(p, TK_ASSIGN)) {
            ps_advance(p);
            def = ps_expression(p);
            seen_default |= !seen_star;
        } else if (seen_default && !seen_star) {   /* (keyword-only ones need no order) */
            ps_fail_at(p, pat, "parameter '%s' without a default follows one with a default", pname);
        }
        fn->nkwonly += seen_star && !stars;
        ps_vec_push_named(p, &params, def, pname, pat);
        if (!ps_at(p, TK_COMMA)) break;
        ps_advance(p);
    }
    ps_close_bracket(p, TK_RPAREN);
    if (seen_star && !fn->has_rest && fn->nkwonly == 0) ps_fail_at(p, star_at, "a bare * must be followed by a keyword-only parameter");
    if (rest_at >= 0 && fn->nkwonly > 0) {   /* *rest after the keyword-only ones (FnDef.nkwonly) */
        Node *d = params.items[rest_at];
        char *nm = params.names[rest_at];
        Span sp = params.spans[rest_at];
        for (int i = rest_at; i < rest_at + fn->nkwonly; i++) {
            params.items[i] = params.items[i + 1];
            params.names[i] = params.names[i + 1];
            params.spans[i] = params.spans[i + 1];
        }
        params.items[rest_at + fn->nkwonly] = d;
        params.names[rest_at + fn->nkwonly] = nm;
        params.spans[rest_at + fn->nkwonly] = sp;
    }
    int dup = ps_find_repeated(p, params.names, 0, params.n);
    if (dup >= 0) ps_fail_at(p, params.spans[dup], "duplicate parameter '%s'", params.names[dup]);
    fn->nparams = params.n;
    fn->params = params.n ? params.names : NULL;
    fn->defaults = params.n ? params.items : NULL;

    int saved_loops = p->loop_depth;
    p->loop_depth = 0;
    p->fn_depth++;
    if (ps_at(p, TK_ASSIGN)) {
        ps_advance(p);
        fn->body = ps_expression(p);
        fn->body_is_expr = true;
    } else if (ps_at(p, TK_LBRACE)) {
        fn->body = ps_block(p);
    } else {
        ps_fail_expected(p, "'=' or '{' after the parameters");
    }
    p->fn_depth--;
    p->loop_depth = saved_loops;
    return fn;
}

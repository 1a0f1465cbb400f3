/* registry.c — the builtins: the stdlib's tables in one list, each signature parsed once, arguments bound by it */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "builtins.h"
#include "registry.h"
#include "suggest.h"

/* The stdlib's tables, one per file; a new stdlib file adds its table here. */
static const Builtin *const stdlib_tables[] = {
    bi_core_table,
    bi_format_table,
    bi_introspect_table,
    bi_make_table,
    bi_random_table,
    bi_shape_table,
    bi_rearrange_table,
    bi_math_table,
    bi_logic_table,
    bi_reduce_table,
    bi_linalg_table,
    bi_decomp_table,
    bi_fft_table,
    bi_nn_table,
    bi_sort_table,
    bi_stats_table,
    bi_select_table,
    bi_samples_table,
    bi_files_table,
    bi_expect_table,
    bi_models_table,
    bi_summary_table,
    bi_graph_table,
    bi_plot_table,
    bi_strings_table,
    bi_unicode_table,
    bi_lists_table,
    bi_dicts_table,
    NULL,
};

/* Rows that serve the calls of a name whose first argument is of one kind (split on a string,
   sort on a list): each shares its name with a main row above, which serves every other call.
   builtin_find, help() and the globals see the main rows; help(name) shows the variants too. */
static const struct { uint8_t kind; const Builtin *table; } variant_tables[] = {
    { V_STR, bi_string_variants },
    { V_LIST, bi_list_variants },
    { V_DICT, bi_dict_variants },
};

/* The registry: each row copied beside its parsed parameters (so the tables stay constant data
   and a row's parameters are found from the row itself), and a hash of the names. */
typedef struct BuiltinEntry {
    Builtin row;                /* first: a row's address is its entry's */
    BuiltinParams params;
    uint8_t receiver;           /* a variant: the ValueKind of the first argument it serves; 0 for a main row */
    int next_variant;           /* the row index of the name's next variant, or -1 */
} BuiltinEntry;
static BuiltinEntry *rows;      /* the main rows [0, nmain), then the variants */
static int nrows, nmain;
static int *by_name;          /* open addressing: row index + 1, 0 empty */
static unsigned name_mask;
static bool init_ok;
static once_flag init_once = ONCE_FLAG_INIT;

static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u;   /* FNV-1a */
    while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

/* ---- parsing a signature ------------------------------------------------------- */

/* The end of one parameter starting at p: the next comma or the closing parenthesis at
   depth 0, outside quotes (defaults may hold tuples and strings). */
static const char *param_end(const char *p)
{
    int depth = 0;
    char quote = 0;
    for (; *p; p++) {
        if (quote) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == quote) quote = 0;
        } else if (*p == '"' || *p == '\'') {
            quote = *p;
        } else if (*p == '(' || *p == '[') {
            depth++;
        } else if ((*p == ')' || *p == ']') && depth > 0) {
            depth--;
        } else if ((*p == ',' && depth == 0) || *p == ')') {
            return p;
        }
    }
    return p;
}

/* Copies the name [s, e) into the pool; NULL when it is not a name. */
static const char *param_name(const char *s, const char *e, char **pool)
{
    size_t n = (size_t)(e - s);
    if (n == 0 || n >= 32) return NULL;
    for (size_t i = 0; i < n; i++)
        if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (i && s[i] >= '0' && s[i] <= '9')))
            return NULL;
    char *d = *pool;
    memcpy(d, s, n);
    d[n] = '\0';
    *pool += n + 1;
    return d;
}

/* Parses "name(p, q=1, *rest, *, kw=none)", "[p,] q", "p, /" and "**names" into *ps, the names
   copied into *pool (which has room for the whole signature); false when it does not parse. */
static bool parse_signature(const char *sig, BuiltinParams *ps, char **pool)
{
    memset(ps, 0, sizeof *ps);
    ps->rest = -1;
    ps->kwrest = -1;
    const char *p = sig ? strchr(sig, '(') : NULL;
    if (!p) return false;
    p++;
    bool kwonly = false, leading = true;
    while (*p == ' ') p++;
    while (*p && *p != ')') {
        bool bracket = *p == '[';
        const char *s = p + bracket, *e = param_end(s);
        if (bracket) {   /* "[start,] stop": the item is "start," up to the "]" */
            const char *close = strchr(s, ']');
            if (!close || !leading || close < e) return false;
            e = close - (close[-1] == ',');
        }
        const char *eq = memchr(s, '=', (size_t)(e - s));
        bool star = *s == '*', dstar = star && s[1] == '*';
        if (ps->kwrest >= 0) return false;   /* **names comes last */
        if (star && e == s + 1) {   /* a bare "*": the rest are keyword-only */
            kwonly = true;
        } else if (*s == '/' && e == s + 1) {   /* a bare "/": the ones before are positional-only */
            if (ps->nposonly || kwonly || ps->n == 0) return false;
            ps->nposonly = ps->n;
        } else if (dstar) {
            if (ps->n == BUILTIN_MAX_PARAMS || eq || !(ps->name[ps->n] = param_name(s + 2, e, pool))) return false;
            ps->kwrest = ps->n++;
        } else {
            if (ps->n == BUILTIN_MAX_PARAMS) return false;
            int i = ps->n++;
            const char *name_end = eq ? eq : e;
            while (name_end > s && name_end[-1] == ' ') name_end--;
            if (!(ps->name[i] = param_name(s + star, name_end, pool))) return false;
            ps->required[i] = !eq && !star && !bracket;
            if (star) {
                if (ps->rest >= 0 || kwonly) return false;
                ps->rest = i;
                kwonly = true;
            } else if (!kwonly) {
                ps->npositional = i + 1;
                if (bracket) ps->nleading++;
                else if (!eq) ps->nrequired_pos++;
            }
            if (!bracket) leading = false;
        }
        p = bracket ? strchr(s, ']') + 1 : e;
        if (*p == ',') p++;
        while (*p == ' ') p++;
    }
    return *p == ')' && p[1] == '\0';
}

/* ---- the registry --------------------------------------------------------------- */

/* Copies row b into entry i with its parsed signature; false (with a message) when it does not parse. */
static bool add_row(int i, const Builtin *b, uint8_t receiver, char **pool)
{
    rows[i].row = *b;
    rows[i].receiver = receiver;
    rows[i].next_variant = -1;
    if (parse_signature(b->signature, &rows[i].params, pool)) return true;
    fprintf(stderr, "tl: the signature of builtin %s does not parse: %s\n", b->name, b->signature);
    return false;
}

/* Counts the rows of a {NULL}-terminated table and the bytes of their signatures. */
static int count_rows(const Builtin *tab, size_t *pool_bytes)
{
    int n = 0;
    for (const Builtin *b = tab; b->name; b++, n++) *pool_bytes += strlen(b->signature ? b->signature : "") + 1;
    return n;
}

static void build_registry(void)
{
    size_t pool_bytes = 0;
    for (const Builtin *const *tab = stdlib_tables; *tab; tab++) nmain += count_rows(*tab, &pool_bytes);
    nrows = nmain;
    for (size_t v = 0; v < sizeof variant_tables / sizeof *variant_tables; v++) nrows += count_rows(variant_tables[v].table, &pool_bytes);
    unsigned cap = 16;
    while (cap < 2u * (unsigned)nmain) cap *= 2;
    rows = calloc((size_t)nrows, sizeof *rows);
    by_name = calloc(cap, sizeof *by_name);
    char *pool = malloc(pool_bytes);
    if (!rows || !by_name || !pool) return;
    name_mask = cap - 1;
    int i = 0;
    for (const Builtin *const *tab = stdlib_tables; *tab; tab++)
        for (const Builtin *b = *tab; b->name; b++, i++) {
            if (!add_row(i, b, 0, &pool)) return;
            unsigned h = name_hash(b->name) & name_mask;
            while (by_name[h]) h = (h + 1) & name_mask;
            by_name[h] = i + 1;
        }
    for (size_t v = 0; v < sizeof variant_tables / sizeof *variant_tables; v++)
        for (const Builtin *b = variant_tables[v].table; b->name; b++, i++) {
            BuiltinEntry *main = (BuiltinEntry *)builtin_find(b->name);
            if (!main) {
                fprintf(stderr, "tl: builtin variant %s has no main row\n", b->name);
                return;
            }
            if (!add_row(i, b, variant_tables[v].kind, &pool)) return;
            while (main->next_variant >= 0) main = &rows[main->next_variant];
            main->next_variant = i;
        }
    init_ok = true;
}

bool builtins_init(void)
{
    call_once(&init_once, build_registry);
    return init_ok;
}

int builtin_count(void) { return nmain; }

const Builtin *builtin_variant(const Builtin *b)
{
    int next = ((const BuiltinEntry *)b)->next_variant;
    return next >= 0 ? &rows[next].row : NULL;
}

const Builtin *builtin_at(int i) { return &rows[i].row; }

const BuiltinParams *builtin_params(const Builtin *b) { return &((const BuiltinEntry *)b)->params; }

const Builtin *builtin_find(const char *name)
{
    if (!by_name || !name_mask) return NULL;
    for (unsigned h = name_hash(name) & name_mask; by_name[h]; h = (h + 1) & name_mask)
        if (strcmp(rows[by_name[h] - 1].row.name, name) == 0) return &rows[by_name[h] - 1].row;
    return NULL;
}

/* ---- binding arguments ----------------------------------------------------------- */

/* The parameter of ps a keyword called name binds (positional-only ones and **names are bound
   by no keyword), or -1. */
static int param_index(const BuiltinParams *ps, const char *name)
{
    for (int i = ps->nposonly; i < ps->n; i++)
        if (i != ps->kwrest && strcmp(ps->name[i], name) == 0) return i;
    return -1;
}

bool arg_kw_extra(const CallArgs *a, int j)
{
    return a->params->kwrest >= 0 && param_index(a->params, a->kwnames[j]) < 0;
}

/* The "unexpected keyword argument" error, with the closest of b's keywords ("did you mean
   'axis'?"), or the numpy spelling of a habit from PyTorch (dim, keepdim) when b takes it. */
static bool unknown_keyword(Interp *I, const CallArgs *a, const Builtin *b, const BuiltinParams *ps, const char *name)
{
    static const char *const torch[][2] = { { "dim", "axis" }, { "keepdim", "keepdims" } };
    char hint[160] = "";
    for (size_t t = 0; t < sizeof torch / sizeof torch[0]; t++)
        if (strcmp(name, torch[t][0]) == 0 && param_index(ps, torch[t][1]) >= 0)
            snprintf(hint, sizeof hint, "; tl, as numpy, calls it '%s'", torch[t][1]);
    if (!*hint) {
        const char *cands[BUILTIN_MAX_PARAMS];
        int n = 0;
        for (int i = ps->nposonly; i < ps->n; i++)
            if (i != ps->kwrest) cands[n++] = ps->name[i];
        tl_suggest_among(name, cands, n, '\'', hint, sizeof hint);
    }
    return interp_error(I, a->at, TypeError, "%s() got an unexpected keyword argument '%s'%s", b->name, name, hint);
}

/* Binds a's positional and keyword values to b's parameters in slot[] (and a->rest), with
   Python's errors for too many, unknown, repeated and missing arguments. Unlike Python, a
   keyword may name the *rest parameter and gives it that one value, as numpy's keywords do:
   zeros(shape=(2, 3)), transpose(x, axes=(1, 0)). */
static bool bind_arguments(Interp *I, CallArgs *a, const Builtin *b, const BuiltinParams *ps, Value **slot)
{
    for (int i = 0; i < ps->n; i++) slot[i] = NULL;
    int npos = a->npos, fixed = ps->rest >= 0 ? ps->rest : ps->npositional;
    if (ps->rest < 0 && npos > fixed)
        return interp_error(I, a->at, TypeError, "%s() takes at most %d positional argument%s (%d given)", b->name, fixed,
                            fixed == 1 ? "" : "s", npos);
    /* bracketed leading parameters take values only when more come than the required ones after
       them need (arange(2, stop=5): start is 2) */
    int need = ps->nrequired_pos;
    for (int j = 0; j < a->nkw && ps->nleading; j++) {
        int i = param_index(ps, a->kwnames[j]);
        need -= i >= ps->nleading && i < ps->npositional && ps->required[i];
    }
    int skip = npos > need ? 0 : ps->nleading;
    int k = 0;
    for (int i = skip; i < fixed && k < npos; i++) slot[i] = &a->pos[k++];
    a->rest = k ? a->pos + k : a->pos;   /* a call with no positional argument may have no pos at all (NULL) */
    a->nrest = npos - k;
    for (int j = 0; j < a->nkw; j++) {
        const char *name = a->kwnames[j];
        int i = param_index(ps, name);
        if (i < 0 && ps->kwrest >= 0) continue;   /* the builtin's **names takes it */
        if (i < 0) return unknown_keyword(I, a, b, ps, name);
        if (i == ps->rest) {
            if (a->nrest > 0) return interp_error(I, a->at, TypeError, "%s() got multiple values for argument '%s'", b->name, name);
            a->rest = &a->kw[j];
            a->nrest = 1;
            continue;
        }
        if (slot[i]) {
            bool twice = false;
            for (int m = 0; m < j; m++) twice = twice || strcmp(a->kwnames[m], name) == 0;
            if (twice) return interp_error(I, a->at, TypeError, "%s() got keyword argument '%s' twice", b->name, name);
            return interp_error(I, a->at, TypeError, "%s() got multiple values for argument '%s'", b->name, name);
        }
        slot[i] = &a->kw[j];
    }
    for (int i = 0; i < ps->n; i++) {
        if (!ps->required[i] || slot[i]) continue;
        if (a->nkw == 0 && npos < ps->nrequired_pos)
            return interp_error(I, a->at, TypeError, "%s() takes at least %d argument%s (%d given)", b->name, ps->nrequired_pos,
                                ps->nrequired_pos == 1 ? "" : "s", npos);
        return interp_error(I, a->at, TypeError, "%s() missing argument '%s'", b->name, ps->name[i]);
    }
    return true;
}

/* True when one of the n values is a list. */
static bool has_list(const Value *vs, int n)
{
    for (int i = 0; i < n; i++)
        if (vs[i].kind == V_LIST) return true;
    return false;
}

/* Runs a builtin of a tensor family (elementwise, reductions, casts: family != BF_OTHER), whose
   every argument is read as a tensor, with its list arguments converted first as np.asarray
   reads them: such builtins read their values' dtypes and weakness, which a list has not. */
static bool call_with_tensors(Interp *I, CallArgs *a, Value *out, bool (*call)(Interp *, CallArgs *, Value *))
{
    int n = a->npos + a->nkw;
    Value small[8], *conv = n <= 8 ? small : malloc((size_t)n * sizeof *conv);
    if (!conv) return interp_error(I, a->at, MemoryError, "out of memory");
    Value *pos = a->pos, *kw = a->kw;
    int done = 0;
    bool ok = true;
    for (; done < n && ok; done++) {
        Value v = done < a->npos ? pos[done] : kw[done - a->npos];
        conv[done] = v;
        if (v.kind != V_LIST) continue;
        tl_tensor *t = val_to_tensor(v);
        conv[done] = t ? val_from_tensor(t) : val_none();
        if (!t) ok = interp_error_rt(I, a->at);
    }
    if (ok) {
        a->pos = conv;
        a->kw = conv + a->npos;
        ok = call(I, a, out);
        a->pos = pos;
        a->kw = kw;
    }
    for (int i = 0; i < done; i++)
        if ((i < a->npos ? pos[i] : kw[i - a->npos]).kind == V_LIST) val_release(conv[i]);
    if (conv != small) free(conv);
    return ok;
}

/* builtin_call once the row is chosen and the arguments are values of the kinds it reads. */
static bool bind_and_run(Interp *I, CallArgs *a, Value *out)
{
    Value *slot[BUILTIN_MAX_PARAMS];
    a->params = builtin_params(a->self);
    if (!bind_arguments(I, a, a->self, a->params, slot)) return false;
    a->slot = slot;
    bool ok = a->self->fn(I, a, out);
    a->slot = NULL;
    return ok;
}

bool builtin_call(Interp *I, CallArgs *a, Value *out)
{
    if (((const BuiltinEntry *)a->self)->next_variant >= 0 && a->npos > 0) {   /* a row for the first argument's kind? */
        for (const BuiltinEntry *e = (const BuiltinEntry *)a->self; e->next_variant >= 0;) {
            e = &rows[e->next_variant];
            if (e->receiver == a->pos[0].kind) {
                a->self = &e->row;
                break;
            }
        }
    }
    if (a->self->family != BF_OTHER && (has_list(a->pos, a->npos) || has_list(a->kw, a->nkw)))
        return call_with_tensors(I, a, out, bind_and_run);
    return bind_and_run(I, a, out);
}

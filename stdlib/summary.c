/* summary.c — a tensor's or a checkpoint's figures: summary, stats, compare */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "quant.h"
#include "summary.h"

/* ---- the tensors of an argument -------------------------------------------------------- */

/* A tensor or a dict of them, as named tensors (borrowed); a lone tensor is named "". */
typedef struct named_set {
    int n;
    const char **names;
    tl_tensor **tensors;
} named_set;

static void set_free(named_set *s)
{
    free(s->names);
    free(s->tensors);
}

/* Parameter i as a named set: a tensor, or a dict whose values are all tensors. */
static bool arg_set(Interp *I, CallArgs *a, int i, named_set *s)
{
    Value v = *arg_given(a, i);
    memset(s, 0, sizeof *s);
    int n = v.kind == V_DICT ? v.as.d->n : 1;
    if (v.kind != V_DICT && v.kind != V_TENSOR)
        return bi_fail(I, a, TypeError, "%s must be a tensor or a dict of tensors, not a %s", arg_name(a, i), val_kind_name(v));
    s->names = malloc((size_t)(n ? n : 1) * sizeof *s->names);
    s->tensors = malloc((size_t)(n ? n : 1) * sizeof *s->tensors);
    if (!s->names || !s->tensors) {
        set_free(s);
        return bi_fail(I, a, MemoryError, "out of memory");
    }
    if (v.kind == V_TENSOR) {
        s->n = 1;
        s->names[0] = "";
        s->tensors[0] = v.as.t;
        return true;
    }
    for (int k = 0; k < n; k++) {
        Value x = v.as.d->vals[k];
        if (x.kind != V_TENSOR) {
            set_free(s);
            return bi_fail(I, a, TypeError, "entry \"%.200s\" of %s is a %s, not a tensor", v.as.d->keys[k]->data,
                           arg_name(a, i), val_kind_name(x));
        }
        s->names[k] = v.as.d->keys[k]->data;
        s->tensors[k] = x.as.t;
    }
    s->n = n;
    return true;
}

/* ---- printing -------------------------------------------------------------------------- */

/* A number in 10 columns with four significant digits ("-" for nan). */
static void put_num(FILE *f, double x)
{
    if (isnan(x)) fprintf(f, " %10s", "-");
    else fprintf(f, " %10.4g", x);
}

/* The columns every stats row ends with. */
static void put_figures(FILE *f, const tl_stats *st)
{
    bool any = st->count > st->nan + st->inf;   /* figures of no finite value are "-" */
    put_num(f, any ? st->mean : NAN);
    put_num(f, tl_stats_std(st));
    put_num(f, any ? st->min : NAN);
    put_num(f, any ? st->max : NAN);
    put_num(f, any ? st->absmax : NAN);
    fprintf(f, " %6lld %6lld\n", (long long)st->nan, (long long)st->inf);
}

static const char FIGURE_HEADS[] = "       mean        std        min        max      |max|    nan    inf\n";

/* A group of tensors' totals: one per layer, one per type. */
typedef struct group {
    char key[64];
    int tensors;
    int64_t params;
    uint64_t bytes;
    tl_stats st;
} group;

/* The group named key in g[0..*n) (added when new; at most cap groups, else NULL). */
static group *group_for(group *g, int *n, int cap, const char *key, size_t len)
{
    if (len >= sizeof g->key) len = sizeof g->key - 1;
    for (int k = 0; k < *n; k++)
        if (strlen(g[k].key) == len && memcmp(g[k].key, key, len) == 0) return &g[k];
    if (*n == cap) return NULL;
    group *x = &g[(*n)++];
    memset(x, 0, sizeof *x);
    memcpy(x->key, key, len);
    tl_stats_clear(&x->st);
    return x;
}

/* The layer a tensor's name puts it in: the name up to its first all-digit component
   ("blk.3.attn_q.weight" -> "blk.3", "model.layers.12.mlp.up.weight" -> "model.layers.12");
   0 when there is none. */
static size_t layer_prefix(const char *name)
{
    const char *p = name;
    while ((p = strchr(p, '.'))) {
        const char *q = ++p;
        while (*q >= '0' && *q <= '9') q++;
        if (q > p && (*q == '.' || *q == '\0')) return (size_t)(q - name);
    }
    return 0;
}

/* Adds one tensor's figures to group x (when there is room for it). */
static void group_add(group *x, const tl_tensor *t, uint64_t bytes, const tl_stats *st)
{
    if (!x) return;
    x->tensors++;
    x->params += tl_tensor_size(t);
    x->bytes += bytes;
    tl_stats_merge(&x->st, st);
}

static void print_groups(FILE *f, const char *title, const group *g, int n)
{
    int w = (int)strlen(title);
    for (int k = 0; k < n; k++) w = (int)strlen(g[k].key) > w ? (int)strlen(g[k].key) : w;
    fprintf(f, "\n%-*s  tensors      params       bytes%s", w, title, FIGURE_HEADS);
    for (int k = 0; k < n; k++) {
        fprintf(f, "%-*s  %7d %11lld %11llu", w, g[k].key, g[k].tensors, (long long)g[k].params, (unsigned long long)g[k].bytes);
        put_figures(f, &g[k].st);
    }
}

#define MAX_GROUPS 4096

/* summary(x): one row per tensor, then totals per layer and per type, and over all. */
static bool bi_summary(Interp *I, CallArgs *a, Value *out)
{
    named_set s;
    if (!arg_set(I, a, 0, &s)) return false;
    tl_stats *st = malloc((size_t)(s.n ? s.n : 1) * sizeof *st);
    group *g = malloc((MAX_GROUPS + 64) * sizeof *g);
    if (!st || !g) {
        free(st);
        free(g);
        set_free(&s);
        return bi_fail(I, a, MemoryError, "out of memory");
    }
    for (int k = 0; k < s.n; k++)
        if (tl_stats_of(s.tensors[k], &st[k]) < 0) {
            free(st);
            free(g);
            set_free(&s);
            return interp_error_rt(I, a->at);
        }
    FILE *f = interp_out(I);
    int wn = 4, wt = 4, ws = 5, nl = 0, nt = 0;
    char shp[TL_MAXDIM * 22 + 8];
    for (int k = 0; k < s.n; k++) {
        int ln = (int)strlen(s.names[k]), lt = (int)strlen(tl_tensor_type_name(s.tensors[k]));
        int ls = (int)strlen(tl_shape_str(s.tensors[k]->ndim, s.tensors[k]->shape, shp, sizeof shp));
        wn = ln > wn ? ln : wn, wt = lt > wt ? lt : wt, ws = ls > ws ? ls : ws;
    }
    fprintf(f, "%-*s  %-*s  %-*s      params       bytes%s", wn, "name", wt, "type", ws, "shape", FIGURE_HEADS);
    group *layers = g, *types = g + MAX_GROUPS, all;
    memset(&all, 0, sizeof all);
    snprintf(all.key, sizeof all.key, "total");
    tl_stats_clear(&all.st);
    for (int k = 0; k < s.n; k++) {
        const tl_tensor *t = s.tensors[k];
        tl_footprint fp;
        tl_tensor_footprint(t, &fp);
        fprintf(f, "%-*s  %-*s  %-*s %11lld %11llu", wn, s.names[k], wt, tl_tensor_type_name(t), ws,
                tl_shape_str(t->ndim, t->shape, shp, sizeof shp), (long long)tl_tensor_size(t), (unsigned long long)fp.stored);
        put_figures(f, &st[k]);
        size_t lp = layer_prefix(s.names[k]);
        if (lp) group_add(group_for(layers, &nl, MAX_GROUPS, s.names[k], lp), t, fp.stored, &st[k]);
        group_add(group_for(types, &nt, 64, tl_tensor_type_name(t), strlen(tl_tensor_type_name(t))), t, fp.stored, &st[k]);
        group_add(&all, t, fp.stored, &st[k]);
    }
    if (s.n > 1) {
        if (nl > 0) print_groups(f, "layer", layers, nl);
        print_groups(f, "type", types, nt);
        print_groups(f, "all", &all, 1);
    }
    free(st);
    free(g);
    set_free(&s);
    *out = val_none();
    return true;
}

/* ---- stats ------------------------------------------------------------------------------ */

/* Sets d[key] = v (v owned); false when out of memory. */
static bool put(Dict *d, const char *key, Value v)
{
    if (v.kind == V_NONE) return false;
    return dict_set(d, key, strlen(key), v);
}

/* stats(x): the figures of summary's row for one tensor, as a dict. */
static bool bi_stats(Interp *I, CallArgs *a, Value *out)
{
    Value v = *arg_given(a, 0);
    if (v.kind != V_TENSOR && v.kind != V_NUM) return bi_fail(I, a, TypeError, "x must be a tensor, not a %s", val_kind_name(v));
    tl_tensor *t;
    if (!arg_tensor(I, a, 0, &t)) return false;
    tl_stats st;
    tl_footprint fp;
    if (tl_stats_of(t, &st) < 0) {
        tl_tensor_release(t);
        return interp_error_rt(I, a->at);
    }
    tl_tensor_footprint(t, &fp);
    bool any = st.count > st.nan + st.inf;
    Value d = val_dict_new();
    bool ok = d.kind == V_DICT && put(d.as.d, "type", val_cstr(tl_tensor_type_name(t))) &&
              put(d.as.d, "shape", shape_tuple(t->ndim, t->shape)) && put(d.as.d, "params", val_i64(st.count)) &&
              put(d.as.d, "bytes", val_i64((int64_t)fp.stored)) && put(d.as.d, "mean", val_f64(any ? st.mean : NAN)) &&
              put(d.as.d, "std", val_f64(tl_stats_std(&st))) && put(d.as.d, "min", val_f64(any ? st.min : NAN)) &&
              put(d.as.d, "max", val_f64(any ? st.max : NAN)) && put(d.as.d, "absmax", val_f64(any ? st.absmax : NAN)) &&
              put(d.as.d, "nan", val_i64(st.nan)) && put(d.as.d, "inf", val_i64(st.inf));
    tl_tensor_release(t);
    if (!ok) {
        val_release(d);
        return bi_fail(I, a, MemoryError, "out of memory");
    }
    *out = d;
    return true;
}

/* ---- compare ---------------------------------------------------------------------------- */

/* The figures of a difference: what compare() prints and returns. */
typedef struct diff_figures {
    double max_abs, rmse, rel, cosine, snr_db;
    int64_t at[TL_MAXDIM];
    int ndim;
    bool has_at;
} diff_figures;

static void figures_of(const tl_tensor *t, const tl_diff *d, diff_figures *r)
{
    int64_t n = d->count - d->skipped;
    r->max_abs = d->argmax >= 0 ? d->max_abs : NAN;
    r->rmse = n > 0 ? sqrt(d->sum_d2 / (double)n) : NAN;
    r->rel = n > 0 ? sqrt(d->sum_d2) / sqrt(d->sum_a2) : NAN;
    r->cosine = n > 0 ? d->sum_ab / (sqrt(d->sum_a2) * sqrt(d->sum_b2)) : NAN;
    r->snr_db = n > 0 ? 10 * log10(d->sum_a2 / d->sum_d2) : NAN;
    r->ndim = t->ndim;
    r->has_at = d->argmax >= 0;
    int64_t i = d->argmax;
    for (int k = t->ndim - 1; k >= 0 && r->has_at; k--) {
        r->at[k] = i % t->shape[k];
        i /= t->shape[k];
    }
}

static Value figures_dict(const diff_figures *r)
{
    Value d = val_dict_new();
    bool ok = d.kind == V_DICT && put(d.as.d, "max_diff", val_f64(r->max_abs)) &&
              put(d.as.d, "at", r->has_at ? shape_tuple(r->ndim, r->at) : val_tuple_new(0)) &&
              put(d.as.d, "rmse", val_f64(r->rmse)) && put(d.as.d, "rel_error", val_f64(r->rel)) &&
              put(d.as.d, "cosine", val_f64(r->cosine)) && put(d.as.d, "snr_db", val_f64(r->snr_db));
    if (!ok && d.kind == V_DICT) val_release(d);
    return ok ? d : val_none();
}

static const char DIFF_HEADS[] = "   max|a-b|  at                     rmse    rel err     cosine   SNR dB\n";

static void put_diff(FILE *f, const diff_figures *r)
{
    char at[TL_MAXDIM * 22 + 8] = "-";
    if (r->has_at) tl_shape_str(r->ndim, r->at, at, sizeof at);
    put_num(f, r->max_abs);
    fprintf(f, "  %-18s", at);
    put_num(f, r->rmse);
    put_num(f, r->rel);
    if (isnan(r->cosine)) fprintf(f, " %10s", "-");
    else fprintf(f, " %10.7f", r->cosine);
    if (isnan(r->snr_db)) fprintf(f, " %8s\n", "-");
    else fprintf(f, " %8.2f\n", r->snr_db);
}

/* The tensor named name in s, or -1. */
static int find_name(const named_set *s, const char *name)
{
    for (int k = 0; k < s->n; k++)
        if (strcmp(s->names[k], name) == 0) return k;
    return -1;
}

/* Lists the names of s that t lacks, after a title. */
static void list_missing(FILE *f, const char *title, const named_set *s, const named_set *t)
{
    int shown = 0;
    for (int k = 0; k < s->n; k++) {
        if (find_name(t, s->names[k]) >= 0) continue;
        fprintf(f, "%s%s", shown++ ? ", " : title, s->names[k]);
    }
    if (shown) fputc('\n', f);
}

/* compare(a, b): tensor against tensor, or dicts matched by name. */
static bool bi_compare(Interp *I, CallArgs *a, Value *out)
{
    bool quiet;
    named_set sa, sb;
    if (!arg_bool(I, a, 2, false, &quiet) || !arg_set(I, a, 0, &sa)) return false;
    if (!arg_set(I, a, 1, &sb)) {
        set_free(&sa);
        return false;
    }
    bool dicts = arg_given(a, 0)->kind == V_DICT;
    if (dicts != (arg_given(a, 1)->kind == V_DICT)) {
        set_free(&sa);
        set_free(&sb);
        return bi_fail(I, a, TypeError, "compares two tensors or two dicts of tensors, not a %s with a %s",
                       val_kind_name(*arg_given(a, 0)), val_kind_name(*arg_given(a, 1)));
    }
    FILE *f = interp_out(I);
    int wn = 4, wt = 4;
    char shp[TL_MAXDIM * 22 + 8], shp2[TL_MAXDIM * 22 + 8];
    for (int k = 0; k < sa.n; k++) {
        int j = dicts ? find_name(&sb, sa.names[k]) : 0;
        if (j < 0) continue;
        int ln = (int)strlen(sa.names[k]), lt = (int)(strlen(tl_tensor_type_name(sa.tensors[k])) + 4 + strlen(tl_tensor_type_name(sb.tensors[j])));
        wn = ln > wn ? ln : wn, wt = lt > wt ? lt : wt;
    }
    if (!quiet) fprintf(f, "%-*s  %-*s%s", dicts ? wn : 0, dicts ? "name" : "", wt, "types", DIFF_HEADS);
    Value result = dicts ? val_dict_new() : val_none();
    bool ok = !dicts || result.kind == V_DICT;
    int mismatched = 0;
    for (int k = 0; k < sa.n && ok; k++) {
        int j = dicts ? find_name(&sb, sa.names[k]) : 0;
        if (j < 0) continue;
        const tl_tensor *x = sa.tensors[k], *y = sb.tensors[j];
        tl_diff d;
        if (x->ndim != y->ndim || memcmp(x->shape, y->shape, (size_t)x->ndim * sizeof *x->shape) != 0) {
            if (!dicts) {
                tl_diff_of(x, y, &d);   /* its message */
                ok = interp_error_rt(I, a->at);
                break;
            }
            mismatched++;
            continue;
        }
        if (tl_diff_of(x, y, &d) < 0) {
            ok = interp_error_rt(I, a->at);
            break;
        }
        diff_figures r;
        figures_of(x, &d, &r);
        if (!quiet) {
            char types[64];
            snprintf(types, sizeof types, "%s vs %s", tl_tensor_type_name(x), tl_tensor_type_name(y));
            fprintf(f, "%-*s  %-*s", dicts ? wn : 0, sa.names[k], wt, types);
            put_diff(f, &r);
        }
        Value fig = figures_dict(&r);
        if (fig.kind == V_NONE) ok = bi_fail(I, a, MemoryError, "out of memory");
        else if (!dicts) result = fig;
        else if (!dict_set(result.as.d, sa.names[k], strlen(sa.names[k]), fig)) ok = bi_fail(I, a, MemoryError, "out of memory");
    }
    if (ok && dicts && !quiet) {
        list_missing(f, "only in a: ", &sa, &sb);
        list_missing(f, "only in b: ", &sb, &sa);
        for (int k = 0, shown = 0; k < sa.n && mismatched; k++) {
            int j = find_name(&sb, sa.names[k]);
            const tl_tensor *x = sa.tensors[k], *y = j >= 0 ? sb.tensors[j] : NULL;
            if (!y || (x->ndim == y->ndim && memcmp(x->shape, y->shape, (size_t)x->ndim * sizeof *x->shape) == 0)) continue;
            fprintf(f, "%s%s %s vs %s", shown++ ? ", " : "shapes differ: ", sa.names[k],
                    tl_shape_str(x->ndim, x->shape, shp, sizeof shp), tl_shape_str(y->ndim, y->shape, shp2, sizeof shp2));
            if (shown == mismatched) fputc('\n', f);
        }
    }
    set_free(&sa);
    set_free(&sb);
    if (!ok) {
        val_release(result);
        return false;
    }
    *out = result;
    return true;
}

const Builtin bi_summary_table[] = {
    { "summary", bi_summary, "summary(x)",
      "prints type, shape, parameters, bytes, mean, std, min, max, largest magnitude, nan and inf of a tensor or of each in a "
      "dict, with totals per layer and per type", 0, BF_OTHER, BT_NO },
    { "stats", bi_stats, "stats(x)", "summary's figures of one tensor as a dict", 0, BF_OTHER, BT_NO },
    { "compare", bi_compare, "compare(a, b, *, quiet=false)",
      "prints and returns the largest difference and where, RMSE, relative error, cosine and SNR of two tensors or of the "
      "tensors two dicts share by name", 0, BF_OTHER, BT_NO },
    { 0 },
};

/* contract.c — products built on matmul: einsum and tensordot (subscripts become labels, each pairwise contraction one GEMM), kron, matrix_power */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "lapack.h"
#include "ops.h"

/* Labels: 'A'..'Z' are 0..25 and 'a'..'z' 26..51 (numpy's implicit output sorts in that
   order, ASCII), the broadcast ("...") axes 52.., and tensordot's own labels anything below
   ES_NLABELS. */
#define ES_LETTERS 52
#define ES_NLABELS (ES_LETTERS + TL_MAXDIM + 2 * TL_MAXDIM)
#define ES_ELLIPSIS 255           /* the "..." marker while parsing */

/* One operand during a contraction: a tensor and the label of each of its axes. */
typedef struct es_operand {
    tl_tensor *t;
    int n;
    uint8_t lab[TL_MAXDIM];
} es_operand;

static char label_char(int l)
{
    return (char)(l < 26 ? 'A' + l : 'a' + (l - 26));
}

/* The subscript at s as a message shows it (into buf): its whole UTF-8 character, or \xNN for
   a byte that is neither printable ASCII nor the start of a valid UTF-8 character. */
static const char *subscript_text(const char *s, char buf[8])
{
    const unsigned char *u = (const unsigned char *)s;
    int len = u[0] >= 0x20 && u[0] < 0x7f ? 1 : u[0] >= 0xc2 && u[0] < 0xe0 ? 2 : u[0] >= 0xe0 && u[0] < 0xf0 ? 3
            : u[0] >= 0xf0 && u[0] < 0xf5 ? 4 : 0;
    for (int i = 1; i < len; i++)
        if ((u[i] & 0xc0) != 0x80) len = 0;
    if (len == 0) snprintf(buf, 8, "\\x%02x", u[0]);
    else memcpy(buf, s, (size_t)len), buf[len] = 0;
    return buf;
}

/* Parses one operand's (or the output's) subscripts up to a ',' or "->" or the end;
   *n labels (ES_ELLIPSIS for "...") into lab. Returns the position after them, NULL on error. */
static const char *parse_term(const char *s, int which, uint8_t *lab, int *n, int max)
{
    bool ell = false;
    *n = 0;
    for (; *s && *s != ',' && !(s[0] == '-' && s[1] == '>'); s++) {
        char c = *s;
        if (c == ' ') continue;
        if (c == '.') {
            if (s[1] != '.' || s[2] != '.' || ell) {
                tl_seterr(ValueError, "einstein sum subscripts string contains a '.' that is not part of an ellipsis "
                          "('...') in %s", which < 0 ? "the output" : "an operand");
                return NULL;
            }
            ell = true;
            s += 2;
            if (*n >= max) goto too_many;
            lab[(*n)++] = ES_ELLIPSIS;
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
            char buf[8];
            tl_seterr(ValueError, "invalid subscript '%s' in einstein sum subscripts string, subscripts must be letters",
                      subscript_text(s, buf));
            return NULL;
        }
        if (*n >= max) goto too_many;
        lab[(*n)++] = (uint8_t)(c <= 'Z' ? c - 'A' : 26 + c - 'a');
    }
    return s;
too_many:
    if (which < 0) tl_seterr(ValueError, "einstein sum subscripts string contains too many output subscripts");
    else tl_seterr(ValueError, "einstein sum subscripts string contains too many subscripts for operand %d", which);
    return NULL;
}

/* Replaces operand o's "..." by labels for its broadcast axes (right-aligned among nbroad). */
static int expand_ellipsis(es_operand *o, const uint8_t *lab, int n, int which, int nbroad)
{
    int letters = 0, ndim = o->t->ndim;
    bool ell = false;
    for (int i = 0; i < n; i++) {
        if (lab[i] == ES_ELLIPSIS) ell = true;
        else letters++;
    }
    if (letters > ndim || (!ell && letters != ndim)) {
        if (letters > ndim)
            tl_seterr(ValueError, "einstein sum subscripts string contains too many subscripts for operand %d", which);
        else
            tl_seterr(ValueError, "operand has more dimensions than subscripts given in einstein sum, but no '...' "
                      "ellipsis provided to broadcast the extra dimensions.");
        return -1;
    }
    int nell = ndim - letters;
    o->n = 0;
    for (int i = 0; i < n; i++) {
        if (lab[i] != ES_ELLIPSIS) {
            o->lab[o->n++] = lab[i];
            continue;
        }
        for (int j = 0; j < nell; j++) o->lab[o->n++] = (uint8_t)(ES_LETTERS + nbroad - nell + j);
    }
    return 0;
}

/* Replaces t by r (which may be NULL: the error is set). */
static int replace(es_operand *o, tl_tensor *r)
{
    tl_tensor_release(o->t);
    o->t = r;
    return r ? 0 : -1;
}

/* Takes the diagonal of every label repeated within o ("ii" -> "i"). */
static int collapse_repeats(es_operand *o, int which)
{
    for (int p = 0; p < o->n; p++)
        for (int q = p + 1; q < o->n; q++) {
            if (o->lab[p] != o->lab[q]) continue;
            if (o->t->shape[p] != o->t->shape[q]) {
                tl_seterr(ShapeError, "dimensions in operand %d for collapsing index '%c' don't match (%lld != %lld)", which,
                          label_char(o->lab[p]), (long long)o->t->shape[p], (long long)o->t->shape[q]);
                return -1;
            }
            uint8_t l = o->lab[p];       /* the diagonal becomes the last axis */
            if (replace(o, tl_view_diagonal(o->t, 0, p, q)) < 0) return -1;
            int k = 0;
            for (int i = 0; i < o->n; i++)
                if (i != p && i != q) o->lab[k++] = o->lab[i];
            o->lab[k++] = l;
            o->n = k;
            p = -1;                      /* start over: positions moved */
            break;
        }
    return 0;
}

/* Sums o over its labels not set in keep, in o's own dtype (numpy's einsum keeps it); the sum
   goes into `into` when it fits (the last step of a contraction), else a new tensor. */
static int sum_out(es_operand *o, const bool *keep, tl_tensor *into)
{
    int axes[TL_MAXDIM], na = 0, k = 0;
    for (int i = 0; i < o->n; i++)
        if (!keep[o->lab[i]]) axes[na++] = i;
    if (na == 0) return 0;
    tl_dtype dt = o->t->dtype;
    if (replace(o, tl_reduce_to(TL_RSUM, o->t, na, axes, false, 0, into)) < 0) return -1;
    if (o->t->dtype != dt && replace(o, tl_cast_to(o->t, dt, into)) < 0) return -1;
    for (int i = 0; i < o->n; i++)
        if (keep[o->lab[i]]) o->lab[k++] = o->lab[i];
    o->n = k;
    return 0;
}

/* Permutes o's axes so its labels read order[0..n) (each label of o exactly once). */
static int permute_to(es_operand *o, const uint8_t *order)
{
    int perm[TL_MAXDIM];
    bool same = true;
    for (int i = 0; i < o->n; i++) {
        for (int j = 0; j < o->n; j++)
            if (o->lab[j] == order[i]) perm[i] = j;
        same = same && perm[i] == i;
    }
    if (same) return 0;
    memcpy(o->lab, order, (size_t)o->n);
    return replace(o, tl_view_permute(o->t, perm));
}

/* Product of the sizes of o's axes whose labels are in set[0..n). */
static int64_t group_size(const es_operand *o, const uint8_t *set, int n)
{
    int64_t s = 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < o->n; j++)
            if (o->lab[j] == set[i]) s *= o->t->shape[j];
    return s;
}

/* Reshapes o to the given shape (a view when its strides allow). */
static int reshape_to(es_operand *o, int nd, const int64_t *shape)
{
    return replace(o, tl_reshape(o->t, nd, shape));
}

/* a becomes the contraction of a and b over their shared labels not in need; the labels of
   the result are the shared ones kept (batch), then a's own, then b's own. One batched GEMM
   when something is summed, an elementwise product when nothing is. b is consumed. The result
   goes into `into` when every label it keeps is needed (nothing is summed after it). */
static int contract_pair(es_operand *a, es_operand *b, const bool *need, tl_dtype dt, tl_tensor *into)
{
    bool in_a[ES_NLABELS] = { 0 }, in_b[ES_NLABELS] = { 0 };
    for (int i = 0; i < a->n; i++) in_a[a->lab[i]] = true;
    for (int i = 0; i < b->n; i++) in_b[b->lab[i]] = true;
    uint8_t batch[TL_MAXDIM], sum[TL_MAXDIM], fa[TL_MAXDIM], fb[TL_MAXDIM];
    int nbatch = 0, nsum = 0, nfa = 0, nfb = 0;
    for (int i = 0; i < a->n; i++) {
        uint8_t l = a->lab[i];
        if (!in_b[l]) fa[nfa++] = l;
        else if (need[l]) batch[nbatch++] = l;
        else sum[nsum++] = l;
    }
    for (int i = 0; i < b->n; i++)
        if (!in_a[b->lab[i]]) fb[nfb++] = b->lab[i];
    int nres = nbatch + nfa + nfb;
    if (nres > TL_MAXDIM) {
        tl_seterr(ShapeError, "einsum: an intermediate result would have %d dimensions (at most %d)", nres, TL_MAXDIM);
        return -1;
    }
    uint8_t order[TL_MAXDIM], res[TL_MAXDIM];
    int64_t rshape[TL_MAXDIM];
    memcpy(res, batch, (size_t)nbatch);
    memcpy(res + nbatch, fa, (size_t)nfa);
    memcpy(res + nbatch + nfa, fb, (size_t)nfb);
    for (int i = 0; i < nres && into; i++)
        if (!need[res[i]]) into = NULL;
    for (int i = 0; i < nres; i++) {
        const es_operand *o = i < nbatch + nfa ? a : b;
        for (int j = 0; j < o->n; j++)
            if (o->lab[j] == res[i]) rshape[i] = o->t->shape[j];
    }
    int64_t B = group_size(a, batch, nbatch), M = group_size(a, fa, nfa), N = group_size(b, fb, nfb),
            K = group_size(a, sum, nsum);
    /* a: (batch, fa, sum), b: (batch, sum, fb) */
    memcpy(order, batch, (size_t)nbatch);
    memcpy(order + nbatch, fa, (size_t)nfa);
    memcpy(order + nbatch + nfa, sum, (size_t)nsum);
    if (permute_to(a, order) < 0) return -1;
    memcpy(order + nbatch, sum, (size_t)nsum);
    memcpy(order + nbatch + nsum, fb, (size_t)nfb);
    if (permute_to(b, order) < 0) return -1;
    tl_tensor *r;
    if (nsum == 0 || (B > 1 && M == 1 && N == 1)) {
        /* nothing to sum, or one dot product per batch entry: an elementwise product
           (broadcast a as (B, M, K, 1) against b as (B, 1, K, N)) and a sum over K */
        if (reshape_to(a, 4, (int64_t[]){ B, M, K, 1 }) < 0 || reshape_to(b, 4, (int64_t[]){ B, 1, K, N }) < 0) return -1;
        r = tl_binary_to(dt == TL_BOOL ? TL_AND : TL_MUL, a->t, b->t, dt, nsum > 0 ? NULL : into);
        if (r && nsum > 0) {
            tl_tensor *s = tl_reduce_to(TL_RSUM, r, 1, (int[]){ 2 }, false, 0, into);
            tl_tensor_release(r);
            r = !s || s->dtype == dt ? s : tl_cast_to(s, dt, into);
            if (s && r != s) tl_tensor_release(s);
        }
    } else {
        if (reshape_to(a, 3, (int64_t[]){ B, M, K }) < 0 || reshape_to(b, 3, (int64_t[]){ B, K, N }) < 0) return -1;
        r = tl_matmul_to(a->t, b->t, into);
        if (r && r->dtype != dt) {        /* bools multiply as integers in matmul: back to dt */
            tl_tensor *c = tl_cast_to(r, dt, into);
            tl_tensor_release(r);
            r = c;
        }
    }
    if (replace(a, r) < 0) return -1;
    memcpy(a->lab, res, (size_t)nres);
    a->n = nres;
    return reshape_to(a, nres, rshape);
}

/* The size each label takes (size-1 axes broadcast) into size[]; -1 for labels not present. */
static int label_sizes(int nops, const es_operand *ops, int64_t *size)
{
    for (int l = 0; l < ES_NLABELS; l++) size[l] = -1;
    for (int k = 0; k < nops; k++)
        for (int i = 0; i < ops[k].n; i++) {
            int l = ops[k].lab[i];
            int64_t s = ops[k].t->shape[i];
            if (size[l] < 0 || size[l] == 1) size[l] = s;
            else if (s != 1 && s != size[l]) {
                if (l < ES_LETTERS)
                    tl_seterr(ShapeError, "operands could not be broadcast together: subscript '%c' has size %lld in operand %d "
                              "and %lld before it", label_char(l), (long long)s, k, (long long)size[l]);
                else
                    tl_seterr(ShapeError, "operands could not be broadcast together: a broadcast ('...') dimension has size %lld "
                              "in operand %d and %lld before it", (long long)s, k, (long long)size[l]);
                return -1;
            }
        }
    return 0;
}

/* Drops o's size-1 axes whose label is larger elsewhere (they broadcast, so they are not summed). */
static int drop_broadcast_axes(es_operand *o, const int64_t *size)
{
    for (int i = o->n - 1; i >= 0; i--)
        if (o->t->shape[i] == 1 && size[o->lab[i]] != 1) {
            if (replace(o, tl_view_index(o->t, i, 0)) < 0) return -1;
            memmove(o->lab + i, o->lab + i + 1, (size_t)(o->n - i - 1));
            o->n--;
        }
    return 0;
}

/* Contracts labelled operands (consumed) into the labels out[0..nout), left to right; the step
   that makes the result writes it into `into` when it fits. */
static tl_tensor *contract_all(int nops, es_operand *ops, const uint8_t *out, int nout, tl_tensor *into)
{
    int64_t size[ES_NLABELS];
    tl_tensor *result = NULL;
    tl_dtype dt = ops[0].t->dtype;
    for (int k = 1; k < nops; k++) dt = tl_promote(dt, ops[k].t->dtype);
    int k = 0;
    /* every operand in the result dtype first, as numpy's einsum: a pair never wraps or
       rounds in a narrower dtype than the whole sum */
    for (k = 0; k < nops; k++)
        if (ops[k].t->dtype != dt && replace(&ops[k], tl_cast(ops[k].t, dt)) < 0) goto done;
    if (label_sizes(nops, ops, size) < 0) goto done;
    for (k = 0; k < nops; k++)
        if (drop_broadcast_axes(&ops[k], size) < 0) goto done;
    /* each operand's labels that no other operand and not the output has are summed first */
    for (k = 0; k < nops; k++) {
        bool keep[ES_NLABELS] = { 0 };
        for (int i = 0; i < nout; i++) keep[out[i]] = true;
        for (int j = 0; j < nops; j++)
            for (int i = 0; j != k && i < ops[j].n; i++) keep[ops[j].lab[i]] = true;
        if (sum_out(&ops[k], keep, nops == 1 ? into : NULL) < 0) goto done;
    }
    for (k = 1; k < nops; k++) {
        bool need[ES_NLABELS] = { 0 };
        for (int i = 0; i < nout; i++) need[out[i]] = true;
        for (int j = k + 1; j < nops; j++)
            for (int i = 0; i < ops[j].n; i++) need[ops[j].lab[i]] = true;
        if (contract_pair(&ops[0], &ops[k], need, dt, k == nops - 1 ? into : NULL) < 0) goto done;
    }
    bool keep[ES_NLABELS] = { 0 };
    for (int i = 0; i < nout; i++) keep[out[i]] = true;
    if (sum_out(&ops[0], keep, into) < 0 || permute_to(&ops[0], out) < 0) goto done;
    result = tl_as_dtype(ops[0].t, dt);
done:
    for (int j = 0; j < nops; j++)
        if (ops[j].t) tl_tensor_release(ops[j].t);
    return result;
}

tl_tensor *tl_einsum(const char *subscripts, int nops, const tl_tensor *const *operands)
{
    return tl_einsum_to(subscripts, nops, operands, NULL);
}

tl_tensor *tl_einsum_to(const char *subscripts, int nops, const tl_tensor *const *operands, tl_tensor *into)
{
    if (nops < 1) {
        tl_seterr(ValueError, "must specify the einstein sum subscripts string and at least one operand");
        return NULL;
    }
    es_operand *ops = calloc((size_t)nops, sizeof *ops);
    uint8_t(*raw)[TL_MAXDIM + 1] = calloc((size_t)nops, sizeof *raw);
    int *nraw = calloc((size_t)nops, sizeof *nraw);
    tl_tensor *result = NULL;
    int nbroad = 0, k = 0;
    if (!ops || !raw || !nraw) {
        tl_seterr(MemoryError, "out of memory");
        goto fail;
    }
    const char *s = subscripts;
    for (k = 0;; k++) {
        if (k >= nops) {
            tl_seterr(ValueError, "fewer operands provided to einstein sum function than specified in the subscripts string");
            goto fail;
        }
        s = parse_term(s, k, raw[k], &nraw[k], TL_MAXDIM + 1);
        if (!s) goto fail;
        if (*s != ',') break;
        s++;
    }
    if (k + 1 < nops) {
        tl_seterr(ValueError, "more operands provided to einstein sum function than specified in the subscripts string");
        goto fail;
    }
    for (k = 0; k < nops; k++) {
        ops[k].t = (tl_tensor *)operands[k];
        tl_tensor_retain(ops[k].t);
        int letters = 0;
        for (int i = 0; i < nraw[k]; i++) letters += raw[k][i] != ES_ELLIPSIS;
        if (ops[k].t->ndim - letters > nbroad) nbroad = ops[k].t->ndim - letters;
    }
    for (k = 0; k < nops; k++)
        if (expand_ellipsis(&ops[k], raw[k], nraw[k], k, nbroad) < 0 || collapse_repeats(&ops[k], k) < 0) goto fail;
    uint8_t out[TL_MAXDIM];
    int nout = 0;
    int count[ES_NLABELS] = { 0 };      /* how often each letter is written ("ii" counts twice) */
    for (k = 0; k < nops; k++)
        for (int i = 0; i < nraw[k]; i++)
            if (raw[k][i] != ES_ELLIPSIS) count[raw[k][i]]++;
    if (*s) {                                   /* explicit output after "->" */
        uint8_t olab[TL_MAXDIM + 1];
        int no;
        if (!parse_term(s + 2, -1, olab, &no, TL_MAXDIM + 1)) goto fail;
        const char *rest = s + 2;
        while (*rest && *rest != ',' && !(rest[0] == '-' && rest[1] == '>')) rest++;
        if (*rest) {
            tl_seterr(ValueError, "einstein sum subscripts string has a '%s' in its output subscripts", *rest == ',' ? "," : "->");
            goto fail;
        }
        bool seen[ES_NLABELS] = { 0 }, ell = false;
        for (int i = 0; i < no; i++) {
            if (olab[i] == ES_ELLIPSIS) {
                ell = true;
                for (int j = 0; j < nbroad; j++) {
                    if (nout >= TL_MAXDIM) goto too_many_out;
                    out[nout++] = (uint8_t)(ES_LETTERS + j);
                }
                continue;
            }
            if (seen[olab[i]]) {
                tl_seterr(ValueError, "einstein sum subscripts string includes output subscript '%c' multiple times",
                          label_char(olab[i]));
                goto fail;
            }
            if (!count[olab[i]]) {
                tl_seterr(ValueError, "einstein sum subscripts string included output subscript '%c' which never appeared "
                          "in an input", label_char(olab[i]));
                goto fail;
            }
            seen[olab[i]] = true;
            if (nout >= TL_MAXDIM) goto too_many_out;
            out[nout++] = olab[i];
        }
        if (!ell && nbroad > 0) {
            tl_seterr(ValueError, "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                      "provided to broadcast the extra dimensions.");
            goto fail;
        }
    } else {                                    /* implicit: broadcast axes, then letters seen once, sorted */
        for (int j = 0; j < nbroad; j++) out[nout++] = (uint8_t)(ES_LETTERS + j);
        for (int l = 0; l < ES_LETTERS; l++)
            if (count[l] == 1) {
                if (nout >= TL_MAXDIM) goto too_many_out;
                out[nout++] = (uint8_t)l;
            }
    }
    result = contract_all(nops, ops, out, nout, into);
    nops = 0;                                   /* contract_all released them */
    goto fail;
too_many_out:
    tl_seterr(ValueError, "einstein sum output would have more than %d dimensions", TL_MAXDIM);
fail:
    for (k = 0; ops && k < nops; k++)
        if (ops[k].t) tl_tensor_release(ops[k].t);
    free(ops);
    free(raw);
    free(nraw);
    return result;
}

tl_tensor *tl_tensordot(const tl_tensor *a, const tl_tensor *b, int n, const int *axes_a, const int *axes_b)
{
    return tl_tensordot_to(a, b, n, axes_a, axes_b, NULL);
}

tl_tensor *tl_tensordot_to(const tl_tensor *a, const tl_tensor *b, int n, const int *axes_a, const int *axes_b,
                           tl_tensor *into)
{
    es_operand ops[2] = { { .t = (tl_tensor *)a, .n = a->ndim }, { .t = (tl_tensor *)b, .n = b->ndim } };
    uint8_t out[2 * TL_MAXDIM];
    int nout = 0;
    bool used_a[TL_MAXDIM] = { 0 }, used_b[TL_MAXDIM] = { 0 };
    for (int i = 0; i < n; i++) {
        if (used_a[axes_a[i]] || used_b[axes_b[i]] || a->shape[axes_a[i]] != b->shape[axes_b[i]]) {
            if (used_a[axes_a[i]] || used_b[axes_b[i]]) tl_seterr(ValueError, "tensordot: repeated axis in axes");
            else tl_seterr(ShapeError, "shape-mismatch for sum");
            return NULL;
        }
        used_a[axes_a[i]] = used_b[axes_b[i]] = true;
    }
    /* a's axis d is label d, b's free axis d is label TL_MAXDIM + d, a summed axis of b takes a's label */
    for (int d = 0; d < a->ndim; d++) {
        ops[0].lab[d] = (uint8_t)d;
        if (!used_a[d]) out[nout++] = (uint8_t)d;
    }
    for (int d = 0; d < b->ndim; d++) {
        ops[1].lab[d] = (uint8_t)(TL_MAXDIM + d);
        if (!used_b[d]) out[nout++] = (uint8_t)(TL_MAXDIM + d);
    }
    for (int i = 0; i < n; i++) ops[1].lab[axes_b[i]] = (uint8_t)axes_a[i];
    if (nout > TL_MAXDIM) {
        tl_seterr(ShapeError, "tensordot: the result would have %d dimensions (at most %d)", nout, TL_MAXDIM);
        return NULL;
    }
    tl_tensor_retain(ops[0].t);
    tl_tensor_retain(ops[1].t);
    return contract_all(2, ops, out, nout, into);
}

tl_tensor *tl_kron(const tl_tensor *a, const tl_tensor *b) { return tl_kron_to(a, b, NULL); }

tl_tensor *tl_kron_to(const tl_tensor *a, const tl_tensor *b, tl_tensor *into)
{
    tl_dtype dt = tl_promote(a->dtype, b->dtype);
    tl_binop op = dt == TL_BOOL ? TL_AND : TL_MUL;
    if (a->ndim == 0 || b->ndim == 0) return tl_binary_to(op, a, b, dt, into);
    int nd = a->ndim > b->ndim ? a->ndim : b->ndim;
    if (2 * nd > TL_MAXDIM) {
        tl_seterr(ShapeError, "kron: operands of %d dimensions are too many (at most %d)", nd, TL_MAXDIM / 2);
        return NULL;
    }
    /* a as (a0, 1, a1, 1, ...) times b as (1, b0, 1, b1, ...) is (a0, b0, a1, b1, ...): the blocks in order */
    int64_t sa[TL_MAXDIM], sb[TL_MAXDIM], so[TL_MAXDIM];
    for (int d = 0; d < nd; d++) {
        int da = d - (nd - a->ndim), db = d - (nd - b->ndim);
        sa[2 * d] = da >= 0 ? a->shape[da] : 1;
        sb[2 * d + 1] = db >= 0 ? b->shape[db] : 1;
        sa[2 * d + 1] = sb[2 * d] = 1;
        so[d] = sa[2 * d] * sb[2 * d + 1];
    }
    tl_tensor *ra = tl_reshape(a, 2 * nd, sa), *rb = ra ? tl_reshape(b, 2 * nd, sb) : NULL;
    tl_tensor *p = rb ? tl_binary_to(op, ra, rb, dt, into) : NULL, *r = p ? tl_reshape(p, nd, so) : NULL;
    tl_tensor *all[3] = { ra, rb, p };
    for (int i = 0; i < 3; i++)
        if (all[i]) tl_tensor_release(all[i]);
    return r;
}

/* x @ y (into `into` when it fits), releasing x. */
static tl_tensor *matmul_step(tl_tensor *x, const tl_tensor *y, tl_tensor *into)
{
    tl_tensor *r = tl_matmul_to(x, y, into);
    tl_tensor_release(x);
    return r;
}

tl_tensor *tl_matrix_power(const tl_tensor *a, int64_t n) { return tl_matrix_power_to(a, n, NULL); }

tl_tensor *tl_matrix_power_to(const tl_tensor *a, int64_t n, tl_tensor *into)
{
    if (lp_check_square(a) < 0) return NULL;
    if (n == 0) {                                /* identity in a's dtype, broadcast over a's stack */
        int64_t m = a->shape[a->ndim - 1];
        tl_tensor *e = tl_eye(m, m, 0, a->dtype), *r = e ? tl_tensor_result(into, a->dtype, a->ndim, a->shape) : NULL;
        if (r && tl_assign(r, e) < 0) {
            tl_tensor_release(r);
            r = NULL;
        }
        if (e) tl_tensor_release(e);
        return r;
    }
    tl_tensor *base = (tl_tensor *)a;
    uint64_t k = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
    if (n < 0 && !(base = k == 1 ? tl_inv_to(a, into) : tl_inv(a))) return NULL;
    /* numpy's order of squarings and products, so float results round alike; the last
       product (or the last squaring, for a power of two) writes into `into` */
    tl_tensor *z = NULL, *result = NULL;
    while (k > 0) {
        if (tl_check_interrupt() < 0) break;
        bool last = k == 1;
        if (!z) {
            z = base;
            tl_tensor_retain(z);
        } else if (!(z = matmul_step(z, z, last && !result ? into : NULL))) {
            break;
        }
        bool bit = k & 1;
        k >>= 1;
        if (!bit) continue;
        if (!result) {
            result = z;
            tl_tensor_retain(result);
        } else if (!(result = matmul_step(result, z, last ? into : NULL))) {
            break;
        }
    }
    if (k > 0 && result) {           /* stopped by an error */
        tl_tensor_release(result);
        result = NULL;
    }
    if (z) tl_tensor_release(z);
    if (base != a) tl_tensor_release(base);
    if (result == a) {               /* a ** 1 is a new tensor, as numpy's copy */
        tl_tensor *c = tl_copy_to(a, into);
        tl_tensor_release(result);
        result = c;
    }
    return result;
}

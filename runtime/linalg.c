/* linalg.c — matmul (numpy's rules, OpenBLAS gemm), det, inv, solve (LAPACKE), batched */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "kernels/kern.h"
#include "lapack.h"

/* ---- matmul ---------------------------------------------------------------- */

/* How gemm reads one matrix operand (rows x cols, last two axes of t). */
typedef struct gemm_operand {
    enum CBLAS_TRANSPOSE trans;
    int64_t ld;
} gemm_operand;

/* Can BLAS read t's last two axes directly (unit stride one way, a valid
   leading dimension the other)? */
static bool gemm_layout(const tl_tensor *t, gemm_operand *g)
{
    int64_t rows = t->shape[t->ndim - 2], cols = t->shape[t->ndim - 1];
    int64_t rs = t->strides[t->ndim - 2], cs = t->strides[t->ndim - 1];
    if ((cs == 1 || cols == 1) && (rows == 1 || rs >= (cols > 1 ? cols : 1))) {
        g->trans = CblasNoTrans;
        g->ld = rows == 1 ? (cols > 1 ? cols : 1) : rs;
        return g->ld <= INT32_MAX;
    }
    if ((rs == 1 || rows == 1) && (cols == 1 || cs >= (rows > 1 ? rows : 1))) {
        g->trans = CblasTrans;
        g->ld = cols == 1 ? (rows > 1 ? rows : 1) : cs;
        return g->ld <= INT32_MAX;
    }
    return false;
}

/* The complex 1 and 0 BLAS takes as alpha and beta. */
static const float one_f[2] = { 1, 0 }, zero_f[2] = { 0, 0 };
static const double one_d[2] = { 1, 0 }, zero_d[2] = { 0, 0 };

/* c (n x m, contiguous) = a @ b for one batch item, in dtype dt via BLAS. */
static void gemm_one(tl_dtype dt, int64_t n, int64_t m, int64_t k, const gemm_operand *ga, const void *a,
                     const gemm_operand *gb, const void *b, void *c)
{
    blasint N = (blasint)n, M = (blasint)m, K = (blasint)k, lda = (blasint)ga->ld, ldb = (blasint)gb->ld;
    switch (dt) {
    case TL_F32:
        tl_blas.cblas_sgemm(CblasRowMajor, ga->trans, gb->trans, N, M, K, 1.0f, a, lda, b, ldb, 0.0f, c, M);
        break;
    case TL_F64:
        tl_blas.cblas_dgemm(CblasRowMajor, ga->trans, gb->trans, N, M, K, 1.0, a, lda, b, ldb, 0.0, c, M);
        break;
    case TL_C64:
        tl_blas.cblas_cgemm(CblasRowMajor, ga->trans, gb->trans, N, M, K, one_f, a, lda, b, ldb, zero_f, c, M);
        break;
    default:
        tl_blas.cblas_zgemm(CblasRowMajor, ga->trans, gb->trans, N, M, K, one_d, a, lda, b, ldb, zero_d, c, M);
        break;
    }
}

/* ---- complex products numpy makes without gemm: numpy's own calls --------------------------
   numpy (umath/matmul.c.src) computes a product with a 1 among n, k, m, or with an operand BLAS
   cannot read as it lies, without gemm: a row times a column with its dot (BLAS's cdotu/zdotu,
   or a plain loop for strides BLAS cannot take), a vector times a matrix or a matrix times a
   vector with gemv when BLAS can read both, and the rest (k == 1, two matrices, or strides
   BLAS cannot take) with a plain loop. gemm multiplies every sum by alpha = 1 + 0j,
   and (inf - inf j) * (1 + 0j) is nan + nan j, where numpy's dot and loop give inf - inf j;
   so tl makes numpy's calls, and its infinities and last bits are numpy's. Strides here are
   in bytes, as numpy's. */

/* Can BLAS read rows of d2 elements of size sz at byte strides s1 (rows), s2 (numpy's
   is_blasable2d)? */
static bool blasable2d(int64_t s1, int64_t s2, int64_t d2, int64_t sz)
{
    return s2 == sz && s1 % sz == 0 && s1 / sz >= d2 && s1 / sz <= INT32_MAX - 1;
}

/* Can BLAS read a rows x cols matrix at byte strides rs, cs, row- or column-major (numpy's
   i1blasable)? */
static bool blasable_matrix(int64_t rs, int64_t cs, int64_t rows, int64_t cols, int64_t sz)
{
    return blasable2d(rs, cs, cols, sz) || blasable2d(cs, rs, rows, sz);
}

/* A vector's BLAS increment for byte stride s, 0 when BLAS cannot take it (numpy's blas_stride). */
static blasint blas_increment(int64_t s, int64_t sz) { return s > 0 && s % sz == 0 && s / sz <= INT32_MAX ? (blasint)(s / sz) : 0; }

/* numpy's plain loop: o (dm x dp, byte strides om, op) = a (am, an) @ b (bn, bp), each sum
   from 0 in the order of k, re += ar br - ai bi and im += ar bi + ai br; T the part's type.
   Returns -1 when interrupted. */
#define COMPLEX_PLAIN(NAME, T)                                                                                   \
    static int NAME(const char *a, int64_t am, int64_t an, const char *b, int64_t bn, int64_t bp, char *o,       \
                    int64_t om, int64_t op, int64_t dm, int64_t dk, int64_t dp)                                  \
    {                                                                                                            \
        for (int64_t i = 0; i < dm; i++) {                                                                       \
            if (tl_check_interrupt() < 0) return -1;                                                             \
            for (int64_t j = 0; j < dp; j++) {                                                                   \
                T re = 0, im = 0;                                                                                \
                for (int64_t p = 0; p < dk; p++) {                                                               \
                    const T *x = (const T *)(a + i * am + p * an), *y = (const T *)(b + p * bn + j * bp);        \
                    re += x[0] * y[0] - x[1] * y[1];                                                             \
                    im += x[0] * y[1] + x[1] * y[0];                                                             \
                }                                                                                                \
                T *z = (T *)(o + i * om + j * op);                                                               \
                z[0] = re, z[1] = im;                                                                            \
            }                                                                                                    \
        }                                                                                                        \
        return 0;                                                                                                \
    }
COMPLEX_PLAIN(plain_c64, float)
COMPLEX_PLAIN(plain_c128, double)

static int complex_plain(tl_dtype cdt, const char *a, int64_t am, int64_t an, const char *b, int64_t bn, int64_t bp,
                         char *o, int64_t om, int64_t op, int64_t dm, int64_t dk, int64_t dp)
{
    return (cdt == TL_C64 ? plain_c64 : plain_c128)(a, am, an, b, bn, bp, o, om, op, dm, dk, dp);
}

/* numpy's dot of a row (byte stride sa) and a column (sb) of k elements into o: BLAS's dotu in
   chunks of 2^30, the chunks' sums added in double from 0; the plain loop for strides BLAS
   cannot take. */
static int complex_dot(tl_dtype cdt, const char *a, int64_t sa, const char *b, int64_t sb, char *o, int64_t k)
{
    int64_t sz = (int64_t)tl_dtype_size(cdt);
    blasint ia = blas_increment(sa, sz), ib = blas_increment(sb, sz);
    if (!ia || !ib) return complex_plain(cdt, a, 0, sa, b, sb, 0, o, 0, 0, 1, k, 1);
    double sum[2] = { 0, 0 };
    for (int64_t left = k; left > 0;) {
        int64_t chunk = left < ((int64_t)1 << 30) ? left : ((int64_t)1 << 30);
        if (cdt == TL_C64) {
            float t[2];
            tl_blas.cblas_cdotu_sub((blasint)chunk, a, ia, b, ib, t);
            sum[0] += (double)t[0], sum[1] += (double)t[1];
        } else {
            double t[2];
            tl_blas.cblas_zdotu_sub((blasint)chunk, a, ia, b, ib, t);
            sum[0] += t[0], sum[1] += t[1];
        }
        a += chunk * sa, b += chunk * sb, left -= chunk;
    }
    if (cdt == TL_C64) {
        float f[2] = { (float)sum[0], (float)sum[1] };
        memcpy(o, f, sizeof f);
    } else {
        memcpy(o, sum, sizeof sum);
    }
    return 0;
}

/* numpy's gemv: o (m elements, byte stride so) = w (m x k, byte strides sm, sk) @ x (k, stride
   sx), w read column-major when its rows are BLAS-readable, else row-major, transposed. */
static void complex_gemv(tl_dtype cdt, const char *w, int64_t sm, int64_t sk, const char *x, int64_t sx, char *o,
                         int64_t so, int64_t m, int64_t k)
{
    int64_t sz = (int64_t)tl_dtype_size(cdt);
    bool col = blasable2d(sm, sk, k, sz);
    enum CBLAS_ORDER order = col ? CblasColMajor : CblasRowMajor;
    blasint ld = (blasint)((col ? sm : sk) / sz), ix = (blasint)(sx / sz), io = (blasint)(so / sz);
    if (cdt == TL_C64)
        tl_blas.cblas_cgemv(order, CblasTrans, (blasint)k, (blasint)m, one_f, w, ld, x, ix, zero_f, o, io);
    else
        tl_blas.cblas_zgemv(order, CblasTrans, (blasint)k, (blasint)m, one_d, w, ld, x, ix, zero_d, o, io);
}

/* Can BLAS read t's last two axes as they lie (blasable_matrix)? */
static bool numpy_blasable(const tl_tensor *t, int64_t sz)
{
    int nd = t->ndim;
    return blasable_matrix(t->strides[nd - 2] * sz, t->strides[nd - 1] * sz, t->shape[nd - 2], t->shape[nd - 1], sz);
}

/* Does the product a @ b (n x k by k x m, both in the complex dtype cdt) make numpy's own calls
   (complex_special_one) rather than gemm? With a 1 among n, k, m; and for two matrices, when
   BLAS cannot read one of them as it lies (a flipped or stepped view), where numpy runs its
   plain loop (a copy for gemm would turn its infinities into nan). */
static bool complex_special(tl_dtype cdt, const tl_tensor *a, const tl_tensor *b, int64_t n, int64_t k, int64_t m)
{
    if (!tl_is_complex(cdt)) return false;
    int64_t sz = (int64_t)tl_dtype_size(cdt);
    return n == 1 || k == 1 || m == 1 || !numpy_blasable(a, sz) || !numpy_blasable(b, sz);
}

/* One batch entry of a complex product (complex_special), as numpy's matmul chooses: a (n x k,
   byte strides am, an) @ b (k x m: bk, bm) into o (contiguous). numpy's loop sees a stride of
   0 for a core dimension of length 1, so k == 1 never goes to BLAS (OpenBLAS's zdotu of
   (1.5 - 1.75j) and inf gives nan - inf j, numpy inf - inf j). Returns -1 when interrupted. */
static int complex_special_one(tl_dtype cdt, const char *a, int64_t am, int64_t an, const char *b, int64_t bk,
                               int64_t bm, char *o, int64_t n, int64_t k, int64_t m)
{
    int64_t sz = (int64_t)tl_dtype_size(cdt), om = m * sz, op = sz;
    if (n == 1) am = om = 0;
    if (k == 1) an = bk = 0;
    if (m == 1) bm = op = 0;
    if (n == 1 && m == 1) return complex_dot(cdt, a, an, b, bk, o, k);
    if (k == 1 && (m == 1 || n == 1)) return complex_plain(cdt, a, am, an, b, bk, bm, o, om, op, n, k, m);
    bool a_blas = blasable_matrix(am, an, n, k, sz), b_blas = blasable_matrix(bk, bm, k, m, sz);
    if (n == 1 && b_blas && blasable2d(an, sz, 1, sz)) {
        complex_gemv(cdt, b, bm, bk, a, an, o, op, m, k);   /* a vector times a matrix: b transposed */
        return 0;
    }
    if (m == 1 && a_blas && blasable2d(bk, sz, 1, sz)) {
        complex_gemv(cdt, a, am, an, b, bk, o, om, n, k);
        return 0;
    }
    return complex_plain(cdt, a, am, an, b, bk, bm, o, om, op, n, k, m);
}

/* Integer (and bool) matmul: wrapping u64 arithmetic, i-k-j order. */
static void imatmul_one(int64_t n, int64_t m, int64_t k, const uint64_t *a, int64_t ars, int64_t acs,
                        const uint64_t *b, int64_t brs, int64_t bcs, uint64_t *c)
{
    memset(c, 0, (size_t)(n * m) * sizeof *c);
    for (int64_t i = 0; i < n; i++)
        for (int64_t p = 0; p < k; p++) {
            uint64_t av = a[i * ars + p * acs];
            const uint64_t *brow = b + p * brs;
            uint64_t *crow = c + i * m;
            for (int64_t j = 0; j < m; j++) crow[j] += av * brow[j * bcs];
        }
}

static tl_dtype matmul_compute_dtype(tl_dtype dt)
{
    if (tl_is_half(dt)) return TL_F32;   /* widened blockwise by the cast */
    if (tl_is_intlike(dt)) return tl_dtype_kind(dt) == TL_KIND_INT ? TL_I64 : TL_U64;
    return dt;
}

/* Work per uninterruptible BLAS call in double precision (twice that in single: about
   0.05 s either way on one core of this machine, so Ctrl-C stays under 0.3 s on a loaded
   2-core machine; each block runs BLAS on one thread), and the fewest rows a block may have. */
#define GEMM_BLOCK_FLOPS ((int64_t)1 << 31)
#define GEMM_MIN_BLOCK_ROWS 64
/* Products of fewer flops than this run on the calling thread (about a millisecond). */
#define GEMM_THREAD_FLOPS ((int64_t)1 << 24)

/* A product in row blocks: each task is one block of one batch entry. */
typedef struct gemm_job {
    tl_dtype cdt;
    const tl_iter *bt;                 /* the batch entries of (out, a, b) */
    int64_t n, m, k, es;
    gemm_operand ga, gb;
    int64_t block, blocks_per_entry;   /* rows per block; blocks per batch entry */
    int64_t a_row;                     /* bytes from one row of a to the next */
} gemm_job;

/* Computes block `t` of a gemm_job (a tl_parallel_for task). */
static int gemm_task(void *ctx, int64_t t)
{
    const gemm_job *g = ctx;
    if (tl_check_interrupt() < 0) return -1;
    int64_t entry = t / g->blocks_per_entry, r = t % g->blocks_per_entry * g->block;
    int64_t rows = g->n - r < g->block ? g->n - r : g->block;
    char *p[3];
    tl_iter_at(g->bt, entry, p);
    gemm_one(g->cdt, rows, g->m, g->k, &g->ga, p[1] + r * g->a_row, &g->gb, p[2], p[0] + r * g->m * g->es);
    return 0;
}

/* matmul_core for small f32 products (kernels/small_gemm.c), batch entries a few dozen at a time. */
static void small_products(const tl_tensor *a, const tl_tensor *b, const tl_iter *bt)
{
    int64_t n = a->shape[a->ndim - 2], k = a->shape[a->ndim - 1], m = b->shape[b->ndim - 1];
    tl_sgemm_entry e[32];
    int have = 0;
    for (int64_t i = 0; i < bt->size; i++) {
        char *p[3];
        tl_iter_at(bt, i, p);
        e[have++] = (tl_sgemm_entry){ (const float *)p[1], (const float *)p[2], (float *)p[0] };
        if (have == 32 || i + 1 == bt->size) {
            tl_small_sgemm(have, e, n, m, k, a->strides[a->ndim - 2], a->strides[a->ndim - 1], b->strides[b->ndim - 2]);
            have = 0;
        }
    }
}

/* Computes out (batch..., n, m) from 2-d-or-more a and b already in cdt;
   bt walks the batch entries of (out, a, b). */
static int matmul_core(tl_dtype cdt, const tl_tensor *a, const tl_tensor *b, const tl_iter *bt, tl_tensor *out)
{
    int64_t n = a->shape[a->ndim - 2], k = a->shape[a->ndim - 1], m = b->shape[b->ndim - 1];
    size_t es = tl_dtype_size(cdt);
    int64_t csize = n * m;
    char *p[3];                                    /* out, a, b of one batch entry */
    if (csize == 0 || bt->size == 0) return 0;     /* nothing to compute (BLAS would complain) */
    if (tl_is_int(cdt)) {
        for (int64_t i = 0; i < bt->size; i++) {
            if (tl_check_interrupt() < 0) return -1;
            tl_iter_at(bt, i, p);
            imatmul_one(n, m, k, (const uint64_t *)p[1], a->strides[a->ndim - 2], a->strides[a->ndim - 1],
                        (const uint64_t *)p[2], b->strides[b->ndim - 2], b->strides[b->ndim - 1], (uint64_t *)p[0]);
        }
        return 0;
    }
    if (k == 0) {
        memset(tl_tensor_data(out), 0, (size_t)(bt->size * csize) * es);
        return 0;
    }
    if (complex_special(cdt, a, b, n, k, m)) {
        if (tl_blas_load() < 0) return -1;
        tl_blas_threads(1);
        int64_t sz = (int64_t)es, an = a->ndim, bn = b->ndim;
        for (int64_t i = 0; i < bt->size; i++) {
            if (tl_check_interrupt() < 0) return -1;
            tl_iter_at(bt, i, p);
            if (complex_special_one(cdt, p[1], a->strides[an - 2] * sz, a->strides[an - 1] * sz, p[2],
                                    b->strides[bn - 2] * sz, b->strides[bn - 1] * sz, p[0], n, k, m) < 0)
                return -1;
        }
        return 0;
    }
    bool small = m * k <= TL_SMALL_GEMM_MADDS && n <= TL_SMALL_GEMM_MADDS && n * m * k <= TL_SMALL_GEMM_MADDS;
    if (cdt == TL_F32 && small && (b->strides[b->ndim - 1] == 1 || m == 1) && tl_small_sgemm_ok()) {
        small_products(a, b, bt);
        return 0;
    }
    if (tl_blas_load() < 0) return -1;   /* BLAS is opened on the first float product */
    gemm_job g = { .cdt = cdt, .bt = bt, .n = n, .m = m, .k = k, .es = (int64_t)es };
    gemm_layout(a, &g.ga);
    gemm_layout(b, &g.gb);
    /* BLAS cannot be interrupted, so each product runs in row blocks of about GEMM_BLOCK_FLOPS
       (tens of milliseconds) with a Ctrl-C check before each; blocks stay large enough that
       BLAS keeps its full speed. The blocks (of every batch entry) are tl's pool's tasks,
       with BLAS itself on one thread, so a product scales with threads(n) whatever the BLAS
       build does; a big product is cut into at least one block per thread. */
    int64_t flops_per_row = 2 * m * k * (tl_is_complex(cdt) ? 4 : 1);
    bool single = cdt == TL_F32 || cdt == TL_C64;   /* twice the flops per second of double */
    int64_t block = (GEMM_BLOCK_FLOPS << (single ? 1 : 0)) / (flops_per_row > 0 ? flops_per_row : 1);
    int threads = n * flops_per_row * bt->size >= GEMM_THREAD_FLOPS ? tl_get_threads() : 1;
    int fit = tl_blas_reserve(threads);   /* under a memory limit, each thread calling BLAS needs room for a buffer */
    if (fit < 0) return -1;
    if (fit < threads) threads = 1;
    if (threads > 1 && bt->size < threads) {
        int64_t share = (n * bt->size + threads - 1) / threads;   /* rows per thread */
        if (share < block) block = share;
    }
    if (block < GEMM_MIN_BLOCK_ROWS) block = GEMM_MIN_BLOCK_ROWS;
    g.block = block;
    g.blocks_per_entry = (n + block - 1) / block;
    g.a_row = a->strides[a->ndim - 2] * (int64_t)es;
    tl_blas_threads(1);
    int64_t tasks = g.blocks_per_entry * bt->size;
    if (threads > 1) return tl_parallel_for(tasks, gemm_task, &g);
    for (int64_t t = 0; t < tasks; t++)
        if (gemm_task(&g, t) < 0) return -1;
    return 0;
}

/* A BLAS-readable version of t: t itself when its matrices have a gemm
   layout (or when `as_is`: complex_special_one reads any strides, as numpy does), else a
   contiguous copy. */
static tl_tensor *blas_ready(tl_tensor *t, tl_dtype cdt, bool as_is)
{
    gemm_operand g;
    if (tl_is_int(cdt) || as_is || gemm_layout(t, &g)) return t;
    tl_tensor *c = tl_copy(t);
    tl_tensor_release(t);
    return c;
}

/* The shape of t with its last two axes swapped, as text. */
static char *swapped_shape(const tl_tensor *t, char *buf, size_t n)
{
    int64_t s[TL_MAXDIM];
    memcpy(s, t->shape, (size_t)t->ndim * sizeof *s);
    s[t->ndim - 1] = t->shape[t->ndim - 2];
    s[t->ndim - 2] = t->shape[t->ndim - 1];
    return tl_shape_str(t->ndim, s, buf, n);
}

/* "matmul: (3, 4) @ (3, 4): 4 (dim 1 of the left) != 3 (dim 0 of the right)", and a line saying
   which operand transposed would fit when one would, else what must match. */
static void matmul_mismatch(const tl_tensor *a, const tl_tensor *b)
{
    char sa[TL_MAXDIM * 24 + 8], sb[TL_MAXDIM * 24 + 8], st[TL_MAXDIM * 24 + 8], fix[3 * TL_MAXDIM * 24];
    int da = a->ndim - 1, db = b->ndim == 1 ? 0 : b->ndim - 2;
    int64_t ka = a->shape[da], kb = b->shape[db];
    tl_shape_str(a->ndim, a->shape, sa, sizeof sa);
    tl_shape_str(b->ndim, b->shape, sb, sizeof sb);
    if (b->ndim >= 2 && b->shape[b->ndim - 1] == ka)   /* x @ w.T first: weights stored (out, in) */
        snprintf(fix, sizeof fix, "the right operand transposed would fit: %s @ %s (.T swaps the last two axes)", sa, swapped_shape(b, st, sizeof st));
    else if (a->ndim >= 2 && a->shape[a->ndim - 2] == kb)
        snprintf(fix, sizeof fix, "the left operand transposed would fit: %s @ %s (.T swaps the last two axes)", swapped_shape(a, st, sizeof st), sb);
    else
        snprintf(fix, sizeof fix, "the left operand's last dim must equal the right's %s", b->ndim == 1 ? "length" : "second to last");
    tl_seterr(ShapeError, "matmul: %s @ %s: %lld (dim %d of the left) != %lld (dim %d of the right)\n%s", sa, sb, (long long)ka, da,
              (long long)kb, db, fix);
}

/* numpy's matmul shapes of a0 @ b0, a 1-d a0 being a row (1, k) and a 1-d b0 a column
   (k, 1): the broadcast batch axes (*bnd of them, in bshape) and n, k, m; -1 (error set)
   when the operands do not fit. */
static int matmul_dims(const tl_tensor *a0, const tl_tensor *b0, int *bnd, int64_t *bshape, int64_t *n, int64_t *k,
                       int64_t *m)
{
    for (int i = 0; i < 2; i++) {
        const tl_tensor *t = i ? b0 : a0;
        if (t->ndim == 0) {
            tl_seterr(ShapeError, "matmul: Input operand %d does not have enough dimensions (has 0, gufunc core with "
                      "signature (n?,k),(k,m?)->(n?,m?) requires 1)", i);
            return -1;
        }
    }
    int64_t ka = a0->shape[a0->ndim - 1], kb = b0->shape[b0->ndim == 1 ? 0 : b0->ndim - 2];
    if (ka != kb) {
        matmul_mismatch(a0, b0);
        return -1;
    }
    int abd = a0->ndim > 2 ? a0->ndim - 2 : 0, bbd = b0->ndim > 2 ? b0->ndim - 2 : 0;
    if (tl_broadcast_shapes(abd, a0->shape, bbd, b0->shape, bnd, bshape) < 0) return -1;
    if (*bnd + 2 > TL_MAXDIM) {
        tl_seterr(ShapeError, "too many dimensions");
        return -1;
    }
    *n = a0->ndim == 1 ? 1 : a0->shape[a0->ndim - 2];
    *k = ka;
    *m = b0->ndim == 1 ? 1 : b0->shape[b0->ndim - 1];
    return 0;
}

int tl_matmul_shape(const tl_tensor *a, const tl_tensor *b, int64_t *shape)
{
    int nd;
    int64_t n, k, m;
    if (matmul_dims(a, b, &nd, shape, &n, &k, &m) < 0) return -1;
    if (a->ndim > 1) shape[nd++] = n;
    if (b->ndim > 1) shape[nd++] = m;
    return nd;
}

/* a0 @ b0; into `into` when given: with `declined`, only if it is exactly the tensor the product
   writes (else NULL with *declined set and no error); without, when it fits (tl_tensor_result). */
static tl_tensor *matmul_impl(const tl_tensor *a0, const tl_tensor *b0, tl_tensor *into, bool *declined)
{
    int bnd;                          /* the broadcast batch axes */
    int64_t bshape[TL_MAXDIM], n, k, m;
    if (matmul_dims(a0, b0, &bnd, bshape, &n, &k, &m) < 0) return NULL;
    tl_tensor *rows_out;             /* matrix-vector products and quantized weights (kernels/matvec.c) */
    int rows_rc = tl_matmul_rows(a0, b0, declined ? NULL : into, &rows_out);
    if (rows_rc != 0) return rows_rc > 0 ? rows_out : NULL;
    tl_dtype dt = tl_promote(a0->dtype, b0->dtype), cdt = matmul_compute_dtype(dt);
    /* numpy's 1-d rules: a vector a is a row (1, k), a vector b a column (k, 1) */
    tl_tensor *a = a0->ndim == 1 ? tl_view_unsqueeze(a0, 0) : (tl_tensor_retain((tl_tensor *)a0), (tl_tensor *)a0);
    tl_tensor *b = b0->ndim == 1 ? tl_view_unsqueeze(b0, 1) : (tl_tensor_retain((tl_tensor *)b0), (tl_tensor *)b0);
    tl_tensor *out = NULL;
    if (!a || !b) goto done;
    int64_t oshape[TL_MAXDIM + 2];
    memcpy(oshape, bshape, sizeof(int64_t) * (size_t)bnd);
    oshape[bnd] = n;
    oshape[bnd + 1] = m;
    if (n > INT32_MAX || m > INT32_MAX || k > INT32_MAX) { tl_seterr(ShapeError, "matmul: matrix too large"); goto done; }
    tl_tensor *ca = tl_as_dtype(a, cdt), *cb = tl_as_dtype(b, cdt);
    tl_tensor_release(a);
    tl_tensor_release(b);
    bool special = ca && cb && complex_special(cdt, ca, cb, n, k, m);
    a = ca ? blas_ready(ca, cdt, special) : NULL;
    b = cb ? blas_ready(cb, cdt, special) : NULL;
    if (!a || !b) goto done;
    if (into && !declined) {   /* the caller's tensor when it fits (computed in dt) */
        out = tl_tensor_result(dt == cdt ? into : NULL, cdt, bnd + 2, oshape);
    } else if (into) {   /* the caller's tensor, when it is exactly what the product writes */
        bool fits = into->dtype == dt && dt == cdt && a0->ndim >= 2 && b0->ndim >= 2 && into->ndim == bnd + 2 &&
                    tl_is_contiguous(into) && !into->readonly;
        for (int d = 0; fits && d < bnd + 2; d++) fits = into->shape[d] == oshape[d];
        if (!fits) {
            *declined = true;
            goto done;
        }
        tl_tensor_retain(into);
        out = into;
    } else {
        out = tl_tensor_empty(cdt, bnd + 2, oshape);
    }
    tl_iter bt;
    const tl_tensor *ops[3] = { out, a, b };
    static const int core[3] = { 2, 2, 2 };
    if (out && (tl_iter_batch_init(&bt, 3, ops, core, bnd, bshape) < 0 || matmul_core(cdt, a, b, &bt, out) < 0)) {
        tl_tensor_release(out);
        out = NULL;
    }
    if (out && out->dtype != dt) {
        tl_tensor *c = tl_cast_to(out, dt, declined ? NULL : into);
        tl_tensor_release(out);
        out = c;
    }
    if (out && (a0->ndim == 1 || b0->ndim == 1)) {      /* drop the promoted axes */
        int nd = bnd;
        if (a0->ndim != 1) oshape[nd++] = n;
        if (b0->ndim != 1) oshape[nd++] = m;
        tl_tensor *r = tl_reshape(out, nd, oshape);
        tl_tensor_release(out);
        out = r;
    }
done:
    if (a) tl_tensor_release(a);
    if (b) tl_tensor_release(b);
    return out;
}

/* a0 @ b0 as a new tensor. */
tl_tensor *tl_matmul(const tl_tensor *a0, const tl_tensor *b0) { return matmul_impl(a0, b0, NULL, NULL); }

tl_tensor *tl_matmul_to(const tl_tensor *a0, const tl_tensor *b0, tl_tensor *into) { return matmul_impl(a0, b0, into, NULL); }

/* a @ b written into out (ops.h): the matrix-vector path makes its own tensor, copied in. */
int tl_matmul_into(const tl_tensor *a, const tl_tensor *b, tl_tensor *out)
{
    bool declined = false;
    tl_tensor *r = matmul_impl(a, b, out, &declined);
    if (!r) return declined ? 0 : -1;
    int rc = 1;
    if (r != out) {   /* the matrix-vector path made its own tensor */
        bool same = r->dtype == out->dtype && r->ndim == out->ndim && !memcmp(r->shape, out->shape, sizeof *r->shape * (size_t)r->ndim);
        rc = !same ? 0 : tl_assign(out, r) < 0 ? -1 : 1;
    }
    tl_tensor_release(r);
    return rc;
}

/* ---- det, inv, solve -------------------------------------------------------- */

/* A contiguous copy of a stack of square matrices in its LAPACK dtype (LAPACK
   overwrites its input), with their order n; NULL with the error set. */
static tl_tensor *lapack_square_copy(const tl_tensor *a, lp_int *n, tl_tensor *into)
{
    if (lp_check_square(a) < 0) return NULL;
    *n = (lp_int)a->shape[a->ndim - 1];
    tl_dtype dt = lp_dtype(a->dtype);
    return a->dtype == dt ? tl_copy_to(a, into) : tl_cast_to(a, dt, into);
}

tl_tensor *tl_det(const tl_tensor *a) { return tl_det_to(a, NULL); }

tl_tensor *tl_det_to(const tl_tensor *a, tl_tensor *into)
{
    lp_int n;
    tl_tensor *lu = lapack_square_copy(a, &n, NULL);
    if (!lu) return NULL;
    tl_dtype dt = lu->dtype;
    int64_t count;
    tl_tensor *out = NULL;
    lp_int *ipiv = malloc(sizeof *ipiv * (size_t)(n > 0 ? n : 1));
    if (ipiv && tl_shape_size(a->ndim - 2, a->shape, &count) == 0)
        out = tl_tensor_result(into, dt, a->ndim - 2, a->shape);
    if (!ipiv) tl_seterr(MemoryError, "out of memory");
    size_t es = tl_dtype_size(dt);
    for (int64_t i = 0; out && i < count; i++) {
        char *m = (char *)tl_tensor_data(lu) + (size_t)i * (size_t)n * (size_t)n * es;
        lp_int info = n > 0 ? lp_getrf(dt, n, m, ipiv) : 0;
        double re = 1, im = 0;     /* product of U's diagonal, sign from the pivots */
        for (lp_int j = 0; j < n && info >= 0; j++) {
            double dr, di = 0;
            const char *e = m + ((size_t)j * (size_t)n + (size_t)j) * es;
            if (dt == TL_F32) dr = *(const float *)e;
            else if (dt == TL_F64) dr = *(const double *)e;
            else if (dt == TL_C64) { dr = ((const float *)e)[0]; di = ((const float *)e)[1]; }
            else { dr = ((const double *)e)[0]; di = ((const double *)e)[1]; }
            if (ipiv[j] != j + 1) { dr = -dr; di = -di; }
            double r2 = re * dr - im * di;
            im = re * di + im * dr;
            re = r2;
        }
        char *o = (char *)tl_tensor_data(out) + (size_t)i * es;
        if (dt == TL_F32) *(float *)o = (float)re;
        else if (dt == TL_F64) *(double *)o = re;
        else if (dt == TL_C64) { ((float *)o)[0] = (float)re; ((float *)o)[1] = (float)im; }
        else { ((double *)o)[0] = re; ((double *)o)[1] = im; }
    }
    free(ipiv);
    tl_tensor_release(lu);
    return out;
}

tl_tensor *tl_inv(const tl_tensor *a) { return tl_inv_to(a, NULL); }

/* LAPACK inverts in place: the copy it works on is the result. */
tl_tensor *tl_inv_to(const tl_tensor *a, tl_tensor *into)
{
    lp_int n;
    tl_tensor *m = lapack_square_copy(a, &n, into);
    if (!m) return NULL;
    tl_dtype dt = m->dtype;
    int64_t count = n ? tl_tensor_size(m) / ((int64_t)n * n) : 0;
    lp_int *ipiv = malloc(sizeof *ipiv * (size_t)(n > 0 ? n : 1));
    size_t es = tl_dtype_size(dt);
    int rc = ipiv ? 0 : -1;
    if (!ipiv) tl_seterr(MemoryError, "out of memory");
    for (int64_t i = 0; rc == 0 && i < count; i++) {
        void *p = (char *)tl_tensor_data(m) + (size_t)i * (size_t)n * (size_t)n * es;
        lp_int info = lp_getrf(dt, n, p, ipiv);
        if (info == 0) {
            info = lp_getri(dt, n, p, ipiv);
        }
        if (info > 0) { tl_seterr(ValueError, "singular matrix"); rc = -1; }
        else if (info < 0) { tl_seterr(ValueError, "inv: LAPACK error %d", (int)info); rc = -1; }
    }
    free(ipiv);
    if (rc < 0) {
        tl_tensor_release(m);
        return NULL;
    }
    return m;
}

tl_tensor *tl_solve(const tl_tensor *a, const tl_tensor *b) { return tl_solve_to(a, b, NULL); }

tl_tensor *tl_solve_to(const tl_tensor *a, const tl_tensor *b, tl_tensor *into)
{
    if (lp_check_square(a) < 0) return NULL;
    /* numpy 1.24: b is a stack of vectors when it has one axis fewer than a */
    bool vec = b->ndim == a->ndim - 1;
    if (b->ndim < 1) { tl_seterr(ShapeError, "solve: b must be at least one-dimensional"); return NULL; }
    int64_t n = a->shape[a->ndim - 1];
    int64_t bn = vec ? b->shape[b->ndim - 1] : (b->ndim >= 2 ? b->shape[b->ndim - 2] : -1);
    if (bn != n) {
        tl_seterr(ShapeError, "solve: b has %lld rows, but a is %lld x %lld", (long long)bn, (long long)n, (long long)n);
        return NULL;
    }
    tl_dtype dt = lp_dtype(tl_promote(a->dtype, b->dtype));
    int64_t nrhs = vec ? 1 : b->shape[b->ndim - 1];
    int bcore = vec ? 1 : 2, bnd;     /* bnd broadcast batch axes */
    int64_t bshape[TL_MAXDIM];
    if (tl_broadcast_shapes(a->ndim - 2, a->shape, b->ndim - bcore, b->shape, &bnd, bshape) < 0) return NULL;
    int64_t oshape[TL_MAXDIM + 2];
    memcpy(oshape, bshape, sizeof(int64_t) * (size_t)bnd);
    oshape[bnd] = n;
    if (!vec) oshape[bnd + 1] = nrhs;
    tl_tensor *ca = tl_cast(a, dt), *cb = tl_cast(b, dt);    /* contiguous copies */
    tl_tensor *out = (ca && cb) ? tl_tensor_result(into, dt, bnd + bcore, oshape) : NULL;
    size_t es = tl_dtype_size(dt), bsz = (size_t)(n * nrhs) * es;
    lp_int *ipiv = malloc(sizeof *ipiv * (size_t)(n > 0 ? n : 1));
    int rc = out && ipiv ? 0 : -1;
    if (out && !ipiv) tl_seterr(MemoryError, "out of memory");
    tl_iter bt;                       /* batch entries of (out, a, b) */
    const tl_tensor *ops[3] = { out, ca, cb };
    int core[3] = { bcore, 2, bcore };
    if (rc == 0 && tl_iter_batch_init(&bt, 3, ops, core, bnd, bshape) < 0) rc = -1;
    for (int64_t i = 0; rc == 0 && i < bt.size && n > 0; i++) {
        char *p[3];
        tl_iter_at(&bt, i, p);
        char *x = p[0];
        memcpy(x, p[2], bsz);
        lp_int N = (lp_int)n, R = (lp_int)nrhs, info;
        info = lp_gesv(dt, N, R, p[1], ipiv, x);
        if (info > 0) { tl_seterr(ValueError, "singular matrix"); rc = -1; }
        else if (info < 0) { tl_seterr(ValueError, "solve: LAPACK error %d", (int)info); rc = -1; }
    }
    free(ipiv);
    if (ca) tl_tensor_release(ca);
    if (cb) tl_tensor_release(cb);
    if (rc < 0 && out) {
        tl_tensor_release(out);
        out = NULL;
    }
    return out;
}

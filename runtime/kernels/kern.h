/* kernels/kern.h — internal interfaces shared by the kernel files (not public API) */
#ifndef TL_KERN_H
#define TL_KERN_H

/* Private to the runtime: the kernels in this folder and the compute files beside it (linalg.c,
   nn.c, sort.c, random.c). runtime/meson.build defines TL_RUNTIME_INTERNAL for them alone;
   everything else reaches the kernels through ops.h. */
#ifndef TL_RUNTIME_INTERNAL
#error "kernels/kern.h is private to tl's runtime library: include ops.h instead"
#endif

#include "../iter.h"
#include "../ops.h"

/* Below this many elements work runs on the calling thread only. */
#define TL_PAR_GRAIN 32768

/* ---- threads.c --------------------------------------------------------- */
/* One task of a parallel loop; returns 0, or -1 with the error set. */
typedef int (*tl_task_fn)(void *ctx, int64_t task);
/* Runs fn(ctx, 0..ntasks-1) on the pool (the caller takes part). Tasks must
   not depend on which thread runs them. Nested calls run serially. */
int tl_parallel_for(int64_t ntasks, tl_task_fn fn, void *ctx);
/* Threads a parallel loop over `work` elements would use (1 when small). */
int tl_threads_for(int64_t work);
/* tl_iter_run, split along outer axes over the pool when the plan is big. */
int tl_kern_run(const tl_iter *it, tl_inner_fn fn, void *aux);
/* The same when each element of the plan costs `cost` units of work
   (a reduction whose every output reads a run of `cost` inputs). */
int tl_kern_run_cost(const tl_iter *it, tl_inner_fn fn, void *aux, int64_t cost);

/* ---- transpose.c --------------------------------------------------------- */
/* Runs a copy (dst operand 0, src operand 1) tile by tile when its plan is a
   2-d transpose of a large enough tensor, setting *rc; false otherwise. */
bool tl_try_blocked_transpose(const tl_iter *it, tl_dtype dd, tl_dtype sd, int *rc);

/* From this many elements eager f16/bf16 operators widen whole operands to f32
   and run the f32 loops (elementwise.c; fused programs follow the same rule). */
#define TL_HALF_VIA_F32_MIN 4096

/* ---- elementwise inner loops (binary_loops.c, unary_loops.c) ----------- */
/* Inner loop for out = a OP b, all operands already in cdt (output in the
   op's result dtype); NULL when the op has no loop for cdt. */
tl_inner_fn tl_binary_loop(tl_binop op, tl_dtype cdt);
tl_inner_fn tl_unary_loop(tl_unop op, tl_dtype cdt);
/* Dtype a binary op computes in when the caller asks for dt (int / gives f64). */
tl_dtype tl_binop_compute_dtype(tl_binop op, tl_dtype dt);
/* The smallest float that holds every value of d exactly, as numpy picks
   for sqrt(int8) -> f16; d itself for floats and complex. */
tl_dtype tl_float_for(tl_dtype d);
const char *tl_unop_name(tl_unop op);

/* ---- simd_x86.c: SLEEF loops for contiguous f32/f64 runs ---------------- */
/* An AVX-512 loop for op in cdt when the CPU has one, else an AVX2 one (it falls
   back to the portable loop on strided runs); NULL otherwise. */
tl_inner_fn tl_simd_unary_loop(tl_unop op, tl_dtype cdt);
/* simd_avx2.c: the AVX2 loops alone (AVX2, FMA and F16C, SIMD on; SLEEF loaded for the unary
   ones), or NULL; and the AVX2 forms of tl_simd_minmax, tl_simd_softmax_row_f32 and tl_vexp_sub_* below (false:
   not run), which those call where the CPU lacks AVX-512. */
tl_inner_fn tl_simd_unary_loop_avx2(tl_unop op, tl_dtype cdt);
tl_inner_fn tl_simd_binary_loop_avx2(tl_binop op, tl_dtype cdt);
bool tl_simd_minmax_avx2(tl_dtype dt, bool want_max, const void *v, int64_t n, void *out);
bool tl_simd_softmax_row_f32_avx2(const float *x, float *y, int64_t D, bool want_log);
bool tl_vexp_sub_avx2(tl_dtype dt, void *y, const void *x, double m, int64_t n);
/* The same for binary + - * / (contiguous or scalar-broadcast runs). */
tl_inner_fn tl_simd_binary_loop(tl_binop op, tl_dtype cdt);
/* The aux argument SIMD loops accept: stream = write around the caches
   (set for outputs much larger than the last-level cache). */
typedef struct tl_simd_hint { bool stream; } tl_simd_hint;
#define TL_STREAM_BYTES ((int64_t)16 << 20)
bool tl_cpu_has_avx512(void);
/* False when TL_SIMD=0 is set in the environment. */
bool tl_simd_enabled(void);
/* AVX2, FMA and F16C present, and TL_SIMD not 0 (compiled with target attributes: any compiler). */
bool tl_simd_avx2(void);
/* min (or max) of n contiguous f32/f64 into *out, NaN if any; false when
   there is no SIMD version (the caller loops). */
bool tl_simd_minmax(tl_dtype dt, bool want_max, const void *v, int64_t n, void *out);
/* softmax (or log_softmax) of one contiguous f32 row; false without SIMD. */
bool tl_simd_softmax_row_f32(const float *x, float *y, int64_t D, bool want_log);
/* y[i] = exp(x[i] - m) over contiguous arrays (softmax's inner step). */
void tl_vexp_sub_f32(float *y, const float *x, float m, int64_t n);
void tl_vexp_sub_f64(double *y, const double *x, double m, int64_t n);

/* ---- matvec.c: products that read a weight matrix row by row ------------- */
/* a @ b when one operand is a 2-d f32/bf16 matrix whose rows run along the shared axis
   and the other has at most MATVEC_MAX_ROWS rows (any number when the matrix is a
   quantized GGUF tensor, whose blocks are read directly): 1 with *out set; 0 when the
   product does not take this path; -1 with the error set. *out is written into `into` when
   it fits (tl_tensor_result; NULL: a new tensor). */
int tl_matmul_rows(const tl_tensor *a, const tl_tensor *b, tl_tensor *into, tl_tensor **out);

/* ---- qdot.c: quantized weight rows dotted with x rounded to 8-bit blocks ------------- */
/* m f32 rows of k (a multiple of bl, 32 or 256) rounded once per product to 8-bit blocks of bl:
   d = max|x| / 127 per block, q = x / d rounded to nearest even (ggml's Q8_0 and Q8_K roundings
   of x, with d kept in f32; a block holding a NaN or infinity gets d = NaN). With the blocks, the
   sums the dots read: for 32-blocks minus the sum of each four q bytes (nsum4) and d times that
   sum (dsum4); for 256-blocks the sums of each sixteen (sum16) and of each 32 (sum32). */
typedef struct tl_qact {
    int8_t *q;          /* m rows of k */
    float *d;           /* m rows of nb */
    int32_t *nsum4;     /* 32-blocks: m rows of k / 4 */
    float *dsum4;       /* 32-blocks: m rows of k / 4 */
    int16_t *sum16;     /* 256-blocks: m rows of k / 16 */
    int16_t *sum32;     /* 256-blocks: m rows of k / 32 */
    int64_t k, nb, bl;
} tl_qact;
/* Fills a (one allocation; tl_qact_free releases it): 0, or -1 with the error set. */
int tl_qact_make(const float *x, int64_t m, int64_t k, int64_t bl, tl_qact *a);
void tl_qact_free(tl_qact *a);
/* Weight rows of at least this many bytes are best read one at a time from memory, in long
   runs (one per task): four rows side by side are four runs, and the hardware's prefetching
   fell behind them, with or without asking for the rows ahead. One thread, 4096 x 4096
   Q8_0 from memory: one row at a time 1.39x faster (four rows sharing x's loads: 0.89x
   without software prefetching, 1.0 with it), 2048-column rows 1.25x, 1024 1.18x; in the
   cache, 1024 x 4096 1.14x, 2048 x 1024 0.99x, and short rows (288 columns) 0.86-0.90x,
   so they keep the groups. Each type chooses as it measured (qdot32.c, q8dot.c, qdotk.c);
   in tl, 4096 and 11008 x 4096 from memory, 1 and 2 threads, the old way and this one
   alternating within one process: Q8_0 1.35-1.64x faster, Q4_K, Q5_K, Q6_K 1.3-1.7x,
   Q4_0 ... Q5_1 1.0-1.33x (Q4_1 on two threads 0.91-1.1x). */
#define TL_QDOT_LONG_ROW_BYTES 2048
/* Can weights of this ggml type be dotted so? *bl: the block length x must be rounded to. */
bool tl_qdot_supports(int ggml_type, int64_t *bl);
/* out[j * os] = the dot of weight row j (rows of row_bytes from w, whole blocks of the type)
   with row i of x; every CPU path gives the same bits. */
void tl_qdot_rows(int ggml_type, const uint8_t *w, size_t row_bytes, int64_t rows, const tl_qact *x, int64_t i,
                  float *out, int64_t os);
/* The dots' CPU paths, each faster than the one before: portable C (TL_SIMD=0), AVX2 (also
   TL_SIMD=avx2), AVX-512 VNNI on 256-bit vectors (Q8_0's; AVX2 for the other types), and
   AVX-512 with VNNI, BW and VBMI on 512-bit vectors. */
enum { TL_QDOT_PORTABLE, TL_QDOT_AVX2, TL_QDOT_VNNI256, TL_QDOT_AVX512 };
/* The best of them this CPU has (and TL_SIMD allows). */
int tl_qdot_best_path(void);
/* tl_qdot_rows on the given path (the best one if the CPU lacks it): for tests of the paths. */
void tl_qdot_rows_on(int path, int ggml_type, const uint8_t *w, size_t row_bytes, int64_t rows, const tl_qact *x,
                     int64_t i, float *out, int64_t os);

/* ---- small_gemm.c ---------------------------------------------------------- */
/* Products with fewer multiply-adds than this per batch entry skip BLAS (whose packing
   costs more than they do) when tl_small_sgemm can run: an attention's per-head products. */
#define TL_SMALL_GEMM_MADDS ((int64_t)1 << 15)
/* Can tl_small_sgemm run here (AVX2 and FMA, or AVX-512)? */
bool tl_small_sgemm_ok(void);
/* One batch entry of a small product: its a, b and c. */
typedef struct tl_sgemm_entry { const float *a, *b; float *c; } tl_sgemm_entry;
/* For each of the `count` entries, c (n x m, contiguous) = a @ b in f32, a's element (i, p)
   at a[i * ars + p * acs], b's (p, j) at b[p * brs + j] (rows of b contiguous): each c
   element one chain of fused multiply-adds over p in order, as BLAS's gemm kernels sum, so
   the bits do not depend on which entries or rows are computed side by side. */
void tl_small_sgemm(int64_t count, const tl_sgemm_entry *e, int64_t n, int64_t m, int64_t k, int64_t ars, int64_t acs,
                    int64_t brs);

/* ---- reduce helpers used by nn.c and linalg.c -------------------------- */
/* numpy's pairwise sum of n floats at byte stride `stride` (8-way unrolled,
   128-element leaves); blocked in 8192s like numpy's buffered reductions. */
float tl_sum_f32(const char *p, int64_t n, int64_t stride);
double tl_sum_f64(const char *p, int64_t n, int64_t stride);

#endif

/* kernels/fused.c — several elementwise operators in one pass over memory (a*b + c*d - e) */
#include <stdlib.h>
#include <string.h>

#include "kern.h"

/* numpy evaluates a*b + c*d - e one operator at a time: each step reads two
   whole arrays and writes a third, so five inputs cost four passes over
   memory. Here the expression runs chunk by chunk: every intermediate lives in
   a scratch buffer that stays in cache, and memory sees each input once and
   the output once. Each step calls the same inner loop the unfused operator would,
   on the same dtype, so the bits are the same. */

/* Elements per step. Short runs keep buffers in L1 but starve the hardware
   prefetchers, which ramp up afresh on every run of each input; 16384 (64 KiB
   of f32 per buffer, living in L2) measured 2x faster than 1024. */
#define FUSED_CHUNK 16384
#define FUSED_TASK (4 * FUSED_CHUNK)   /* elements per task on the pool (a fixed split) */

typedef struct fused_job {
    tl_dtype dt;
    int64_t n, item;
    int nops, nsteps;
    const tl_fused_operand *ops;
    const tl_fused_step *steps;
    tl_inner_fn fn[TL_FUSED_MAX_STEPS];
    int buf[TL_FUSED_MAX_STEPS];   /* scratch buffer of each step's result (-1: the output) */
    int nbufs;
    char *in[TL_FUSED_MAX_REGS];   /* tensor operands' data; NULL for scalars */
    unsigned char scalar[TL_FUSED_MAX_REGS][16];   /* scalar operands converted to dt */
    char *out;
    bool stream;
} fused_job;

/* One task: elements [task * FUSED_TASK, ...) of the output, chunk by chunk. */
static int fused_task(void *ctx, int64_t task)
{
    const fused_job *j = ctx;
    char *scratch = j->nbufs ? aligned_alloc(64, (size_t)(j->nbufs * FUSED_CHUNK * j->item)) : NULL;
    if (j->nbufs && !scratch) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    int64_t lo = task * FUSED_TASK, hi = lo + FUSED_TASK < j->n ? lo + FUSED_TASK : j->n;
    tl_simd_hint cached = { false }, out_hint = { j->stream };
    for (int64_t off = lo; off < hi; off += FUSED_CHUNK) {
        int64_t len = hi - off < FUSED_CHUNK ? hi - off : FUSED_CHUNK;
        for (int s = 0; s < j->nsteps; s++) {
            const tl_fused_step *st = &j->steps[s];
            char *p[3];
            int64_t bs[3] = { j->item, j->item, j->item };
            p[0] = j->buf[s] < 0 ? j->out + off * j->item : scratch + j->buf[s] * FUSED_CHUNK * j->item;
            int regs[2] = { st->a, st->b };
            for (int k = 0; k < 2; k++) {
                int r = regs[k];
                if (r >= j->nops) p[k + 1] = scratch + j->buf[r - j->nops] * FUSED_CHUNK * j->item;
                else if (j->in[r]) p[k + 1] = j->in[r] + off * j->item;
                else {
                    p[k + 1] = (char *)j->scalar[r];
                    bs[k + 1] = 0;
                }
            }
            j->fn[s](len, p, bs, j->buf[s] < 0 ? &out_hint : &cached);
        }
    }
    free(scratch);
    return tl_check_interrupt();
}

/* Gives each step but the last a scratch buffer, reusing a buffer once the
   value in it has had its last use (a step may write over its own operand:
   the loops read each element before writing it). */
static void assign_buffers(fused_job *j)
{
    int last_use[TL_FUSED_MAX_STEPS], holder[TL_FUSED_MAX_STEPS];   /* holder[b]: step in buffer b, or -1 */
    for (int s = 0; s < j->nsteps; s++) last_use[s] = -1;
    for (int s = 0; s < j->nsteps; s++) {
        if (j->steps[s].a >= j->nops) last_use[j->steps[s].a - j->nops] = s;
        if (j->steps[s].b >= j->nops) last_use[j->steps[s].b - j->nops] = s;
    }
    j->nbufs = 0;
    for (int s = 0; s < j->nsteps; s++) {
        for (int b = 0; b < j->nbufs; b++)
            if (holder[b] >= 0 && last_use[holder[b]] <= s) holder[b] = -1;   /* dead after this step's reads */
        if (s == j->nsteps - 1) {
            j->buf[s] = -1;
            break;
        }
        int b = 0;
        while (b < j->nbufs && holder[b] >= 0) b++;
        if (b == j->nbufs) j->nbufs++;
        holder[b] = s;
        j->buf[s] = b;
    }
}

/* Checks the program: operators, register order, operands' dtype, shape and layout. */
static int check_program(tl_dtype dt, int nops, const tl_fused_operand *ops, int nsteps,
                         const tl_fused_step *steps, const tl_tensor **shape_of)
{
    *shape_of = NULL;
    if ((dt != TL_F32 && dt != TL_F64) || nops < 1 || nsteps < 1 || nsteps > TL_FUSED_MAX_STEPS ||
        nops + nsteps > TL_FUSED_MAX_REGS)
        goto invalid;
    for (int i = 0; i < nops; i++) {
        const tl_tensor *t = ops[i].t;
        if (!t) {
            if ((unsigned)ops[i].dtype >= TL_NDTYPES) goto invalid;
            continue;
        }
        if (t->dtype != dt || !tl_is_contiguous(t)) goto invalid;
        if (!*shape_of) *shape_of = t;
        else if (t->ndim != (*shape_of)->ndim ||
                 memcmp(t->shape, (*shape_of)->shape, sizeof t->shape[0] * (size_t)t->ndim) != 0)
            goto invalid;
    }
    if (!*shape_of) goto invalid;
    for (int s = 0; s < nsteps; s++) {
        tl_binop op = steps[s].op;
        if ((op != TL_ADD && op != TL_SUB && op != TL_MUL && op != TL_DIV) || steps[s].a >= nops + s ||
            steps[s].b >= nops + s)
            goto invalid;
    }
    return 0;
invalid:
    tl_seterr(ValueError, "invalid fused elementwise program");
    return -1;
}

tl_tensor *tl_fused_binary(tl_dtype dt, int nops, const tl_fused_operand *ops, int nsteps, const tl_fused_step *steps)
{
    const tl_tensor *like;
    if (check_program(dt, nops, ops, nsteps, steps, &like) < 0) return NULL;
    fused_job j = { .dt = dt, .n = tl_tensor_size(like), .item = (int64_t)tl_dtype_size(dt), .nops = nops,
                    .nsteps = nsteps, .ops = ops, .steps = steps };
    for (int s = 0; s < nsteps; s++) {
        j.fn[s] = tl_simd_binary_loop(steps[s].op, dt);
        if (!j.fn[s]) j.fn[s] = tl_binary_loop(steps[s].op, dt);
    }
    assign_buffers(&j);
    for (int i = 0; i < nops; i++) {
        if (ops[i].t) j.in[i] = tl_tensor_data(ops[i].t);
        else tl_convert_run(1, ops[i].bytes, ops[i].dtype, 0, j.scalar[i], dt, 0);   /* as the unfused cast would */
    }
    tl_tensor *out = tl_tensor_empty(dt, like->ndim, like->shape);
    if (!out) return NULL;
    j.out = tl_tensor_data(out);
    j.stream = j.n * j.item >= TL_STREAM_BYTES;
    if (tl_parallel_for((j.n + FUSED_TASK - 1) / FUSED_TASK, fused_task, &j) < 0) {
        tl_tensor_release(out);
        return NULL;
    }
    return out;
}

/* kernels/qdotk.c — K-quant weight rows (Q2_K … Q8_K) dotted with x rounded to Q8_K blocks: the rule and the portable path */
#include <math.h>

#include "../cast.h"
#include "qdotk.h"

/* The rule every path follows, bit for bit. A superblock of 256 weights holds unsigned
   values u (Q8_K: signed bytes), an integer scale per group of 16 or 32 weights, an f16 (Q8_K:
   f32) d, and for Q2_K, Q4_K and Q5_K a minimum per group and an f16 dmin; a weight is
   d sc u - dmin mn (Q2_K, Q4_K, Q5_K), d sc (u - offset) (Q3_K: offset 4, Q6_K: 32) or d u
   (Q8_K). Against x's block (bytes q, scale dx, sums of each 16 and 32 bytes):
   - eight lanes I[l], l = (e % 32) / 4 of weight e: the sum over the weights e of lane l of
     sc(e) u(e) q(e), exact integers (vpdpwssd or madd over maddubs's pairs: a lane is four
     weights of one group); less, with an offset, offset (sc[2l] s16[2l] + sc[2l + 1] s16[2l + 1])
     over the sixteen groups' scales and x's sums of each 16 (what pmaddwd gives);
   - with a minimum, four lanes M[i]: Q4_K/Q5_K mn[2i] s32[2i] + mn[2i + 1] s32[2i + 1] over the
     eight groups of 32, Q2_K the same over its sixteen groups of 16 with lanes i and i + 4 added;
   - acc[l] += I[l] * (d * dx) and accm[i] += M[i] * (dmin * dx), each one fused multiply-add;
   - the row's dot: acc's eight lanes summed as hsum256 sums them, less accm's four summed as
     hsum128 does. ggml sums the same integers; it keeps the minimum's sum in one float. */

/* ---- unpacking a superblock -------------------------------------------------------------- */

/* A superblock unpacked: u of each weight, the scale and minimum of each group of 16 (a
   group of 32's twice), d and dmin, and the offset subtracted from u. */
typedef struct sb_c { int u[256], sc[16], mn[16]; float d, dmin; int offset; } sb_c;

/* Superblock blk of type t unpacked into s. */
static void unpack_c(int t, const uint8_t *blk, sb_c *s)
{
    memset(s, 0, sizeof *s);
    uint32_t sw[4];
    uint8_t sb[16];
    switch (t) {
    case QK_Q2:
        for (int e = 0; e < 256; e++) s->u[e] = (blk[16 + 32 * (e / 128) + e % 32] >> (2 * (e % 128 / 32))) & 3;
        for (int g = 0; g < 16; g++) s->sc[g] = blk[g] & 15, s->mn[g] = blk[g] >> 4;
        s->d = cast_f16_to_f32(qdot_f16_bits(blk + 80)), s->dmin = cast_f16_to_f32(qdot_f16_bits(blk + 82));
        break;
    case QK_Q3:
        for (int e = 0; e < 256; e++)
            s->u[e] = ((blk[32 + 32 * (e / 128) + e % 32] >> (2 * (e % 128 / 32))) & 3) | ((blk[e % 32] >> (e / 32)) & 1) << 2;
        qk_scales_q3(blk + 96, sw);
        memcpy(sb, sw, 16);
        for (int g = 0; g < 16; g++) s->sc[g] = sb[g] - 32;
        s->d = cast_f16_to_f32(qdot_f16_bits(blk + 108));
        s->offset = 4;
        break;
    case QK_Q4:
    case QK_Q5:
        for (int e = 0; e < 256; e++) {
            int q = blk[(t == QK_Q5 ? 48 : 16) + 32 * (e / 64) + e % 32];
            s->u[e] = (e & 32 ? q >> 4 : q & 15) | (t == QK_Q5 ? ((blk[16 + e % 32] >> (e / 32)) & 1) << 4 : 0);
        }
        qk_scales_k4(blk + 4, sw);
        memcpy(sb, sw, 16);
        for (int g = 0; g < 16; g++) s->sc[g] = sb[g / 2], s->mn[g] = sb[8 + g / 2];
        s->d = cast_f16_to_f32(qdot_f16_bits(blk)), s->dmin = cast_f16_to_f32(qdot_f16_bits(blk + 2));
        break;
    case QK_Q6:
        for (int e = 0; e < 256; e++) {
            int h = e / 128, q = e % 128 / 32, l = e % 32;
            int lo = blk[64 * h + 32 * (q & 1) + l], hi = blk[128 + 32 * h + l];
            s->u[e] = (q & 2 ? lo >> 4 : lo & 15) | ((hi >> (2 * q)) & 3) << 4;
        }
        for (int g = 0; g < 16; g++) s->sc[g] = (int8_t)blk[192 + g];
        s->d = cast_f16_to_f32(qdot_f16_bits(blk + 208));
        s->offset = 32;
        break;
    default:   /* QK_Q8 */
        for (int e = 0; e < 256; e++) s->u[e] = (int8_t)blk[4 + e];
        for (int g = 0; g < 16; g++) s->sc[g] = 1;
        memcpy(&s->d, blk, 4);
        break;
    }
}

/* One row (nb superblocks of type t from w) dotted with row i of x. */
static float dot_c(int t, const uint8_t *w, const tl_qact *x, int64_t i)
{
    int64_t nb = x->nb;
    const int8_t *xq = x->q + i * nb * 256;
    const int16_t *s16 = x->sum16 + i * nb * 16, *s32 = x->sum32 + i * nb * 8;
    float acc[8] = { 0 }, accm[4] = { 0 };
    sb_c s;
    for (int64_t b = 0; b < nb; b++, w += qk_bytes(t), xq += 256, s16 += 16, s32 += 8) {
        unpack_c(t, w, &s);
        int32_t I[8] = { 0 }, M[4];
        for (int e = 0; e < 256; e++) I[e % 32 / 4] += s.sc[e / 16] * s.u[e] * xq[e];
        for (int l = 0; l < 8; l++)
            I[l] -= s.offset * (s.sc[2 * l] * s16[2 * l] + s.sc[2 * l + 1] * s16[2 * l + 1]);
        float dd = s.d * x->d[i * nb + b], dm = s.dmin * x->d[i * nb + b];
        for (int l = 0; l < 8; l++) acc[l] = fmaf((float)I[l], dd, acc[l]);
        if (!qk_has_min(t)) continue;
        for (int j = 0; j < 4; j++) {
            if (t == QK_Q2)
                M[j] = s.mn[2 * j] * s16[2 * j] + s.mn[2 * j + 1] * s16[2 * j + 1] + s.mn[2 * j + 8] * s16[2 * j + 8] +
                       s.mn[2 * j + 9] * s16[2 * j + 9];
            else M[j] = s.mn[4 * j] * s32[2 * j] + s.mn[4 * j + 2] * s32[2 * j + 1];
            accm[j] = fmaf((float)M[j], dm, accm[j]);
        }
    }
    return qk_has_min(t) ? qdot_sum8(acc) - qdot_sum4(accm) : qdot_sum8(acc);
}

/* ---- the row groups of each type and path ------------------------------------------------ */

/* How many long rows (TL_QDOT_LONG_ROW_BYTES) each type reads at a time with no rows asked
   ahead (qdot_row_loop's long_n: one at a time, or a row from each of long_n runs; their
   dots ask for the bytes PREFETCH_AHEAD_AVX2 or _512 ahead as they go, see qdot.h), on each path; 0: one
   at a time with the rows PREFETCH_ROWS ahead asked into the cache.
   - AVX2 and portable (qk_long_alone): one thread, 4096 x 4096 from memory, three runs each
     way: Q4_K 0.43-0.47 ms one at a time vs 0.54-0.66 in prefetched groups, Q5_K 0.53-0.56
     vs 0.59-0.86, Q6_K 0.58-0.59 vs 0.66-0.84 (11008 x 4096 likewise; two threads about the
     same). Q2_K and Q3_K, whose dots do more per byte, need the prefetching: without it Q3_K
     took 0.60 ms against 0.44, Q2_K 0.39 against 0.33 (one run, best of 30).
   - AVX-512 (qk_long_group_512; a Sapphire Rapids-class Xeon, the files' pages huge): the
     rows go several at a time, sharing x's loads and shuffles, each asking ahead for its own
     bytes. Adjacent rows first: one thread, three runs alternating, 4096 x 4096 Q4_K
     0.83-0.89 ms alone, 0.72-0.77 two at a time, 0.71-0.73 four; Q5_K 1.07-1.10, 0.96-1.01,
     0.96-1.01; Q6_K 1.10-1.14, 0.99-1.04, 0.97-1.06 (11008 x 4096: Q4_K 2.29-2.36, 2.00-2.07,
     1.94-2.02 ms; Q5_K 3.06-3.18, 2.78-2.88, 2.88-3.01; Q6_K 2.93-3.01, 2.66-2.80, 2.82-2.86;
     two threads alike). Then a row from each of four runs, against adjacent groups (Q4_K
     four, Q5_K and Q6_K two) in one bench_matvec.py run, best of 9, three alternations, 1
     and 2 threads, 4096 and 11008 x 4096: Q4_K 1.01-1.24x faster, Q5_K 1.14-1.28x, Q6_K
     1.03-1.15x, most on two threads, where the two cores' eight streams read 28-30 GB/s.
     Against the rows ahead asked for (best of 15, three alternations): Q8_K 1.25-1.43x
     faster (two threads, 11008 x 4096: 1.65-1.71 ms against 2.36-2.40), Q3_K 0.97-1.07x;
     Q2_K 0.94-1.02x, so it keeps them. */
static const int qk_long_group_512[6] = { [QK_Q3] = 4, [QK_Q4] = 4, [QK_Q5] = 4, [QK_Q6] = 4, [QK_Q8] = 4 };
static const int qk_long_alone[6] = { [QK_Q4] = 1, [QK_Q5] = 1, [QK_Q6] = 1 };

/* NAME_c: one row of type T on the portable path; NAME_groups: each path's row groups.
   Short rows go four at a time on AVX-512, sharing x's loads and shuffles: alone, in the
   cache, one thread, 288 x 768 Q4_K took 5.4 us one row at a time and 4.4 so, 768 x 256
   6.7 and 4.9 (Q6_K 4.9 and 4.3, 6.1 and 4.5). Long rows go as the tables above say. */
#define QK_KERNELS(NAME, T)                                                                                   \
    static void NAME##_c(const uint8_t *w, size_t rb, const tl_qact *x, int64_t i, float *o, int64_t os)      \
    {                                                                                                         \
        (void)rb, (void)os;                                                                                   \
        o[0] = dot_c(T, w, x, i);                                                                             \
    }                                                                                                         \
    QDOT_ROWS_FN(tl_qdot_##NAME)                                                                              \
    {                                                                                                         \
        const qdot_group_fn c[5] = { NULL, NAME##_c };                                                        \
        const qdot_group_fn *g = path == TL_QDOT_PORTABLE ? c : path == TL_QDOT_AVX512 ? qk_groups_512[T] : qk_groups_avx2[T]; \
        int long_n = path == TL_QDOT_AVX512 ? qk_long_group_512[T] : qk_long_alone[T];                      \
        qdot_row_loop(g, long_n, w, row_bytes, rows, x, i, out, os);                                          \
    }
QK_KERNELS(q2_k, QK_Q2)
QK_KERNELS(q3_k, QK_Q3)
QK_KERNELS(q4_k, QK_Q4)
QK_KERNELS(q5_k, QK_Q5)
QK_KERNELS(q6_k, QK_Q6)
QK_KERNELS(q8_k, QK_Q8)

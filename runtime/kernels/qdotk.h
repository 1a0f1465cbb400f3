/* kernels/qdotk.h — what the K-quant dot files share: the types, their blocks, the scales' unpacking */
#ifndef TL_QDOTK_H
#define TL_QDOTK_H

#include "qdot.h"

enum { QK_Q2, QK_Q3, QK_Q4, QK_Q5, QK_Q6, QK_Q8 };

/* Bytes per superblock of 256 weights. */
static inline int qk_bytes(int t)
{
    static const int bytes[] = { 84, 110, 144, 176, 210, 292 };
    return bytes[t];
}

/* Has the type a minimum per group (and a dmin)? */
static inline bool qk_has_min(int t) { return t == QK_Q2 || t == QK_Q4 || t == QK_Q5; }

/* Q4_K/Q5_K's twelve scale bytes as 8 scales and 8 minimums of 6 bits, four bytes per word:
   w[0..1] the scales, w[2..3] the minimums. */
static inline void qk_scales_k4(const uint8_t *s, uint32_t w[4])
{
    uint32_t a0 = qdot_u32(s), a1 = qdot_u32(s + 4), a2 = qdot_u32(s + 8);
    w[0] = a0 & 0x3f3f3f3f, w[1] = (a2 & 0x0f0f0f0f) | ((a0 >> 6) & 0x03030303) << 4;
    w[2] = a1 & 0x3f3f3f3f, w[3] = ((a2 >> 4) & 0x0f0f0f0f) | ((a1 >> 6) & 0x03030303) << 4;
}

/* Q3_K's twelve scale bytes as 16 scales of 6 bits, four per word, each still 32 above its
   signed value. */
static inline void qk_scales_q3(const uint8_t *s, uint32_t w[4])
{
    uint32_t a0 = qdot_u32(s), a1 = qdot_u32(s + 4), a2 = qdot_u32(s + 8);
    w[0] = (a0 & 0x0f0f0f0f) | (a2 & 0x03030303) << 4, w[1] = (a1 & 0x0f0f0f0f) | ((a2 >> 2) & 0x03030303) << 4;
    w[2] = ((a0 >> 4) & 0x0f0f0f0f) | ((a2 >> 4) & 0x03030303) << 4;
    w[3] = ((a1 >> 4) & 0x0f0f0f0f) | ((a2 >> 6) & 0x03030303) << 4;
}

/* The row groups of each type on the AVX2 and AVX-512 paths (qdotk_x86.c). */
extern const qdot_group_fn qk_groups_avx2[6][5], qk_groups_512[6][5];

#endif

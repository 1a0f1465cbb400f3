/* io/quant.c — ggml block dequantization (Q4_0 … Q8_K) to f32, with ggml's arithmetic order for bit-exact results */
#include <string.h>

#include "../cast.h"
#include "internal.h"

/* These fill chunks of lazy storage on whichever thread first reads them:
   pure arithmetic, no allocation, no locks, no failure. */

/* The little-endian IEEE binary16 at p as f32, exactly. */
static inline float h2f(const uint8_t *p) { return cast_f16_to_f32(io_le16(p)); }

void io_dequant_q4_0(const uint8_t *b, float *y)
{
    const float d = h2f(b);
    for (int j = 0; j < 16; j++) {
        y[j] = (float)((b[2 + j] & 0x0F) - 8) * d;
        y[j + 16] = (float)((b[2 + j] >> 4) - 8) * d;
    }
}

void io_dequant_q4_1(const uint8_t *b, float *y)
{
    const float d = h2f(b), m = h2f(b + 2);
    for (int j = 0; j < 16; j++) {
        y[j] = (float)(b[4 + j] & 0x0F) * d + m;
        y[j + 16] = (float)(b[4 + j] >> 4) * d + m;
    }
}

/* Q5_0/Q5_1: the fifth bit of element j is bit j of qh (elements 16..31: bits 16..31). */
void io_dequant_q5_0(const uint8_t *b, float *y)
{
    const float d = h2f(b);
    const uint32_t qh = io_le32(b + 2);
    const uint8_t *qs = b + 6;
    for (int j = 0; j < 16; j++) {
        int x0 = ((qs[j] & 0x0F) | (int)((qh >> j) << 4 & 0x10)) - 16;
        int x1 = ((qs[j] >> 4) | (int)((qh >> (j + 12)) & 0x10)) - 16;
        y[j] = (float)x0 * d;
        y[j + 16] = (float)x1 * d;
    }
}

void io_dequant_q5_1(const uint8_t *b, float *y)
{
    const float d = h2f(b), m = h2f(b + 2);
    const uint32_t qh = io_le32(b + 4);
    const uint8_t *qs = b + 8;
    for (int j = 0; j < 16; j++) {
        int x0 = (qs[j] & 0x0F) | (int)((qh >> j) << 4 & 0x10);
        int x1 = (qs[j] >> 4) | (int)((qh >> (j + 12)) & 0x10);
        y[j] = (float)x0 * d + m;
        y[j + 16] = (float)x1 * d + m;
    }
}

void io_dequant_q8_0(const uint8_t *b, float *y)
{
    const float d = h2f(b);
    for (int j = 0; j < 32; j++) y[j] = (float)(int8_t)b[2 + j] * d;
}

/* Q2_K {scales[16], qs[64], d, dmin}: 16 groups of 16, scale/min nibbles per group. */
void io_dequant_q2_k(const uint8_t *b, float *y)
{
    const uint8_t *sc = b, *q = b + 16;
    const float d = h2f(b + 80), mn = h2f(b + 82);
    int is = 0;
    for (int half = 0; half < 2; half++, q += 32)
        for (int shift = 0; shift < 8; shift += 2)
            for (int g = 0; g < 2; g++) {
                uint8_t s = sc[is++];
                const float dl = d * (float)(s & 0xF), ml = mn * (float)(s >> 4);
                for (int l = 0; l < 16; l++) *y++ = dl * (float)((q[l + 16 * g] >> shift) & 3) - ml;
            }
}

/* Q3_K {hmask[32], qs[64], scales[12], d}: 16 signed 6-bit scales packed as 4+2 bits. */
void io_dequant_q3_k(const uint8_t *b, float *y)
{
    const uint8_t *hm = b, *q = b + 32, *s = b + 96;
    const float d = h2f(b + 108);
    int8_t scales[16];
    for (int i = 0; i < 16; i++) {
        int lo = i < 8 ? s[i] & 0xF : s[i - 8] >> 4;
        int hi = (s[8 + i % 4] >> (2 * (i / 4))) & 3;
        scales[i] = (int8_t)((lo | hi << 4) - 32);
    }
    int is = 0;
    uint8_t m = 1;
    for (int half = 0; half < 2; half++, q += 32)
        for (int shift = 0; shift < 8; shift += 2, m <<= 1)
            for (int g = 0; g < 2; g++) {
                const float dl = d * (float)scales[is++];
                for (int l = 0; l < 16; l++) {
                    int v = ((q[l + 16 * g] >> shift) & 3) - ((hm[l + 16 * g] & m) ? 0 : 4);
                    *y++ = dl * (float)v;
                }
            }
}

/* The 6-bit scale and min of sub-block j in the 12-byte K-quant scale block. */
static inline void scale_min_k4(int j, const uint8_t *q, uint8_t *d, uint8_t *m)
{
    if (j < 4) {
        *d = q[j] & 63;
        *m = q[j + 4] & 63;
    } else {
        *d = (uint8_t)((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        *m = (uint8_t)((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

void io_dequant_q4_k(const uint8_t *b, float *y)
{
    const float d = h2f(b), mn = h2f(b + 2);
    const uint8_t *sc = b + 4, *q = b + 16;
    for (int c = 0; c < 4; c++, q += 32) {
        uint8_t s, m;
        scale_min_k4(2 * c, sc, &s, &m);
        const float d1 = d * (float)s, m1 = mn * (float)m;
        scale_min_k4(2 * c + 1, sc, &s, &m);
        const float d2 = d * (float)s, m2 = mn * (float)m;
        for (int l = 0; l < 32; l++) *y++ = d1 * (float)(q[l] & 0xF) - m1;
        for (int l = 0; l < 32; l++) *y++ = d2 * (float)(q[l] >> 4) - m2;
    }
}

void io_dequant_q5_k(const uint8_t *b, float *y)
{
    const float d = h2f(b), mn = h2f(b + 2);
    const uint8_t *sc = b + 4, *qh = b + 16, *ql = b + 48;
    uint8_t u1 = 1, u2 = 2;
    for (int c = 0; c < 4; c++, ql += 32, u1 <<= 2, u2 <<= 2) {
        uint8_t s, m;
        scale_min_k4(2 * c, sc, &s, &m);
        const float d1 = d * (float)s, m1 = mn * (float)m;
        scale_min_k4(2 * c + 1, sc, &s, &m);
        const float d2 = d * (float)s, m2 = mn * (float)m;
        for (int l = 0; l < 32; l++) *y++ = d1 * (float)((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) - m1;
        for (int l = 0; l < 32; l++) *y++ = d2 * (float)((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - m2;
    }
}

void io_dequant_q6_k(const uint8_t *b, float *y)
{
    const uint8_t *ql = b, *qh = b + 128;
    const int8_t *sc = (const int8_t *)(b + 192);
    const float d = h2f(b + 208);
    for (int half = 0; half < 2; half++, y += 128, ql += 64, qh += 32, sc += 8)
        for (int l = 0; l < 32; l++) {
            int is = l / 16;
            int q1 = ((ql[l] & 0xF) | ((qh[l] >> 0 & 3) << 4)) - 32;
            int q2 = ((ql[l + 32] & 0xF) | ((qh[l] >> 2 & 3) << 4)) - 32;
            int q3 = ((ql[l] >> 4) | ((qh[l] >> 4 & 3) << 4)) - 32;
            int q4 = ((ql[l + 32] >> 4) | ((qh[l] >> 6 & 3) << 4)) - 32;
            y[l] = d * (float)sc[is] * (float)q1;
            y[l + 32] = d * (float)sc[is + 2] * (float)q2;
            y[l + 64] = d * (float)sc[is + 4] * (float)q3;
            y[l + 96] = d * (float)sc[is + 6] * (float)q4;
        }
}

void io_dequant_q8_k(const uint8_t *b, float *y)
{
    float d;
    memcpy(&d, b, 4);
    for (int j = 0; j < 256; j++) y[j] = d * (float)(int8_t)b[4 + j];
}

bool io_can_dequant(int type)
{
    const tl_ggml_type *g = tl_ggml_type_of(type);
    return g && g->dequant;
}

void io_quant_block(int type, int64_t *elems, size_t *bytes)
{
    const tl_ggml_type *g = tl_ggml_type_of(type);
    *elems = g->block;
    *bytes = (size_t)g->bytes;
}

/* src: the tensor's first block; [first, first + n) must be whole blocks. */
void io_dequant(const uint8_t *src, int type, int64_t first, int64_t n, float *dst)
{
    const tl_ggml_type *g = tl_ggml_type_of(type);
    const uint8_t *b = src + (size_t)(first / g->block) * (size_t)g->bytes;
    for (int64_t i = 0; i < n; i += g->block, b += g->bytes) g->dequant(b, dst + i);
}

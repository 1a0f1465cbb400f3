/* test_rng.h — reproducible random bits for unit tests (xorshift64), so that a failure names its case */
#ifndef TL_TEST_RNG_H
#define TL_TEST_RNG_H

#include <stdint.h>

/* The next 64 bits from *state (never 0). */
static inline uint64_t xorshift64(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

#endif

/* test_pool.c — the pool of freed large blocks: reuse, no aliasing, its bound, and memory going back to the system */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensor.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(pool);

#define MIB ((size_t)1 << 20)

/* Resident memory of this process in bytes (/proc/self/statm: the second field, in pages). */
static size_t resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    cr_assert(f);
    unsigned long long size, resident;
    cr_assert_eq(fscanf(f, "%llu %llu", &size, &resident), 2);
    fclose(f);
    return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

/* A 1-d f32 tensor of `bytes` bytes, uninitialized. */
static tl_tensor *f32_of_bytes(size_t bytes)
{
    int64_t n = (int64_t)(bytes / 4);
    tl_tensor *t = tl_tensor_empty(TL_F32, 1, &n);
    cr_assert(t, "%s", tl_errmsg());
    return t;
}

/* What stays resident besides the pool: the allocator's and the test's own
   pages, and under AddressSanitizer the shadow of every byte touched (one
   byte per eight), which is never given back. */
static size_t slack_for(size_t touched)
{
#if defined(__SANITIZE_ADDRESS__)
    return 24 * MIB + touched / 8;
#else
    (void)touched;
    return 24 * MIB;
#endif
}

Test(pool, memory_beyond_the_bound_goes_back_to_the_system)
{
    tl_pool_set_limit(64 * MIB);
    size_t before = resident_bytes();
    enum { N = 8 };
    tl_tensor *ts[N];
    for (int i = 0; i < N; i++) {
        ts[i] = f32_of_bytes(32 * MIB);
        memset(tl_tensor_data(ts[i]), 1, 32 * MIB);   /* every page resident */
    }
    size_t full = resident_bytes();
    cr_assert_geq(full, before + N * 30 * MIB, "the tensors are resident: %zu -> %zu bytes", before, full);
    for (int i = 0; i < N; i++) tl_tensor_release(ts[i]);
    size_t after = resident_bytes();
    tl_pool_stats st = tl_pool_get_stats();
    cr_log_info("RSS: %zu MiB before, %zu MiB with 256 MiB of tensors, %zu MiB after dropping them (pool: %zu MiB)",
                before / MIB, full / MIB, after / MIB, st.pooled_bytes / MIB);
    cr_expect_leq(st.pooled_bytes, 64 * MIB);
    cr_expect_eq(st.blocks, 2, "two 32 MiB blocks fit the 64 MiB bound");
    cr_expect_leq(after, before + 64 * MIB + slack_for(N * 32 * MIB), "RSS falls back to the bound and some slack: %zu -> %zu bytes",
                  before, after);
    tl_pool_trim();
    size_t trimmed = resident_bytes();
    cr_expect_eq(tl_pool_get_stats().pooled_bytes, 0u);
    cr_expect_leq(trimmed, before + slack_for(N * 32 * MIB), "a trim gives the rest back: %zu -> %zu bytes", before, trimmed);
}

Test(pool, a_freed_block_is_reused_by_its_size_class_only)
{
    tl_pool_set_limit(64 * MIB);
    tl_tensor *a = f32_of_bytes(4 * MIB + 600 * 1024);   /* class 5 MiB */
    void *pa = a->storage->data;
    tl_tensor_release(a);
    tl_pool_stats s0 = tl_pool_get_stats();
    cr_expect_eq(s0.blocks, 1);
    tl_tensor *other = f32_of_bytes(6 * MIB);            /* class 6 MiB: not that block */
    cr_expect_neq(other->storage->data, pa);
    tl_tensor *b = f32_of_bytes(4 * MIB + 900 * 1024);   /* class 5 MiB again: that block */
    cr_expect_eq(b->storage->data, pa, "the pooled block is taken again");
    cr_expect_eq(tl_pool_get_stats().hits, s0.hits + 1);
    memset(tl_tensor_data(b), 0x5a, b->storage->nbytes);   /* the whole block is usable */
    tl_tensor *c = f32_of_bytes(4 * MIB + 900 * 1024);   /* b is live: c must not get its block */
    cr_expect_neq(c->storage->data, pa);
    cr_expect_eq(tl_pool_get_stats().blocks, 0);
    tl_tensor_release(b);
    int64_t n = (int64_t)((4 * MIB + 900 * 1024) / 4);
    tl_tensor *z = tl_tensor_zeros(TL_F32, 1, &n);       /* zeros never take a dirty block */
    cr_assert(z);
    cr_expect_neq(z->storage->data, pa);
    const float *pz = tl_tensor_data(z);
    int nonzero = 0;
    for (int64_t i = 0; i < n; i++) nonzero += pz[i] != 0;
    cr_expect_eq(nonzero, 0);
    tl_tensor *all[] = { other, c, z };
    for (int i = 0; i < 3; i++) tl_tensor_release(all[i]);
    tl_pool_trim();
}

Test(pool, a_block_under_a_live_view_stays_out_of_the_pool)
{
    tl_pool_set_limit(64 * MIB);
    tl_tensor *a = f32_of_bytes(2 * MIB);
    void *pa = a->storage->data;
    tl_tensor *v = tl_view_slice(a, 0, 10, 20, 1, true, true);
    cr_assert(v);
    tl_tensor_release(a);
    cr_expect_eq(tl_pool_get_stats().blocks, 0, "the view still holds the storage");
    tl_tensor *b = f32_of_bytes(2 * MIB);
    cr_expect_neq(b->storage->data, pa);
    cr_expect(!tl_shares_memory(b, v));
    tl_tensor_release(v);
    cr_expect_eq(tl_pool_get_stats().blocks, 1);
    tl_tensor_release(b);
    cr_expect_eq(tl_pool_get_stats().blocks, 2);
    tl_pool_set_limit(0);   /* off: everything goes back, and stays out */
    cr_expect_eq(tl_pool_get_stats().blocks, 0);
    tl_tensor *c = f32_of_bytes(2 * MIB);
    tl_tensor_release(c);
    cr_expect_eq(tl_pool_get_stats().pooled_bytes, 0u);
}

Test(pool, the_bound_comes_from_tl_pool_mb)
{
    setenv("TL_POOL_MB", "3", 1);
    cr_expect_eq(tl_pool_get_stats().limit_bytes, 3 * MIB);
    tl_tensor *a = f32_of_bytes(4 * MIB);   /* larger than the bound: unmapped at once */
    tl_tensor_release(a);
    cr_expect_eq(tl_pool_get_stats().blocks, 0);
    tl_tensor *b = f32_of_bytes(2 * MIB);
    tl_tensor_release(b);
    cr_expect_eq(tl_pool_get_stats().blocks, 1);
    tl_pool_trim();
}

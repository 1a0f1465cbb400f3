/* test_workspace.c — working storage lent by a caller (tl_workspace): stack-wise reuse, measuring, and storages still alive at the end */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tensor.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(workspace);

/* A 1-d f64 tensor of n elements, uninitialized. */
static tl_tensor *f64s(int64_t n)
{
    tl_tensor *t = tl_tensor_empty(TL_F64, 1, &n);
    cr_assert(t, "%s", tl_errmsg());
    return t;
}

/* True when t's data lies in bytes [lo, hi) of s. */
static bool inside(const tl_tensor *t, const tl_storage *s, size_t lo, size_t hi)
{
    const char *p = tl_tensor_data(t), *base = s->data;
    return p >= base + lo && p + (size_t)tl_tensor_size(t) * 8 <= base + hi;
}

Test(workspace, storages_come_from_the_buffer_stack_wise_and_are_not_counted)
{
    tl_storage *buf = tl_storage_new(64 * 1024, false);
    cr_assert(buf);
    tl_workspace w;
    uint64_t before = tl_storage_count();
    tl_workspace_begin(&w, buf, 1024, 8192);
    tl_tensor *a = f64s(100), *b = f64s(200);                 /* 800 and 1600 bytes: 832 and 1600 rounded */
    cr_assert(inside(a, buf, 1024, 1024 + 8192) && inside(b, buf, 1024, 1024 + 8192));
    cr_assert_eq((char *)tl_tensor_data(b) - (char *)tl_tensor_data(a), 832);
    tl_tensor *tiny = f64s(4);                                 /* 32 bytes: inline, not from the buffer */
    cr_assert_not(inside(tiny, buf, 0, 64 * 1024));
    tl_tensor_release(b);                                      /* on top: its bytes come back */
    tl_tensor *c = f64s(50);
    cr_assert_eq((char *)tl_tensor_data(c) - (char *)tl_tensor_data(a), 832);
    tl_tensor *big = f64s(2000);                               /* 16000 bytes: does not fit, allocated as usual */
    cr_assert_not(inside(big, buf, 0, 64 * 1024));
    cr_assert_eq(tl_storage_count() - before, 1);
    cr_assert_eq(buf->refcount, 3);                            /* a and c hold the buffer */
    tl_tensor_release(a);                                      /* below c: stays taken until c goes */
    tl_tensor_release(c);
    tl_tensor *d = f64s(100);
    cr_assert_eq((char *)tl_tensor_data(d) - (char *)buf->data, 1024);
    tl_tensor_release(d);
    cr_assert_eq(tl_workspace_end(&w), 0);
    cr_assert_eq(buf->refcount, 1);
    tl_tensor_release(big);
    tl_tensor_release(tiny);
    tl_storage_release(buf);
}

Test(workspace, a_storage_alive_at_the_end_moves_out_with_its_values)
{
    tl_storage *buf = tl_storage_new(4096, false);
    cr_assert(buf);
    tl_workspace w;
    tl_workspace_begin(&w, buf, 0, 4096);
    tl_tensor *kept = f64s(64);
    double *p = tl_tensor_data(kept);
    for (int i = 0; i < 64; i++) p[i] = i * 0.5;
    uint64_t before = tl_storage_count();
    cr_assert_eq(tl_workspace_end(&w), 0);
    cr_assert_eq(tl_storage_count() - before, 1);              /* counted once it has storage of its own */
    cr_assert_eq(buf->refcount, 1);
    cr_assert_not(inside(kept, buf, 0, 4096));
    memset(buf->data, 0xff, 4096);                             /* the buffer's next user cannot touch it */
    p = tl_tensor_data(kept);
    for (int i = 0; i < 64; i++) cr_assert_eq(p[i], i * 0.5);
    tl_tensor_release(kept);
    tl_storage_release(buf);
}

Test(workspace, measuring_gives_the_bytes_a_buffer_needs_without_the_result)
{
    tl_workspace w;
    tl_workspace_begin(&w, NULL, 0, 0);
    uint64_t before = tl_storage_count();
    tl_tensor *x = f64s(100);          /* 832 */
    tl_tensor *y = f64s(300);          /* 2400: 2432 rounded to 64 bytes */
    tl_tensor_release(x);              /* not on top: y's end stays the top */
    tl_tensor *result = f64s(1000);    /* alive at the end: left out */
    tl_tensor_release(y);
    tl_tensor *z = f64s(40);           /* 320, after the result: at 0 without it */
    tl_tensor_release(z);
    cr_assert_eq(tl_workspace_end(&w), 0);
    cr_assert_eq(tl_storage_count() - before, 4);              /* measuring allocates as usual */
    cr_assert_eq(w.need, 832 + 2432);
    tl_tensor_release(result);         /* an ordinary storage now */
}

/* test_io.c — file library internals: JSON reader, metadata encoding, npy round trips, lazy GGUF dequantization */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* This test checks the file library's private helpers themselves, so it claims the runtime's
   side of io/internal.h's guard on purpose; nothing outside runtime/ and this test does. */
#define TL_RUNTIME_INTERNAL
#include "format.h"
#include "io/internal.h"
#include "io/json.h"
#include "ops.h"
#include "tensor.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(io_json);
LEAK_CHECKED_SUITE(io_meta);
LEAK_CHECKED_SUITE(io_lazy);

static int json_of(const char *text, json *out) { return io_json_parse("t.json", text, strlen(text), out); }

Test(io_json, escapes_and_surrogate_pairs_decode_to_utf8)
{
    json v;
    cr_assert_eq(json_of(" {\"k\\n\": \"\\u00e9\\ud83d\\ude00\\\"\\/\"} \n", &v), 0, "%s", tl_errmsg());
    cr_assert_eq(v.kind, JSON_OBJ);
    cr_assert_eq(v.n, 1);
    cr_assert_str_eq(v.keys[0], "k\n");
    cr_assert_str_eq(v.items[0].s, "\xc3\xa9\xf0\x9f\x98\x80\"/");
    io_json_free(&v);
}

Test(io_json, rejects_lone_surrogates_bad_utf8_and_trailing_text)
{
    json v;
    cr_assert_eq(json_of("\"\\ud800\"", &v), -1);
    cr_assert(strstr(tl_errmsg(), "lone surrogate"), "%s", tl_errmsg());
    cr_assert_eq(json_of("\"\\udc00\"", &v), -1);
    cr_assert_eq(json_of("\"\xc0\x80\"", &v), -1);   /* overlong NUL */
    cr_assert(strstr(tl_errmsg(), "invalid UTF-8"), "%s", tl_errmsg());
    cr_assert_eq(json_of("\"\xed\xa0\x80\"", &v), -1);   /* an encoded surrogate */
    cr_assert_eq(json_of("{\"a\":1,}", &v), -1);
    cr_assert_eq(json_of("[1] x", &v), -1);
    cr_assert(strstr(tl_errmsg(), "t.json: malformed JSON header at byte 4"), "%s", tl_errmsg());
    cr_assert_eq(json_of("\"a\tb\"", &v), -1);
}

Test(io_json, numbers_are_uint_only_when_exact)
{
    json v;
    cr_assert_eq(json_of("[18446744073709551615, 18446744073709551616, -0, 1.0, 1e3, 0, 12]", &v), 0);
    cr_assert(v.items[0].is_uint && v.items[0].u == UINT64_MAX);
    cr_assert(!v.items[1].is_uint);
    cr_assert(!v.items[2].is_uint && v.items[2].negative);
    cr_assert(!v.items[3].is_uint && !v.items[4].is_uint);
    cr_assert(v.items[5].is_uint && v.items[5].u == 0 && v.items[6].u == 12);
    io_json_free(&v);
    cr_assert_eq(json_of("01", &v), -1);
    cr_assert_eq(json_of("1.", &v), -1);
}

Test(io_json, nesting_is_bounded)
{
    char deep[200];
    memset(deep, '[', 65);
    memset(deep + 65, ']', 65);
    deep[130] = '\0';
    json v;
    cr_assert_eq(json_of(deep, &v), 0, "%s", tl_errmsg());
    io_json_free(&v);
    memset(deep, '[', 66);
    memset(deep + 66, ']', 66);
    deep[132] = '\0';
    cr_assert_eq(json_of(deep, &v), -1);
    cr_assert(strstr(tl_errmsg(), "nested too deeply"), "%s", tl_errmsg());
}

Test(io_meta, encode_then_decode_keeps_every_kind)
{
    tl_meta items[4] = { 0 }, list_items[2] = { 0 };
    items[0] = (tl_meta){ .kind = TL_META_NUM, .dtype = TL_U32, .num.u32 = 4000000000u };
    items[1] = (tl_meta){ .kind = TL_META_STR, .str = "caf\xc3\xa9", .len = 5 };
    int64_t shape[1] = { 3 };
    float vals[3] = { 0.5f, -1.0f, 2.25f };
    items[2] = (tl_meta){ .kind = TL_META_ARRAY, .array = io_tensor_copy(vals, TL_F32, 1, shape, false, false) };
    list_items[0] = (tl_meta){ .kind = TL_META_STR, .str = "a", .len = 1 };
    list_items[1] = (tl_meta){ .kind = TL_META_STR, .str = "", .len = 0 };
    items[3] = (tl_meta){ .kind = TL_META_LIST, .n = 2, .items = list_items };
    char *keys[4] = { "n", "s", "arr", "list" };
    size_t keylens[4] = { 1, 1, 3, 4 };
    tl_meta map = { .kind = TL_META_MAP, .n = 4, .items = items, .keys = keys, .keylens = keylens };
    uint8_t *blob;
    size_t len;
    cr_assert_eq(tl_meta_encode(&map, &blob, &len), 0, "%s", tl_errmsg());
    tl_tensor_release(items[2].array);
    tl_meta *m = tl_meta_decode(blob, len);
    cr_assert(m, "%s", tl_errmsg());
    cr_assert_eq(m->n, 4);
    cr_assert_str_eq(m->keys[3], "list");
    cr_assert(m->items[0].kind == TL_META_NUM && m->items[0].dtype == TL_U32 && m->items[0].num.u32 == 4000000000u);
    cr_assert(m->items[1].kind == TL_META_STR && m->items[1].len == 5 && memcmp(m->items[1].str, "caf\xc3\xa9", 5) == 0);
    cr_assert(m->items[2].kind == TL_META_ARRAY && m->items[2].array->dtype == TL_F32);
    cr_assert(memcmp(tl_tensor_data(m->items[2].array), vals, sizeof vals) == 0);
    cr_assert(m->items[3].kind == TL_META_LIST && m->items[3].n == 2 && m->items[3].items[1].len == 0);
    tl_meta_free(m);
    /* every truncation of the block is refused, none crashes */
    for (size_t cut = 0; cut < len; cut++) {
        tl_meta *bad = tl_meta_decode(blob, cut);
        cr_assert_null(bad, "decoding %zu of %zu bytes succeeded", cut, len);
    }
    free(blob);
}

Test(io_meta, absurd_counts_are_refused_before_allocating)
{
    uint8_t blob[16];
    io_put64(blob, UINT64_MAX / 2);
    memset(blob + 8, 0, 8);
    cr_assert_null(tl_meta_decode(blob, sizeof blob));
    cr_assert(strstr(tl_errmsg(), "metadata entries"), "%s", tl_errmsg());
}

/* ---- npy round trips through the runtime API ---------------------------------------- */

static char tmpdir[64];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/tl_test_io_XXXXXX");
    cr_assert(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    cr_assert_eq(system(cmd), 0);
    leak_check();
}

TestSuite(io_npy, .init = make_tmpdir, .fini = remove_tmpdir);

/* Element i of every view below, as bytes: a pattern that differs per byte. */
static tl_tensor *pattern(tl_dtype dt, int ndim, const int64_t *shape)
{
    tl_tensor *t = tl_tensor_empty(dt, ndim, shape);
    cr_assert(t);
    uint8_t *p = tl_tensor_data(t);
    size_t n = (size_t)tl_tensor_size(t) * tl_dtype_size(dt);
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 37 + 11);
    if (dt == TL_BOOL)
        for (size_t i = 0; i < n; i++) p[i] &= 1;
    return t;
}

static void assert_same_elements(const tl_tensor *a, const tl_tensor *b)
{
    cr_assert_eq(a->dtype, b->dtype);
    cr_assert_eq(a->ndim, b->ndim);
    for (int i = 0; i < a->ndim; i++) cr_assert_eq(a->shape[i], b->shape[i]);
    int64_t idx[TL_MAXDIM] = { 0 }, n = tl_tensor_size(a);
    size_t isz = tl_dtype_size(a->dtype);
    for (int64_t k = 0; k < n; k++) {
        cr_assert(memcmp(tl_tensor_at(a, idx), tl_tensor_at(b, idx), isz) == 0, "element %lld differs", (long long)k);
        for (int d = a->ndim - 1; d >= 0; d--) {
            if (++idx[d] < a->shape[d]) break;
            idx[d] = 0;
        }
    }
}

Test(io_npy, every_dtype_round_trips_through_strided_and_fortran_views)
{
    char path[128];
    snprintf(path, sizeof path, "%s/x.npy", tmpdir);
    int64_t shape[3] = { 4, 5, 6 };
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = pattern((tl_dtype)d, 3, shape);
        tl_tensor *views[3] = { tl_view_transpose(t), tl_view_slice(t, 2, 5, 0, -2, true, false), tl_view_index(t, 1, 3) };
        for (int v = 0; v < 3; v++) {
            cr_assert(views[v]);
            cr_assert_eq(tl_npy_save(path, views[v]), 0, "%s", tl_errmsg());
            tl_tensor *back = tl_npy_load(path);
            cr_assert(back, "%s", tl_errmsg());
            assert_same_elements(views[v], back);
            /* the transpose is Fortran-ordered: it loads as a view with ascending strides */
            if (v == 0) cr_assert(back->strides[0] == 1 && back->strides[1] == 6 && back->strides[2] == 30, "dtype %s", tl_dtype_name((tl_dtype)d));
            tl_tensor_release(back);
            tl_tensor_release(views[v]);
        }
        tl_tensor_release(t);
    }
}

Test(io_npy, a_failed_save_leaves_the_old_file)
{
    char path[128];
    snprintf(path, sizeof path, "%s/keep.npy", tmpdir);
    int64_t shape[1] = { 8 };
    tl_tensor *t = pattern(TL_F64, 1, shape);
    cr_assert_eq(tl_npy_save(path, t), 0);
    tl_tensor *c = pattern(TL_C128, 1, shape);
    cr_assert_eq(tl_text_save(path, c, ','), -1);   /* refused before anything is written */
    tl_tensor *back = tl_npy_load(path);
    cr_assert(back);
    assert_same_elements(t, back);
    tl_tensor_release(back);
    tl_tensor_release(c);
    tl_tensor_release(t);
}

/* ---- lazy GGUF dequantization, touched by many threads at once ------------------------- */

#define LAZY_N (3 << 20)   /* 12 MiB of f32: 192 chunks of 64 KiB */

static float expected_q8(int64_t i)
{
    int8_t q = (int8_t)(uint8_t)((i / 32) * 7 + (i % 32) * 3);
    return (float)q * 0.25f;
}

static void write_q8_gguf(const char *path)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    uint8_t h[256];
    size_t n = 0;
    memcpy(h, "GGUF", 4);
    io_put32(h + 4, 3);
    io_put64(h + 8, 1);
    io_put64(h + 16, 0);
    n = 24;
    io_put64(h + n, 1);
    h[n + 8] = 'w';
    n += 9;
    io_put32(h + n, 1);
    io_put64(h + n + 4, LAZY_N);
    io_put32(h + n + 12, 8);   /* Q8_0 */
    io_put64(h + n + 16, 0);
    n += 24;
    while (n % 32) h[n++] = 0;
    cr_assert_eq(fwrite(h, 1, n, f), n);
    uint8_t b[34];
    for (int64_t blk = 0; blk < LAZY_N / 32; blk++) {
        io_put16(b, 0x3400);   /* 0.25 */
        for (int j = 0; j < 32; j++) b[2 + j] = (uint8_t)(blk * 7 + j * 3);
        cr_assert_eq(fwrite(b, 1, 34, f), 34u);
    }
    fclose(f);
}

typedef struct { const tl_tensor *t; int seed; int bad; } reader;

static void *read_all(void *arg)
{
    reader *r = arg;
    /* every thread walks the chunks in a different order, so several claim one chunk at once */
    for (int64_t k = 0; k < LAZY_N; k += 4099) {
        int64_t i = (k * (2 * r->seed + 1) + r->seed * 65536) % LAZY_N;
        if (*(const float *)tl_tensor_at(r->t, &i) != expected_q8(i)) r->bad++;
    }
    return NULL;
}

/* Writes the test file and loads its one lazily dequantized tensor. */
static tl_file *load_lazy_q8(char *path)
{
    int fd = mkstemps(path, 5);
    cr_assert(fd >= 0);
    close(fd);
    write_q8_gguf(path);
    unsetenv("TL_GGUF_EAGER");
    tl_file *f = tl_load(path);
    cr_assert(f, "%s", tl_errmsg());
    cr_assert_eq(f->n, 1);
    tl_tensor *w = f->tensors[0].tensor;
    cr_assert_eq(w->dtype, TL_F32);
    cr_assert_eq(w->shape[0], LAZY_N);
    cr_assert_eq(w->storage->kind, TL_STORAGE_LAZY);
    cr_assert_eq(tl_storage_materialized_bytes(w->storage), 0u, "nothing is dequantized at load");
    return f;
}

Test(io_lazy, threads_racing_on_untouched_chunks_see_exact_values)
{
    char path[] = "/tmp/tl_test_lazy_XXXXXX.gguf";
    tl_file *f = load_lazy_q8(path);
    tl_tensor *w = f->tensors[0].tensor;
    pthread_t th[8];
    reader rs[8];
    for (int i = 0; i < 8; i++) {
        rs[i] = (reader){ w, i, 0 };
        cr_assert_eq(pthread_create(&th[i], NULL, read_all, &rs[i]), 0);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        cr_assert_eq(rs[i].bad, 0, "thread %d read %d wrong values", i, rs[i].bad);
    }
    float *p = tl_tensor_data(w);
    p[LAZY_N - 1] = 42.0f;   /* writable once filled, like any tensor */
    cr_assert_eq(p[LAZY_N - 1], 42.0f);
    cr_assert_eq(p[LAZY_N - 2], expected_q8(LAZY_N - 2));
    tl_file_free(f);
    unlink(path);
}

Test(io_lazy, reads_compute_only_the_chunks_they_cover)
{
    char path[] = "/tmp/tl_test_lazy_XXXXXX.gguf";
    tl_file *f = load_lazy_q8(path);
    tl_tensor *w = f->tensors[0].tensor;
    const size_t chunk = (size_t)1 << 12;   /* io/lazy.c's CHUNK */
    /* a slice inside the sixth chunk: that chunk only */
    tl_tensor *s = tl_view_slice(w, 0, 5 * 262144 + 7, 5 * 262144 + 11, 1, true, true);
    cr_assert(s);
    cr_expect_eq(((const float *)tl_tensor_data(s))[2], expected_q8(5 * 262144 + 9));
    cr_expect_eq(tl_storage_materialized_bytes(w->storage), chunk);
    /* a gather of one element in the tenth chunk */
    int64_t at = 9 * 262144 + 3, one = 1;
    tl_tensor *idx = tl_tensor_empty(TL_I64, 1, &one);
    *(int64_t *)tl_tensor_data(idx) = at;
    tl_index_item item = { .kind = TL_IDX_TENSOR, .tensor = idx };
    tl_tensor *g = tl_index_get(w, 1, &item);
    cr_assert(g, "%s", tl_errmsg());
    cr_expect_eq(*(const float *)tl_tensor_data(g), expected_q8(at));
    cr_expect_eq(tl_storage_materialized_bytes(w->storage), 2 * chunk);
    /* printing the whole tensor shows its edges: the first and last chunks */
    char *text = tl_fmt_tensor_string(w, NULL);
    cr_assert(text, "%s", tl_errmsg());
    cr_expect(strstr(text, "..."));
    free(text);
    cr_expect_eq(tl_storage_materialized_bytes(w->storage), 4 * chunk);
    /* a write materializes before it lands, so the rest of the chunk keeps its values */
    tl_tensor *s2 = tl_view_slice(w, 0, 3 * 262144, 3 * 262144 + 1, 1, true, true);
    float v = 42.0f;
    tl_tensor *val = tl_tensor_scalar(TL_F32, &v);
    cr_assert_eq(tl_assign(s2, val), 0, "%s", tl_errmsg());
    cr_expect_eq(tl_storage_materialized_bytes(w->storage), 5 * chunk);
    int64_t next = 3 * 262144 + 1;
    cr_expect_eq(*(const float *)tl_tensor_at(w, &next), expected_q8(next));
    /* a reduction reads it all */
    tl_tensor *total = tl_reduce(TL_RSUM, w, 0, NULL, false, 0);
    cr_assert(total, "%s", tl_errmsg());
    cr_expect_eq(tl_storage_materialized_bytes(w->storage), (size_t)LAZY_N * 4);
    tl_tensor *all[] = { s, idx, g, s2, val, total };
    for (int i = 0; i < 6; i++) tl_tensor_release(all[i]);
    tl_file_free(f);
    unlink(path);
}

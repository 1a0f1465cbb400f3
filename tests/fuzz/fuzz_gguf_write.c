/* fuzz_gguf_write.c — libFuzzer target: random tensors (plain dtypes and ggml blocks) and metadata saved as
   .gguf, loaded back and saved again: the same tensors, bytes and metadata, and the same file */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "io.h"
#include "quant.h"

/* The input: a u16 length, that many bytes of encoded metadata (tl_meta_decode's format: any
   tree it accepts), then a tensor count and per tensor a kind, a shape and a name; the rest of
   the input cycles through their elements. */
typedef struct reader {
    const uint8_t *p;
    size_t n, at;
} reader;

/* The next byte (0 once the input is used up). */
static uint8_t next(reader *r) { return r->at < r->n ? r->p[r->at++] : 0; }

static const tl_dtype PLAIN[] = { TL_F32, TL_F16, TL_BF16, TL_F64, TL_I8, TL_I16, TL_I32, TL_I64 };
#define NPLAIN (int)(sizeof PLAIN / sizeof *PLAIN)

/* A tensor of kind k (a plain dtype, or a type quantize() makes) filled from the input. */
static tl_tensor *make_tensor(reader *r, int *qid)
{
    int kinds = NPLAIN, quant[TL_GGML_NIDS], nq = 0;
    for (int id = 0; id < TL_GGML_NIDS; id++)
        if (tl_ggml_type_of(id) && tl_ggml_type_of(id)->quantize) quant[nq++] = id;
    int k = next(r) % (kinds + nq), nd = 1 + next(r) % 3;
    const tl_ggml_type *q = k >= kinds ? tl_ggml_type_of(quant[k - kinds]) : NULL;
    int64_t shape[3];
    for (int i = 0; i < nd; i++) shape[i] = 1 + next(r) % 5;
    if (q) shape[nd - 1] = q->block * (1 + shape[nd - 1] % 2);
    tl_tensor *t = tl_tensor_empty(q ? TL_F32 : PLAIN[k], nd, shape);
    if (!t) return NULL;
    size_t bytes = (size_t)tl_tensor_size(t) * tl_dtype_size(t->dtype);
    uint8_t *d = tl_tensor_data(t);
    for (size_t i = 0; i < bytes; i++) d[i] = r->n ? r->p[(r->at + i) % r->n] : 0;
    *qid = -1;
    if (!q) return t;
    float *f = (float *)d;
    for (int64_t i = 0; i < tl_tensor_size(t); i++)   /* ggml's blocks hold finite values */
        if (f[i] != f[i] || f[i] - f[i] != 0) f[i] = (float)i;
    tl_tensor *b = tl_quantize(t, q);
    tl_tensor_release(t);
    *qid = q->id;
    return b;
}

/* The bytes a tensor is stored as: its blocks, or its elements (contiguous). */
static const void *stored_bytes(const tl_tensor *t, size_t *n)
{
    const tl_ggml_type *q = tl_tensor_qtype(t);
    const uint8_t *b;
    int type;
    if (q && tl_storage_quant(t->storage, &b, &type)) {
        *n = (size_t)(tl_tensor_size(t) / q->block) * (size_t)q->bytes;
        return b;
    }
    *n = (size_t)tl_tensor_size(t) * tl_dtype_size(t->dtype);
    return tl_tensor_data(t);
}

/* A whole file's bytes (malloc'd), NULL when it cannot be read. */
static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(len > 0 ? (size_t)len : 1);
    *n = b && fread(b, 1, (size_t)len, f) == (size_t)len ? (size_t)len : 0;
    fclose(f);
    return b;
}

/* Stops the run: a round trip changed something. */
static void finding(const char *what)
{
    fprintf(stderr, "fuzz_gguf_write: %s\n", what);
    abort();
}

/* Did the watchdog's Ctrl-C stop the last call (the machine slow, or the run paused)? Then
   its failure is the interrupt's, not a finding. */
static bool stopped_by_watchdog(void) { return tl_interrupt_flag != 0; }

/* Loads path and checks it holds the tensors saved (names, shapes, types, bytes) and the metadata. */
static tl_file *check_load(const char *path, int64_t n, const tl_named_in *items, const int *qid, const uint8_t *kv,
                           size_t kvlen)
{
    tl_file *f = tl_load(path);
    if (!f && stopped_by_watchdog()) return NULL;
    if (!f) finding(tl_errmsg());
    if (f->n != n) finding("tensor count");
    for (int64_t i = 0; i < n; i++) {
        const tl_tensor *a = items[i].tensor, *b = f->tensors[i].tensor;
        const tl_ggml_type *qb = tl_tensor_qtype(b);
        if (f->tensors[i].len != items[i].len || memcmp(f->tensors[i].name, items[i].name, items[i].len) != 0) finding("name");
        if (a->ndim != b->ndim || memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof *a->shape) != 0) finding("shape");
        if (a->dtype != b->dtype || (qb ? qb->id : -1) != qid[i]) finding("type");
        size_t na, nb;
        const void *pa = stored_bytes(a, &na), *pb = stored_bytes(b, &nb);
        if (na != nb || memcmp(pa, pb, na) != 0) finding("tensor bytes");
    }
    if (!f->meta || f->meta_len != kvlen || memcmp(f->meta, kv, kvlen) != 0) finding("metadata");
    return f;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_limits();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = { data, size, 0 };
    size_t mlen = (size_t)next(&r) | (size_t)next(&r) << 8;
    if (mlen > size - r.at) mlen = size - r.at;
    tl_meta *m = tl_meta_decode(data + r.at, mlen);
    r.at += mlen;
    tl_meta empty = { .kind = TL_META_MAP };
    uint8_t *kv = NULL;
    size_t kvlen = 0;
    if (tl_meta_encode(m ? m : &empty, &kv, &kvlen) < 0) {   /* a tree the encoder refuses: no metadata */
        if (m) tl_meta_free(m);
        m = NULL;
        if (tl_meta_encode(&empty, &kv, &kvlen) < 0) finding("empty metadata");
    }
    tl_named_in items[4];
    tl_tensor *made[4];
    char names[4][16];
    int qid[4];
    int64_t n = 0, want = next(&r) % 5;
    fuzz_begin_input();
    for (int64_t i = 0; i < want; i++) {
        tl_tensor *t = make_tensor(&r, &qid[n]);
        if (!t) continue;
        int len = snprintf(names[n], sizeof names[n], "%c.%d", 'a' + next(&r) % 26, (int)n);   /* unique */
        items[n] = (tl_named_in){ names[n], (size_t)len, t };
        made[n] = t;
        n++;
    }
    const tl_format *fmt = tl_format_of("x.gguf");
    const char *p1 = fuzz_scratch_file(".gguf", NULL, 0);
    char p2[4096];
    snprintf(p2, sizeof p2, "%s.again.gguf", p1 ? p1 : "");
    tl_save_opts opts = { .metadata = m };
    if (p1 && fmt->save(p1, n, items, &opts) == 0) {
        /* what was written loads as it was, and writes again as the same file */
        tl_file *f = check_load(p1, n, items, qid, kv, kvlen);
        if (!f) goto done;
        tl_named_in again[4];
        for (int64_t i = 0; i < n; i++) again[i] = (tl_named_in){ f->tensors[i].name, f->tensors[i].len, f->tensors[i].tensor };
        tl_meta *back = tl_meta_decode(f->meta, f->meta_len);
        tl_save_opts o2 = { .metadata = back };
        if (!back) finding("the loaded metadata does not decode");
        if (fmt->save(p2, n, again, &o2) == 0) {
            size_t l1, l2;
            uint8_t *b1 = slurp(p1, &l1), *b2 = slurp(p2, &l2);
            if (!b1 || !b2 || l1 != l2 || memcmp(b1, b2, l1) != 0) finding("a loaded file saved again differs");
            free(b1);
            free(b2);
        } else if (!stopped_by_watchdog()) {
            finding(tl_errmsg());   /* what tl wrote and read back, it must write again */
        }
        tl_meta_free(back);
        tl_file_free(f);
        remove(p2);
    }
done:
    fuzz_end_input();
    for (int64_t i = 0; i < n; i++) tl_tensor_release(made[i]);
    if (m) tl_meta_free(m);
    free(kv);
    return 0;
}

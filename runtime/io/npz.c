/* io/npz.c — .npz: a zip of .npy members (stored or deflated), read with every offset checked, written via zlib */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "internal.h"

#define SIG_LOCAL 0x04034b50u
#define SIG_CENTRAL 0x02014b50u
#define SIG_EOCD 0x06054b50u
#define SIG_EOCD64 0x06064b50u
#define SIG_LOC64 0x07064b50u
#define SIG_DESCRIPTOR 0x08074b50u
#define DEFLATE_MAX_RATIO 1032u     /* deflate cannot expand input by more than this */
#define ZCHUNK (1u << 30)           /* zlib counts in 32 bits */

typedef struct {
    char *name;                     /* the zip name, ending ".npy" */
    size_t len;                     /* of the key: the name without ".npy" */
    uint16_t flags, method;
    uint32_t crc;
    uint64_t csize, usize, local_off, data_off;
} zip_member;

/* ---- reading: end of central directory ------------------------------------------ */

static int find_eocd(io_src *s, uint64_t *at)
{
    if (s->size < 22) return io_fail(s, "not a .npz file (too short for a zip archive)");
    uint64_t lo = s->size > 22 + 65535 ? s->size - 22 - 65535 : 0;
    for (uint64_t i = s->size - 22 + 1; i-- > lo;) {
        if (io_le32(s->base + i) == SIG_EOCD && i + 22 + io_le16(s->base + i + 20) <= s->size) {
            *at = i;
            return 0;
        }
    }
    return io_fail(s, "not a .npz file (no zip end-of-directory record)");
}

/* Reads the (possibly ZIP64) directory location; checks it lies before the end records. */
static int read_directory(io_src *s, uint64_t eocd, uint64_t *count, uint64_t *cd_off, uint64_t *cd_size)
{
    const uint8_t *e = s->base + eocd;
    if (io_le16(e + 4) != 0 || io_le16(e + 6) != 0 || io_le16(e + 8) != io_le16(e + 10))
        return io_fail(s, "multi-disk zip archives are not supported");
    *count = io_le16(e + 10);
    *cd_size = io_le32(e + 12);
    *cd_off = io_le32(e + 16);
    uint64_t limit = eocd;
    if (*count == 0xFFFF || *cd_size == 0xFFFFFFFF || *cd_off == 0xFFFFFFFF) {
        if (eocd < 20 || io_le32(e - 20) != SIG_LOC64) return io_fail(s, "zip64 archive without its locator");
        uint64_t r = io_le64(e - 20 + 8);
        if (r > eocd - 20 || eocd - 20 - r < 56 || io_le32(s->base + r) != SIG_EOCD64)
            return io_fail(s, "zip64 end record offset %llu is invalid", (unsigned long long)r);
        const uint8_t *z = s->base + r;
        *count = io_le64(z + 32);
        *cd_size = io_le64(z + 40);
        *cd_off = io_le64(z + 48);
        limit = r;
    }
    if (*cd_off > limit || *cd_size > limit - *cd_off)
        return io_fail(s, "zip central directory (offset %llu, %llu bytes) runs past its end record",
                       (unsigned long long)*cd_off, (unsigned long long)*cd_size);
    if (*count > *cd_size / 46)
        return io_fail(s, "zip directory claims %llu entries in %llu bytes", (unsigned long long)*count,
                       (unsigned long long)*cd_size);
    return 0;
}

/* Applies a ZIP64 extra field (id 1) to the sizes/offset saturated at 0xFFFFFFFF. */
static int apply_zip64(io_src *s, const uint8_t *ex, uint64_t elen, zip_member *m, bool has_off)
{
    for (uint64_t i = 0; i + 4 <= elen;) {
        uint16_t id = io_le16(ex + i), sz = io_le16(ex + i + 2);
        if (sz > elen - i - 4) return io_fail(s, "zip extra field runs past its entry");
        if (id == 1) {
            const uint8_t *d = ex + i + 4;
            uint64_t *fields[3] = { &m->usize, &m->csize, &m->local_off };
            int used = 0;
            for (int f = 0; f < (has_off ? 3 : 2); f++) {
                if (*fields[f] != 0xFFFFFFFF) continue;
                if ((used + 1) * 8 > sz) return io_fail(s, "zip64 extra field is too short");
                *fields[f] = io_le64(d + 8 * used++);
            }
        }
        i += 4 + (uint64_t)sz;
    }
    return 0;
}

static int read_central(io_src *s, io_cur *c, zip_member *m)
{
    if (io_need(c, 46, "a zip directory entry")) return -1;
    const uint8_t *e = c->p + c->pos;
    if (io_le32(e) != SIG_CENTRAL) return io_fail(s, "zip directory entry at byte %llu has a bad signature", (unsigned long long)c->pos);
    m->flags = io_le16(e + 8);
    m->method = io_le16(e + 10);
    m->crc = io_le32(e + 16);
    m->csize = io_le32(e + 20);
    m->usize = io_le32(e + 24);
    uint64_t nlen = io_le16(e + 28), elen = io_le16(e + 30), clen = io_le16(e + 32);
    m->local_off = io_le32(e + 42);
    c->pos += 46;
    if (io_need(c, nlen + elen + clen, "a zip directory entry's name")) return -1;
    const char *name = (const char *)c->p + c->pos;
    char q[96];
    if (memchr(name, 0, nlen)) return io_fail(s, "zip member name contains a NUL byte");
    if (nlen < 4 || memcmp(name + nlen - 4, ".npy", 4) != 0)
        return io_fail(s, "member %s is not a .npy file", io_quote(name, nlen, q, sizeof q));
    if (m->flags & 1) return io_fail(s, "member %s is encrypted", io_quote(name, nlen, q, sizeof q));
    if (m->method != 0 && m->method != 8)
        return io_fail(s, "member %s uses compression method %u (only stored and deflated are supported)",
                       io_quote(name, nlen, q, sizeof q), m->method);
    m->len = nlen - 4;
    m->name = malloc(nlen + 1);
    if (!m->name) { tl_seterr(MemoryError, "out of memory"); return -1; }
    memcpy(m->name, name, nlen);
    m->name[nlen] = '\0';
    if (apply_zip64(s, c->p + c->pos + nlen, elen, m, true)) return -1;
    c->pos += nlen + elen + clen;
    return 0;
}

/* Follows a member's local header to its data; checks the name agrees and the data fits. */
static int locate_data(io_src *s, zip_member *m, uint64_t cd_off)
{
    char q[96];
    const char *qn = io_quote(m->name, m->len + 4, q, sizeof q);
    if (m->local_off > cd_off || cd_off - m->local_off < 30 || io_le32(s->base + m->local_off) != SIG_LOCAL)
        return io_fail(s, "member %s has a bad local header offset %llu", qn, (unsigned long long)m->local_off);
    const uint8_t *l = s->base + m->local_off;
    uint64_t nlen = io_le16(l + 26), elen = io_le16(l + 28);
    uint64_t start = m->local_off + 30 + nlen + elen;
    if (start > cd_off) return io_fail(s, "member %s: local header runs into the directory", qn);
    if (nlen != m->len + 4 || memcmp(l + 30, m->name, nlen) != 0)
        return io_fail(s, "member %s: local header names a different file", qn);
    if (m->csize > cd_off - start)
        return io_fail(s, "member %s: %llu bytes of data at offset %llu run past the directory", qn,
                       (unsigned long long)m->csize, (unsigned long long)start);
    if (m->method == 0 && m->csize != m->usize)
        return io_fail(s, "member %s is stored but its sizes differ (%llu vs %llu)", qn,
                       (unsigned long long)m->csize, (unsigned long long)m->usize);
    if (m->method == 8 && m->usize / DEFLATE_MAX_RATIO > m->csize + 1)
        return io_fail(s, "member %s claims %llu bytes from %llu compressed bytes (deflate cannot do that)", qn,
                       (unsigned long long)m->usize, (unsigned long long)m->csize);
    m->data_off = start;
    return 0;
}

static int cmp_offset(const void *a, const void *b)
{
    const zip_member *x = *(const zip_member *const *)a, *y = *(const zip_member *const *)b;
    return x->local_off < y->local_off ? -1 : x->local_off > y->local_off;
}

/* Members must not share bytes (a zip "bomb" trick) and names must be unique. */
static int check_layout(io_src *s, zip_member *ms, uint64_t n)
{
    zip_member **order = malloc((n ? n : 1) * sizeof *order);
    if (!order) { tl_seterr(MemoryError, "out of memory"); return -1; }
    for (uint64_t i = 0; i < n; i++) order[i] = &ms[i];
    qsort(order, n, sizeof *order, cmp_offset);
    int rc = 0;
    char q[96], q2[96];
    for (uint64_t i = 1; i < n && !rc; i++)
        if (order[i - 1]->data_off + order[i - 1]->csize > order[i]->local_off)
            rc = io_fail(s, "members %s and %s overlap", io_quote(order[i - 1]->name, order[i - 1]->len + 4, q, sizeof q),
                         io_quote(order[i]->name, order[i]->len + 4, q2, sizeof q2));
    free(order);
    for (uint64_t i = 0; i < n && !rc; i++)
        for (uint64_t j = 0; j < i && !rc; j++)
            if (ms[i].len == ms[j].len && memcmp(ms[i].name, ms[j].name, ms[i].len) == 0)
                rc = io_fail(s, "member %s appears twice", io_quote(ms[i].name, ms[i].len + 4, q, sizeof q));
    return rc;
}

/* ---- reading: member data ---------------------------------------------------------- */

typedef struct {
    z_stream z;
    const uint8_t *in;
    uint64_t in_left;
    uint32_t crc;
} inflater;

/* Inflates exactly n bytes into out. */
static int inflate_exact(io_src *s, const char *qn, inflater *f, uint8_t *out, uint64_t n)
{
    while (n > 0) {
        uInt ain = f->in_left < ZCHUNK ? (uInt)f->in_left : ZCHUNK;
        uInt aout = n < ZCHUNK ? (uInt)n : ZCHUNK;
        f->z.next_in = (Bytef *)f->in;
        f->z.avail_in = ain;
        f->z.next_out = out;
        f->z.avail_out = aout;
        int rc = inflate(&f->z, Z_NO_FLUSH);
        uInt used = ain - f->z.avail_in, made = aout - f->z.avail_out;
        f->in += used;
        f->in_left -= used;
        f->crc = (uint32_t)crc32(f->crc, out, made);
        out += made;
        n -= made;
        if (n > 0 && rc == Z_STREAM_END) return io_fail(s, "member %s inflates to fewer bytes than declared", qn);
        if (rc != Z_OK && rc != Z_STREAM_END && !(rc == Z_BUF_ERROR && made > 0))
            return io_fail(s, "member %s has corrupt deflate data (%s)", qn, f->z.msg ? f->z.msg : "truncated");
        if (made == 0 && used == 0) return io_fail(s, "member %s: deflate data is truncated", qn);
        if (tl_check_interrupt()) return -1;
    }
    return 0;
}

static tl_tensor *load_deflated(io_src *s, const zip_member *m, const char *qn)
{
    inflater f = { .in = s->base + m->data_off, .in_left = m->csize, .crc = (uint32_t)crc32(0, NULL, 0) };
    if (inflateInit2(&f.z, -15) != Z_OK) { tl_seterr(FileError, "zlib failed to start"); return NULL; }
    uint8_t pre[12], *hdr = NULL;
    tl_tensor *t = NULL;
    char what[128];
    snprintf(what, sizeof what, "member %s", qn);
    uint64_t first = m->usize < 12 ? m->usize : 12;
    if (inflate_exact(s, qn, &f, pre, first)) goto out;
    uint64_t hl = first >= 10 && pre[6] == 1 ? io_le16(pre + 8) + 10ull : first >= 12 ? io_le32(pre + 8) + 12ull : first;
    if (hl > m->usize || hl > (1u << 20) + 12) hl = first;   /* io_npy_parse reports the exact problem */
    hdr = malloc(hl ? hl : 1);
    if (!hdr) { tl_seterr(MemoryError, "out of memory"); goto out; }
    memcpy(hdr, pre, first);
    if (inflate_exact(s, qn, &f, hdr + first, hl - first)) goto out;
    io_npy_header h;
    if (io_npy_parse(s, hdr, hl, m->usize, what, &h)) goto out;
    t = io_tensor_new(h.dtype, h.ndim, h.shape, h.fortran);
    if (!t || inflate_exact(s, qn, &f, t->storage->data, h.nbytes)) goto fail;
    uint8_t extra;
    f.z.next_out = &extra;
    f.z.avail_out = 1;
    f.z.next_in = (Bytef *)f.in;
    f.z.avail_in = f.in_left < ZCHUNK ? (uInt)f.in_left : ZCHUNK;
    int zrc = inflate(&f.z, Z_FINISH);
    if (zrc != Z_STREAM_END || f.z.avail_out == 0) {
        io_fail(s, "member %s: %s", qn, f.z.avail_out == 0 ? "inflates to more bytes than declared" : "deflate stream does not end");
        goto fail;
    }
    if (f.crc != m->crc) {
        io_fail(s, "member %s fails its CRC-32 check (the data is corrupt)", qn);
        goto fail;
    }
    io_decode(t->storage->data, h.count, h.dtype, h.swap);
    goto out;
fail:
    if (t) tl_tensor_release(t);
    t = NULL;
out:
    free(hdr);
    inflateEnd(&f.z);
    return t;
}

/* Stored members are mapped when their data happens to be aligned (it often is not: zip
   headers have odd lengths), else copied; the CRC is checked only for copied bytes. */
static tl_tensor *load_stored(io_src *s, const zip_member *m, const char *qn)
{
    char what[128];
    snprintf(what, sizeof what, "member %s", qn);
    io_npy_header h;
    if (io_npy_parse(s, s->base + m->data_off, m->usize, m->usize, what, &h)) return NULL;
    uint64_t at = m->data_off + h.data_off;
    bool mapped = !h.swap && h.nbytes > 0 && at % io_dtype_align(h.dtype) == 0;
    if (!mapped) {
        uint32_t crc = (uint32_t)crc32(0, NULL, 0);
        for (uint64_t done = 0; done < m->usize;) {
            uInt k = m->usize - done < ZCHUNK ? (uInt)(m->usize - done) : ZCHUNK;
            crc = (uint32_t)crc32(crc, s->base + m->data_off + done, k);
            done += k;
        }
        if (crc != m->crc) {
            io_fail(s, "member %s fails its CRC-32 check (the data is corrupt)", qn);
            return NULL;
        }
    }
    return io_tensor_at(s, at, h.dtype, h.ndim, h.shape, h.fortran, h.swap, m->name);
}

static void free_members(zip_member *ms, uint64_t n)
{
    for (uint64_t i = 0; ms && i < n; i++) free(ms[i].name);
    free(ms);
}

/* A zip of .npy members, stored or deflated; no metadata. */
tl_file *io_npz_load(const char *path, bool meta_only)
{
    (void)meta_only;
    io_src s;
    if (io_open(&s, path)) return NULL;
    uint64_t eocd = 0, count = 0, cd_off = 0, cd_size = 0;
    zip_member *ms = NULL;
    tl_file *f = NULL;
    if (find_eocd(&s, &eocd) || read_directory(&s, eocd, &count, &cd_off, &cd_size)) goto out;
    ms = calloc(count ? count : 1, sizeof *ms);
    f = calloc(1, sizeof *f);
    if (f) f->tensors = calloc(count ? count : 1, sizeof *f->tensors);
    if (!ms || !f || !f->tensors) { tl_seterr(MemoryError, "out of memory"); goto fail; }
    io_cur c = { s.base + cd_off, 0, cd_size, path };
    for (uint64_t i = 0; i < count; i++)
        if (read_central(&s, &c, &ms[i]) || locate_data(&s, &ms[i], cd_off)) { count = i + 1; goto fail; }
    if (check_layout(&s, ms, count)) goto fail;
    for (uint64_t i = 0; i < count; i++) {
        char q[96];
        const char *qn = io_quote(ms[i].name, ms[i].len + 4, q, sizeof q);
        tl_tensor *t = ms[i].method == 8 ? load_deflated(&s, &ms[i], qn) : load_stored(&s, &ms[i], qn);
        if (!t) goto fail;
        f->tensors[f->n].tensor = t;
        ms[i].name[ms[i].len] = '\0';   /* the key: drop ".npy" */
        f->tensors[f->n].name = ms[i].name;
        f->tensors[f->n].len = ms[i].len;
        ms[i].name = NULL;
        f->n++;
    }
    goto out;
fail:
    tl_file_free(f);
    f = NULL;
out:
    free_members(ms, count);
    io_close(&s);
    return f;
}

/* ---- writing ------------------------------------------------------------------------ */

typedef struct {
    io_writer *w;
    z_stream z;
    bool deflate;
    uint8_t *zbuf;
    uint32_t crc;
    uint64_t usize, csize;
} member_sink;

#define ZBUF (256u << 10)

/* Feeds member bytes: CRC and size over the raw bytes, then stored or deflated out. */
static int sink_emit(void *ctx, const void *p, size_t n)
{
    member_sink *m = ctx;
    m->crc = (uint32_t)crc32(m->crc, p, (uInt)n);   /* io_tensor_bytes emits at most 1 MiB at a time */
    m->usize += n;
    if (!m->deflate) {
        m->csize += n;
        return io_put(m->w, p, n);
    }
    m->z.next_in = (Bytef *)p;
    m->z.avail_in = (uInt)n;
    while (m->z.avail_in > 0) {
        m->z.next_out = m->zbuf;
        m->z.avail_out = ZBUF;
        if (deflate(&m->z, Z_NO_FLUSH) == Z_STREAM_ERROR) { tl_seterr(FileError, "zlib failed"); return -1; }
        size_t k = ZBUF - m->z.avail_out;
        m->csize += k;
        if (io_put(m->w, m->zbuf, k)) return -1;
    }
    return 0;
}

static int sink_finish(member_sink *m)
{
    if (!m->deflate) return 0;
    int rc;
    do {
        m->z.next_out = m->zbuf;
        m->z.avail_out = ZBUF;
        rc = deflate(&m->z, Z_FINISH);
        if (rc == Z_STREAM_ERROR) { tl_seterr(FileError, "zlib failed"); return -1; }
        size_t k = ZBUF - m->z.avail_out;
        m->csize += k;
        if (io_put(m->w, m->zbuf, k)) return -1;
    } while (rc != Z_STREAM_END);
    return 0;
}

typedef struct {
    uint32_t crc;
    uint64_t usize, csize, off;
    uint16_t method, flags;
} written;

static void dos_time(uint16_t *tm, uint16_t *dt)
{
    time_t now = time(NULL);
    struct tm lt;
    localtime_r(&now, &lt);
    if (lt.tm_year < 80) lt.tm_year = 80;
    *tm = (uint16_t)(lt.tm_hour << 11 | lt.tm_min << 5 | lt.tm_sec / 2);
    *dt = (uint16_t)((lt.tm_year - 80) << 9 | (lt.tm_mon + 1) << 5 | lt.tm_mday);
}

static bool is_ascii(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80) return false;
    return true;
}

static uint32_t sat32(uint64_t v) { return v >= 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)v; }

/* One member: a local header with a ZIP64 extra (as numpy writes, so sizes can be patched
   in after the data whatever they turn out to be), the .npy bytes, then the patch; where the
   output cannot seek (a FIFO), a data descriptor after the bytes says what the patch would. */
static int write_member(io_writer *w, const tl_named_in *it, bool compress, uint16_t tm, uint16_t dt, written *out)
{
    size_t nlen = it->len + 4;
    uint8_t lh[30 + 20];
    memset(lh, 0, sizeof lh);
    out->off = w->pos;
    out->method = compress ? 8 : 0;
    out->flags = (is_ascii(it->name, it->len) ? 0 : 0x800) | (w->seekable ? 0 : 0x8);
    io_put32(lh, SIG_LOCAL);
    io_put16(lh + 4, 45);
    io_put16(lh + 6, out->flags);
    io_put16(lh + 8, out->method);
    io_put16(lh + 10, tm);
    io_put16(lh + 12, dt);
    io_put16(lh + 26, (uint16_t)nlen);
    io_put16(lh + 28, 20);
    if (io_put(w, lh, 30) || io_put(w, it->name, it->len) || io_put(w, ".npy", 4)) return -1;
    io_put16(lh + 30, 1);
    io_put16(lh + 32, 16);
    if (io_put(w, lh + 30, 20)) return -1;

    bool fortran = io_is_fortran(it->tensor);
    uint8_t *hdr;
    size_t hlen;
    if (io_npy_header_for(it->tensor, fortran, &hdr, &hlen)) return -1;
    member_sink m = { .w = w, .deflate = compress, .crc = (uint32_t)crc32(0, NULL, 0) };
    if (compress) {
        m.zbuf = malloc(ZBUF);
        if (!m.zbuf || deflateInit2(&m.z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            free(m.zbuf);
            free(hdr);
            tl_seterr(MemoryError, "out of memory");
            return -1;
        }
    }
    tl_tensor *src = fortran ? tl_view_transpose(it->tensor) : (tl_tensor *)it->tensor;
    int rc = sink_emit(&m, hdr, hlen);
    free(hdr);
    if (!rc) rc = src ? io_tensor_bytes(src, sink_emit, &m) : -1;
    if (!rc) rc = sink_finish(&m);
    if (fortran && src) tl_tensor_release(src);
    if (compress) deflateEnd(&m.z);
    free(m.zbuf);
    if (rc) return -1;

    out->crc = m.crc;
    out->usize = m.usize;
    out->csize = m.csize;
    if (!w->seekable) {
        uint8_t desc[24];
        io_put32(desc, SIG_DESCRIPTOR);
        io_put32(desc + 4, m.crc);
        io_put64(desc + 8, m.csize);
        io_put64(desc + 16, m.usize);
        return io_put(w, desc, sizeof desc);
    }
    uint8_t patch[12];
    io_put32(patch, m.crc);
    io_put32(patch + 4, sat32(m.csize));
    io_put32(patch + 8, sat32(m.usize));
    uint8_t sizes[16];
    io_put64(sizes, m.usize);
    io_put64(sizes + 8, m.csize);
    return io_patch(w, out->off + 14, patch, 12) || io_patch(w, out->off + 30 + nlen + 4, sizes, 16) ? -1 : 0;
}

static int write_central(io_writer *w, const tl_named_in *it, const written *m, uint16_t tm, uint16_t dt)
{
    uint8_t e[46], ex[28];
    size_t exlen = 0;
    bool big[3] = { m->usize >= 0xFFFFFFFFu, m->csize >= 0xFFFFFFFFu, m->off >= 0xFFFFFFFFu };
    uint64_t vals[3] = { m->usize, m->csize, m->off };
    for (int i = 0; i < 3; i++)
        if (big[i]) {
            io_put64(ex + 4 + exlen, vals[i]);
            exlen += 8;
        }
    io_put16(ex, 1);
    io_put16(ex + 2, (uint16_t)exlen);
    memset(e, 0, sizeof e);
    io_put32(e, SIG_CENTRAL);
    io_put16(e + 4, 3 << 8 | 45);   /* made by unix, zip 4.5 */
    io_put16(e + 6, 45);
    io_put16(e + 8, m->flags);
    io_put16(e + 10, m->method);
    io_put16(e + 12, tm);
    io_put16(e + 14, dt);
    io_put32(e + 16, m->crc);
    io_put32(e + 20, sat32(m->csize));
    io_put32(e + 24, sat32(m->usize));
    io_put16(e + 28, (uint16_t)(it->len + 4));
    io_put16(e + 30, (uint16_t)(exlen ? exlen + 4 : 0));
    io_put32(e + 38, 0644u << 16);
    io_put32(e + 42, sat32(m->off));
    if (io_put(w, e, 46) || io_put(w, it->name, it->len) || io_put(w, ".npy", 4)) return -1;
    return exlen ? io_put(w, ex, exlen + 4) : 0;
}

static int write_end(io_writer *w, uint64_t count, uint64_t cd_off, uint64_t cd_size)
{
    if (count >= 0xFFFF || cd_off >= 0xFFFFFFFFu || cd_size >= 0xFFFFFFFFu) {
        uint8_t z[56 + 20];
        uint64_t at = w->pos;
        memset(z, 0, sizeof z);
        io_put32(z, SIG_EOCD64);
        io_put64(z + 4, 44);
        io_put16(z + 12, 3 << 8 | 45);
        io_put16(z + 14, 45);
        io_put64(z + 24, count);
        io_put64(z + 32, count);
        io_put64(z + 40, cd_size);
        io_put64(z + 48, cd_off);
        io_put32(z + 56, SIG_LOC64);
        io_put64(z + 56 + 8, at);
        io_put32(z + 56 + 16, 1);
        if (io_put(w, z, sizeof z)) return -1;
    }
    uint8_t e[22];
    memset(e, 0, sizeof e);
    io_put32(e, SIG_EOCD);
    uint16_t c16 = count >= 0xFFFF ? 0xFFFF : (uint16_t)count;
    io_put16(e + 8, c16);
    io_put16(e + 10, c16);
    io_put32(e + 12, sat32(cd_size));
    io_put32(e + 16, sat32(cd_off));
    return io_put(w, e, sizeof e);
}

/* Members stored, or deflated when opts->compress. */
int io_npz_save(const char *path, int64_t n, const tl_named_in *items, const tl_save_opts *opts)
{
    char q[80];
    for (int64_t i = 0; i < n; i++) {
        if (items[i].len > 65535 - 4)
            return io_fail_path(path, "name of %lld bytes is too long for a zip member", (long long)items[i].len);
        if (memchr(items[i].name, 0, items[i].len))   /* a zip name ends there for numpy; load refuses it */
            return io_fail_path(path, "name %s holds a NUL byte, which a zip member's name cannot",
                                io_quote(items[i].name, items[i].len, q, sizeof q));
    }
    written *ws = calloc(n ? (size_t)n : 1, sizeof *ws);
    if (!ws) { tl_seterr(MemoryError, "out of memory"); return -1; }
    io_writer w;
    if (io_writer_open(&w, path)) { free(ws); return -1; }
    uint16_t tm, dt;
    dos_time(&tm, &dt);
    int rc = 0;
    for (int64_t i = 0; i < n && !rc; i++) rc = write_member(&w, &items[i], opts->compress, tm, dt, &ws[i]);
    uint64_t cd_off = w.pos;
    for (int64_t i = 0; i < n && !rc; i++) rc = write_central(&w, &items[i], &ws[i], tm, dt);
    if (!rc) rc = write_end(&w, (uint64_t)n, cd_off, w.pos - cd_off);
    free(ws);
    return io_writer_finish(&w, rc);
}

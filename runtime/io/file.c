/* io/file.c — shared file plumbing: opening and mapping inputs, tensors over file bytes, atomic writes, loaded-file records */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../ops.h"
#include "internal.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the file formats are little-endian; tl assumes a little-endian host"
#endif

/* ---- messages ---------------------------------------------------------------- */

/* Long paths keep their tail: that is the part that tells files apart. */
static const char *short_path(const char *path)
{
    size_t n = strlen(path);
    return n > 160 ? path + n - 160 : path;
}

static int vfail(const char *path, const char *fmt, va_list ap)
{
    char msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    tl_seterr(FileError, "%s%s: %s", strlen(path) > 160 ? "..." : "", short_path(path), msg);
    return -1;
}

int io_fail(const io_src *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(s->path, fmt, ap);
    va_end(ap);
    return -1;
}

int io_fail_path(const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(path, fmt, ap);
    va_end(ap);
    return -1;
}

/* A name quoted for messages into buf (n bytes), control bytes as \xNN, cut with "..." to fit. */
const char *io_quote(const char *s, size_t len, char *buf, size_t n)
{
    size_t o = 0;
    if (n < 8) return "";
    buf[o++] = '\'';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        size_t width = c < 0x20 || c == 0x7f ? 4 : 1;
        /* what must still fit after this byte: "..." if more follow, then the closing quote and NUL */
        size_t after = i + 1 < len ? 5 : 2;
        if (o + width + after > n) {   /* the previous byte left room for exactly this */
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (width == 4) o += (size_t)snprintf(buf + o, n - o, "\\x%02x", c);
        else buf[o++] = (char)c;
    }
    buf[o++] = '\'';
    buf[o] = '\0';
    return buf;
}

void io_storage_name(char *out, size_t n, const char *path, const char *tname)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (tname && *tname) snprintf(out, n, "%s:%s", base, tname);
    else snprintf(out, n, "%s", base);
}

/* ---- opening ------------------------------------------------------------------- */

/* Mappings of this many bytes or more ask for transparent huge pages (MADV_HUGEPAGE). When
   the file's pages are not yet in the page cache, the system then reads them in 2 MiB folios
   and maps each whole one with one TLB entry, where it reads and maps 4 KiB pages otherwise
   (ext4 on Linux 6.18, shmem and tmpfs alike; a hint: other systems ignore it, and pages
   already cached stay as they are). A tensor of 2 MiB or more then runs through fewer TLB
   misses and the hardware's prefetching, which stops at each page's end, runs on: a Q8_0
   4096 x 4096 product from memory, one thread, the file read from disk, 1.51 -> 1.19 ms,
   11008 x 4096 3.74 -> 3.28 (Q6_K 1.36 -> 1.01 and 3.25 -> 2.86; bench_matvec.py against
   the build before, in one run). A tensor's own mapping smaller than 2 MiB cannot hold a
   huge page, and gains nothing. */
#define FILE_HUGEPAGE_MIN ((size_t)2 << 20)

int io_open(io_src *s, const char *path)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (s->fd < 0) return io_fail_path(path, "cannot open: %s", strerror(errno));
    struct stat st;
    int bad = fstat(s->fd, &st) != 0 ? io_fail_path(path, "cannot open: %s", strerror(errno))
            : S_ISDIR(st.st_mode) ? io_fail_path(path, "is a folder, not a file")
            : !S_ISREG(st.st_mode) ? io_fail_path(path, "not a regular file") : 0;
    if (bad) {
        close(s->fd);
        return -1;
    }
    s->size = (uint64_t)st.st_size;
    if (s->size > 0) {
        void *m = mmap(NULL, s->size, PROT_READ, MAP_PRIVATE, s->fd, 0);
        if (m == MAP_FAILED) {
            io_fail_path(path, "cannot map %llu bytes: %s", (unsigned long long)s->size, strerror(errno));
            close(s->fd);
            return -1;
        }
        if (s->size >= FILE_HUGEPAGE_MIN) madvise(m, s->size, MADV_HUGEPAGE);   /* the header's pages too */
        s->base = m;
    }
    return 0;
}

void io_close(io_src *s)
{
    if (s->base) munmap((void *)s->base, s->size);
    if (s->fd >= 0) close(s->fd);
    s->base = NULL;
    s->fd = -1;
}

/* ---- dtype helpers -------------------------------------------------------------- */

void io_decode(void *p, int64_t n, tl_dtype dt, bool swap)
{
    if (swap) io_byteswap(p, n, dt);
    if (dt == TL_BOOL) tl_bool_normalize(p, (size_t)n);
}

size_t io_dtype_align(tl_dtype dt)
{
    size_t sz = tl_dtype_size(dt);
    return tl_is_complex(dt) ? sz / 2 : sz;
}

void io_byteswap(void *p, int64_t n, tl_dtype dt)
{
    size_t part = io_dtype_align(dt);
    int64_t parts = n * (int64_t)(tl_dtype_size(dt) / part);
    uint8_t *b = p;
    if (part == 1) return;
    for (int64_t i = 0; i < parts; i++, b += part)
        for (size_t k = 0; k < part / 2; k++) {
            uint8_t t = b[k];
            b[k] = b[part - 1 - k];
            b[part - 1 - k] = t;
        }
}

int io_shape_bytes(int ndim, const int64_t *shape, size_t itemsize, int64_t *count, uint64_t *nbytes)
{
    if (tl_shape_size(ndim, shape, count) != 0) return -1;
    uint64_t b;
    if (__builtin_mul_overflow((uint64_t)*count, (uint64_t)itemsize, &b) || b > (uint64_t)PTRDIFF_MAX) {
        char buf[256];
        tl_seterr(ShapeError, "shape %s is too big", tl_shape_str(ndim, shape, buf, sizeof buf));
        return -1;
    }
    *nbytes = b;
    return 0;
}

/* Column-major strides (in elements): the transpose of a C-order array of the reversed shape. */
static void fortran_strides(int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t acc = 1;
    for (int i = 0; i < ndim; i++) {
        strides[i] = acc;
        acc *= shape[i] ? shape[i] : 1;
    }
}

/* ---- tensors over file bytes --------------------------------------------------- */

static tl_tensor *wrap_storage(tl_storage *st, tl_dtype dt, int ndim, const int64_t *shape, bool fortran)
{
    int64_t strides[TL_MAXDIM];
    if (fortran) fortran_strides(ndim, shape, strides);
    else tl_contiguous_strides(ndim, shape, strides);
    tl_tensor *t = tl_tensor_view_of(st, dt, ndim, shape, strides, 0);
    tl_storage_release(st);
    return t;
}

tl_tensor *io_tensor_new(tl_dtype dt, int ndim, const int64_t *shape, bool fortran)
{
    int64_t count;
    uint64_t nbytes;
    if (io_shape_bytes(ndim, shape, tl_dtype_size(dt), &count, &nbytes) != 0) return NULL;
    tl_storage *st = tl_storage_new(nbytes, false);
    return st ? wrap_storage(st, dt, ndim, shape, fortran && count > 0) : NULL;
}

tl_tensor *io_tensor_copy(const void *bytes, tl_dtype dt, int ndim, const int64_t *shape, bool fortran, bool swap)
{
    int64_t count;
    uint64_t nbytes;
    if (io_shape_bytes(ndim, shape, tl_dtype_size(dt), &count, &nbytes) != 0) return NULL;
    tl_storage *st = tl_storage_new(nbytes, false);
    if (!st) return NULL;
    if (nbytes) memcpy(st->data, bytes, nbytes);
    io_decode(st->data, count, dt, swap);
    return wrap_storage(st, dt, ndim, shape, fortran && count > 0);
}

tl_tensor *io_tensor_at(io_src *s, uint64_t off, tl_dtype dt, int ndim, const int64_t *shape,
                        bool fortran, bool swap, const char *tname)
{
    int64_t count;
    uint64_t nbytes;
    if (io_shape_bytes(ndim, shape, tl_dtype_size(dt), &count, &nbytes) != 0) {
        io_fail(s, "%s", tl_errmsg());
        return NULL;
    }
    if (nbytes == 0) return io_tensor_copy(NULL, dt, ndim, shape, fortran, false);
    if (off > s->size || nbytes > s->size - off) {
        io_fail(s, "data of %s runs past the end of the file", tname && *tname ? tname : "the array");
        return NULL;
    }
    if (swap || off % io_dtype_align(dt) != 0) return io_tensor_copy(s->base + off, dt, ndim, shape, fortran, swap);

    long page = sysconf(_SC_PAGESIZE);
    uint64_t start = off & ~(uint64_t)(page - 1), delta = off - start;
    void *m = mmap(NULL, delta + nbytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, s->fd, (off_t)start);
    if (m == MAP_FAILED && errno == ENOMEM)   /* out of mappings (vm.max_map_count): read it instead */
        return io_tensor_copy(s->base + off, dt, ndim, shape, fortran, false);
    if (m == MAP_FAILED) {
        io_fail(s, "cannot map %llu bytes: %s", (unsigned long long)nbytes, strerror(errno));
        return NULL;
    }
    if (delta + nbytes >= FILE_HUGEPAGE_MIN) madvise(m, delta + nbytes, MADV_HUGEPAGE);   /* a hint: failure is harmless */
    char name[64];
    io_storage_name(name, sizeof name, s->path, tname);
    /* bools are read now, the one exception to loading lazily: a kernel may
       assume a bool byte is 0 or 1, and the private mapping lets us fix it */
    io_decode((char *)m + delta, count, dt, false);
    tl_storage *st = tl_storage_mapped(m, delta + nbytes, (char *)m + delta, nbytes, name);
    if (!st) return NULL;
    return wrap_storage(st, dt, ndim, shape, fortran);
}

/* ---- bounded reading ------------------------------------------------------------- */

int io_need(io_cur *c, uint64_t n, const char *what)
{
    if (c->pos > c->size || n > c->size - c->pos)
        return io_fail_path(c->path, "truncated: %s at byte %llu needs %llu bytes, %llu remain", what,
                            (unsigned long long)c->pos, (unsigned long long)n,
                            (unsigned long long)(c->pos <= c->size ? c->size - c->pos : 0));
    return 0;
}

int io_u8(io_cur *c, uint8_t *v, const char *what)
{
    if (io_need(c, 1, what)) return -1;
    *v = c->p[c->pos++];
    return 0;
}

int io_u32(io_cur *c, uint32_t *v, const char *what)
{
    if (io_need(c, 4, what)) return -1;
    *v = io_le32(c->p + c->pos);
    c->pos += 4;
    return 0;
}

int io_u64(io_cur *c, uint64_t *v, const char *what)
{
    if (io_need(c, 8, what)) return -1;
    *v = io_le64(c->p + c->pos);
    c->pos += 8;
    return 0;
}

/* ---- atomic writer ----------------------------------------------------------------- */

#define WBUF (1u << 20)

/* The file a save lands on: where path's chain of symlinks ends, so the links survive, even
   when the last one dangles (the file it names is made). NULL when the chain does not end. */
static char *resolve_target(const char *path)
{
    char *cur = strdup(path);
    struct stat st;
    for (int hops = 0; cur && hops <= 40; hops++) {
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur;
        char to[PATH_MAX];
        ssize_t n = readlink(cur, to, sizeof to - 1);
        if (n <= 0) return cur;
        if (n >= (ssize_t)sizeof to - 1) {
            free(cur);
            errno = ENAMETOOLONG;
            return NULL;
        }
        to[n] = 0;
        char *next;
        if (to[0] == '/') {
            next = strdup(to);
        } else {   /* relative to the link's folder */
            char *slash = strrchr(cur, '/');
            size_t dlen = slash ? (size_t)(slash - cur) + 1 : 0;
            next = malloc(dlen + (size_t)n + 1);
            if (next) {
                memcpy(next, cur, dlen);
                memcpy(next + dlen, to, (size_t)n + 1);
            }
        }
        free(cur);
        cur = next;
    }
    if (cur) {
        free(cur);
        errno = ELOOP;
    }
    return NULL;
}

/* A special file (a FIFO, a device) is written in place: replacing it would turn it into a
   regular file. True with w->fd open on it; false with errno set when it cannot be opened. */
static bool open_special(io_writer *w)
{
    struct stat st;
    if (stat(w->target, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return false;
    w->special = true;
    w->fd = open(w->target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
    w->seekable = w->fd >= 0 && lseek(w->fd, 0, SEEK_CUR) >= 0;
    return true;
}

int io_writer_open(io_writer *w, const char *path)
{
    memset(w, 0, sizeof *w);
    w->path = path;
    w->fd = -1;
    w->target = resolve_target(path);
    if (!w->target) {
        if (errno != ENOMEM) return io_fail_path(path, "cannot open: %s", strerror(errno));
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    w->buf = malloc(WBUF);
    if (!w->buf) {
        free(w->target);
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    if (open_special(w)) {
        if (w->fd >= 0) return 0;
        io_fail_path(path, "cannot open: %s", strerror(errno));
        free(w->target);
        free(w->buf);
        return -1;
    }
    w->seekable = true;
    char *dcopy = strdup(w->target), *bcopy = strdup(w->target);
    size_t n = strlen(w->target) + 32;
    w->tmp = malloc(n);
    if (!dcopy || !bcopy || !w->tmp) {
        free(dcopy);
        free(bcopy);
        free(w->tmp);
        free(w->target);
        free(w->buf);
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    snprintf(w->tmp, n, "%s/.%s.tmp-XXXXXX", dirname(dcopy), basename(bcopy));
    free(dcopy);
    free(bcopy);
    w->fd = mkostemp(w->tmp, O_CLOEXEC);
    if (w->fd < 0) {
        io_fail_path(path, "cannot create a file in its folder: %s", strerror(errno));
        free(w->tmp);
        free(w->target);
        free(w->buf);
        return -1;
    }
    return 0;
}

static int write_all(io_writer *w, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(w->fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            w->failed = true;
            return io_fail_path(w->path, "cannot write: %s", k < 0 ? strerror(errno) : "no progress");
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int flush(io_writer *w)
{
    if (w->fill == 0) return 0;
    int rc = write_all(w, w->buf, w->fill);
    w->fill = 0;
    return rc;
}

/* Always through the buffer (memcpy, not write(2) straight from tensor memory):
   one system call per WBUF bytes however small the pieces come. */
int io_put(io_writer *w, const void *p, size_t n)
{
    const uint8_t *b = p;
    if (w->failed) return -1;
    while (n > 0) {
        size_t k = WBUF - w->fill < n ? WBUF - w->fill : n;
        memcpy(w->buf + w->fill, b, k);
        w->fill += k;
        w->pos += k;
        b += k;
        n -= k;
        if (w->fill == WBUF && flush(w)) return -1;
    }
    return 0;
}

int io_patch(io_writer *w, uint64_t at, const void *p, size_t n)
{
    if (w->failed || flush(w)) return -1;
    if (pwrite(w->fd, p, n, (off_t)at) != (ssize_t)n) {
        w->failed = true;
        return io_fail_path(w->path, "cannot write: %s", strerror(errno));
    }
    return 0;
}

static void writer_free(io_writer *w)
{
    free(w->tmp);
    free(w->target);
    free(w->buf);
    w->tmp = w->target = NULL;
    w->buf = NULL;
}

void io_writer_abort(io_writer *w)
{
    if (w->fd >= 0) close(w->fd);
    if (w->tmp) unlink(w->tmp);
    w->fd = -1;
    writer_free(w);
}

/* New files get 0666 minus the umask (as open(2) would); replaced files keep their mode. */
static mode_t target_mode(const char *target)
{
    struct stat st;
    if (stat(target, &st) == 0) return st.st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* Ends a write in place on a special file: nothing to rename, nor a mode to give. */
static int commit_special(io_writer *w)
{
    int rc = w->failed || flush(w) ? -1 : 0;
    if (close(w->fd) != 0 && rc == 0) rc = io_fail_path(w->path, "cannot write: %s", strerror(errno));
    w->fd = -1;
    writer_free(w);
    return rc;
}

int io_writer_commit(io_writer *w)
{
    if (w->special) return commit_special(w);
    if (w->failed || flush(w)) goto fail;
    if (fchmod(w->fd, target_mode(w->target)) != 0 || fsync(w->fd) != 0) {
        io_fail_path(w->path, "cannot write: %s", strerror(errno));
        goto fail;
    }
    if (close(w->fd) != 0) {
        w->fd = -1;
        io_fail_path(w->path, "cannot write: %s", strerror(errno));
        goto fail;
    }
    w->fd = -1;
    if (rename(w->tmp, w->target) != 0) {
        io_fail_path(w->path, "cannot replace the file: %s", strerror(errno));
        goto fail;
    }
    /* the rename itself is durable only once the folder is synced */
    char *dcopy = strdup(w->target);
    if (dcopy) {
        int dfd = open(dirname(dcopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
        free(dcopy);
    }
    writer_free(w);
    return 0;
fail:
    io_writer_abort(w);
    return -1;
}

int io_writer_finish(io_writer *w, int rc)
{
    if (rc == 0) return io_writer_commit(w);
    if (!w->failed) io_fail_path(w->path, "%s", tl_errmsg());
    io_writer_abort(w);
    return -1;
}

int io_emit_writer(void *ctx, const void *p, size_t n) { return io_put(ctx, p, n); }

/* ---- tensor bytes ------------------------------------------------------------------- */

bool io_is_fortran(const tl_tensor *t)
{
    if (t->ndim < 2 || tl_is_contiguous(t)) return false;
    int64_t expect = 1;
    for (int i = 0; i < t->ndim; i++) {
        if (t->shape[i] == 0) return false;
        if (t->shape[i] == 1) continue;
        if (t->strides[i] != expect) return false;
        expect *= t->shape[i];
    }
    return true;
}

int io_tensor_bytes(const tl_tensor *t, io_emit_fn emit, void *ctx)
{
    size_t isz = tl_dtype_size(t->dtype);
    int64_t count = tl_tensor_size(t);
    if (count == 0) return 0;
    tl_tensor_materialize(t);   /* the strided path reads whole rows from tl_tensor_at's pointer */
    if (tl_is_contiguous(t)) {
        const uint8_t *p = tl_tensor_data(t);
        uint64_t left = (uint64_t)count * isz;
        while (left > 0) {
            size_t k = left < WBUF ? (size_t)left : WBUF;
            if (tl_check_interrupt() || emit(ctx, p, k)) return -1;
            p += k;
            left -= k;
        }
        return 0;
    }
    /* strided: gather each run along the last axis into a bounce buffer */
    int nd = t->ndim;
    int64_t inner = nd ? t->shape[nd - 1] : 1, istride = nd ? t->strides[nd - 1] : 1;
    size_t cap = WBUF / isz;
    uint8_t *bounce = malloc(WBUF);
    if (!bounce) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    int64_t idx[TL_MAXDIM] = { 0 };
    int rc = 0;
    for (;;) {
        const uint8_t *row = tl_tensor_at(t, idx);
        for (int64_t done = 0; done < inner && rc == 0;) {
            int64_t k = inner - done < (int64_t)cap ? inner - done : (int64_t)cap;
            tl_convert_run(k, row + done * istride * (int64_t)isz, t->dtype, istride * (int64_t)isz, bounce,
                           t->dtype, (int64_t)isz);
            rc = emit(ctx, bounce, (size_t)k * isz);
            done += k;
        }
        if (rc || (rc = tl_check_interrupt())) break;
        int ax = nd - 2;
        while (ax >= 0 && ++idx[ax] == t->shape[ax]) idx[ax--] = 0;
        if (ax < 0) break;
    }
    free(bounce);
    return rc;
}

/* ---- loaded files ------------------------------------------------------------------ */

void tl_file_free(tl_file *f)
{
    if (!f) return;
    for (int64_t i = 0; f->tensors && i < f->n; i++) {
        free(f->tensors[i].name);
        if (f->tensors[i].tensor) tl_tensor_release(f->tensors[i].tensor);
    }
    free(f->tensors);
    free(f->meta);
    free(f);
}

/* One unnamed tensor as a file (for the single-tensor formats). */
tl_file *io_file_one(tl_tensor *t)
{
    if (!t) return NULL;
    tl_file *f = calloc(1, sizeof *f);
    if (f) f->tensors = calloc(1, sizeof *f->tensors);
    if (f && f->tensors) f->tensors[0].name = strdup("");
    if (!f || !f->tensors || !f->tensors[0].name) {
        tl_tensor_release(t);
        if (f) free(f->tensors);
        free(f);
        tl_seterr(MemoryError, "out of memory");
        return NULL;
    }
    f->n = 1;
    f->tensors[0].tensor = t;
    return f;
}

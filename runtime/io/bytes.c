/* io/bytes.c — whole files as bytes: reading one into memory, writing one atomically (as every save) */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The most bytes tl_read_bytes reads: a string that size is still handled whole. */
#define READ_BYTES_MAX ((uint64_t)1 << 40)

char *tl_read_bytes(const char *path, size_t *len)
{
    io_src s;
    if (io_open(&s, path) != 0) return NULL;
    char *buf = s.size <= READ_BYTES_MAX ? malloc((size_t)s.size + 1) : NULL;
    if (!buf) {
        tl_seterr(MemoryError, "cannot allocate %llu bytes to read %s: out of memory", (unsigned long long)s.size, path);
        io_close(&s);
        return NULL;
    }
    if (s.size) memcpy(buf, s.base, (size_t)s.size);
    buf[s.size] = 0;
    *len = (size_t)s.size;
    io_close(&s);
    return buf;
}

int tl_write_bytes(const char *path, const void *data, size_t n)
{
    io_writer w;
    if (io_writer_open(&w, path) != 0) return -1;
    return io_writer_finish(&w, io_put(&w, data, n));
}

/* io/formats.c — the format table (from io.h's TL_FILE_FORMAT_LIST): a path's format by extension or magic, and loading through it */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "internal.h"

/* The columns as a row's fields. */
#define HOLDS_TENSOR TL_FORMAT_ONE
#define HOLDS_DICT 0
#define HOLDS_DICT_META TL_FORMAT_META
#define WRITES_RW TL_FORMAT_WRITES
#define WRITES_RO 0
#define SAVER_RW(S) io_##S##_save
#define SAVER_RO(S) NULL
#define ROW(arg, S, NOUN, MAGIC, MAGIC2, HOLDS, SAVE, FLAGS, LONE) \
    { "." #S, NOUN, { MAGIC, MAGIC2 }, HOLDS_##HOLDS | WRITES_##SAVE | (FLAGS), LONE, io_##S##_load, SAVER_##SAVE(S) },

static const tl_format formats[] = { TL_FILE_FORMAT_LIST(ROW, _) };
#define NFORMATS (sizeof formats / sizeof *formats)

/* Bytes read to tell a format by its magic: more than any magic holds. */
#define SNIFF_BYTES 16

const tl_format *tl_format_of(const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < NFORMATS; i++) {
        size_t k = strlen(formats[i].ext);
        if (n >= k && strcasecmp(path + n - k, formats[i].ext) == 0) return &formats[i];
    }
    return NULL;
}

/* The format the first bytes of a file announce, else NULL. */
static const tl_format *sniff(const char *path)
{
    uint8_t head[SNIFF_BYTES] = { 0 };
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    ssize_t k = read(fd, head, sizeof head);
    close(fd);
    for (size_t i = 0; i < NFORMATS; i++)
        for (int m = 0; m < 2; m++) {
            const char *magic = formats[i].magic[m];
            size_t len = magic ? strlen(magic) : 0;
            if (len && k >= (ssize_t)len && memcmp(head, magic, len) == 0) return &formats[i];
        }
    return NULL;
}

const char *tl_format_exts(char *buf, size_t n, unsigned mask, unsigned want)
{
    size_t count = 0, total = 0, o = 0;
    for (size_t i = 0; i < NFORMATS; i++) total += (formats[i].flags & mask) == want;
    buf[0] = '\0';
    for (size_t i = 0; i < NFORMATS && o < n; i++) {
        if ((formats[i].flags & mask) != want) continue;
        const char *sep = count == 0 ? "" : count + 1 == total ? " or " : ", ";
        int k = snprintf(buf + o, n - o, "%s%s", sep, formats[i].ext);
        o += k > 0 ? (size_t)k : 0;
        count++;
    }
    return buf;
}

/* Loads through the row the extension, else the magic, picks. */
static tl_file *load(const char *path, bool meta_only)
{
    const tl_format *fmt = tl_format_of(path);
    if (!fmt) fmt = sniff(path);
    if (!fmt) {
        io_src s;
        if (io_open(&s, path) == 0) {   /* else its error says why the file cannot be opened */
            char exts[256];
            io_close(&s);
            io_fail_path(path, "unknown file type (expected %s)", tl_format_exts(exts, sizeof exts, 0, 0));
        }
        return NULL;
    }
    tl_file *f = fmt->load(path, meta_only);
    if (f) f->format = fmt;
    return f;
}

tl_file *tl_load(const char *path) { return load(path, false); }

int tl_load_meta(const char *path, uint8_t **out, size_t *len)
{
    tl_file *f = load(path, true);
    if (!f) return -1;
    *out = f->meta;
    *len = f->meta_len;
    f->meta = NULL;
    tl_file_free(f);
    return 0;
}

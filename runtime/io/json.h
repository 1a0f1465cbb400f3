/* io/json.h — a small strict JSON reader (for safetensors headers) */
#ifndef TL_IO_JSON_H
#define TL_IO_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ } json_kind;

typedef struct json {
    json_kind kind;
    bool b;
    bool is_uint;            /* NUM: a non-negative integer that fits 64 bits */
    bool negative;           /* NUM: starts with '-' */
    uint64_t u;
    char *s;                 /* STR: decoded UTF-8, NUL-terminated */
    size_t len;
    int64_t n;               /* ARR, OBJ */
    struct json *items;
    char **keys;             /* OBJ */
    size_t *keylens;
} json;

/* Parses n bytes (surrounding whitespace allowed); -1 with "PATH: ..." set on error. */
int io_json_parse(const char *path, const char *text, size_t n, json *out);
void io_json_free(json *v);

#endif

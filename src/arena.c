/* arena.c — bump allocator for syntax trees: many small zeroed blocks, freed all at once */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

#define ARENA_ALIGN 16
#define ARENA_CHUNK (64 * 1024)

/* One malloc'd block; data follows the header, aligned to ARENA_ALIGN. */
typedef struct Chunk {
    struct Chunk *next;
    size_t size, used;
    _Alignas(ARENA_ALIGN) unsigned char data[];
} Chunk;

struct Arena {
    Chunk *head;   /* the chunk being filled; older ones follow */
};

Arena *arena_new(void)
{
    return calloc(1, sizeof(Arena));
}

static Chunk *chunk_new(size_t size)
{
    if (size > SIZE_MAX - sizeof(Chunk)) return NULL;
    Chunk *c = malloc(sizeof(Chunk) + size);
    if (!c) return NULL;
    c->next = NULL;
    c->size = size;
    c->used = 0;
    return c;
}

void *arena_alloc(Arena *a, size_t n)
{
    if (!a) return NULL;
    if (n == 0) n = 1;
    if (n > SIZE_MAX - ARENA_ALIGN) return NULL;
    size_t need = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    Chunk *c = a->head;
    if (!c || c->size - c->used < need) {
        if (need > ARENA_CHUNK / 4) {
            /* A big block gets a chunk of its own, behind the current one, so the
               current chunk's free space is not wasted. */
            Chunk *big = chunk_new(need);
            if (!big) return NULL;
            if (c) { big->next = c->next; c->next = big; }
            else a->head = big;
            big->used = need;
            memset(big->data, 0, need);
            return big->data;
        }
        c = chunk_new(ARENA_CHUNK);
        if (!c) return NULL;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += need;
    memset(p, 0, need);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    if (n == SIZE_MAX) return NULL;
    char *d = arena_alloc(a, n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void arena_free(Arena *a)
{
    if (!a) return;
    for (Chunk *c = a->head; c;) {
        Chunk *next = c->next;
        free(c);
        c = next;
    }
    free(a);
}

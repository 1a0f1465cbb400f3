/* fuzz_parse.c — libFuzzer target: program text through the lexer, the parser and the resolver */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "interp.h"
#include "lexer.h"

static FILE *devnull;

/* Decoded string literals go to the arena, as when the parser lexes. */
static void *lex_alloc(void *arena, size_t n) { return arena_alloc(arena, n); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_limits();
    devnull = fopen("/dev/null", "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The lexer alone, to the end: every token's fields are read, as the parser would. */
    char *text = malloc(size + 1);
    Arena *arena = arena_new();
    if (!text || !arena) abort();
    memcpy(text, data, size);
    text[size] = 0;
    Lexer lx;
    lexer_init(&lx, text, size);
    lexer_set_alloc(&lx, lex_alloc, arena);
    size_t bytes = 0;
    for (;;) {
        Token t = lexer_next(&lx);
        if (t.kind == TK_EOF) break;
        bytes += t.len + (t.kind == TK_STRING ? t.slen : 0);
        if (t.kind == TK_ERROR && !t.error) abort();   /* an error token always says what is wrong */
        if (t.start < text || t.start + t.len > text + size) abort();
    }
    (void)bytes;
    arena_free(arena);
    free(text);

    /* Then parse and resolve, and show the error (with its source line and caret) if any. */
    Interp *I = interp_new();
    Source *src = source_new("fuzz.tl", (const char *)data, size);
    if (!I || !src) abort();
    ParseResult pr;
    if (!interp_parse(I, src, &pr)) diag_print(devnull, &I->err);
    source_release(src);
    interp_free(I);
    return 0;
}

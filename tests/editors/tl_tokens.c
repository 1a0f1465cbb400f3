/* tl_tokens.c — what each byte of a .tl file is to tl's own lexer: the oracle the editor grammars
   are checked against (tests/editors/check_grammars.py).

   Usage: tl_tokens FILE.tl... For each file, one line: one character per byte of the file:
     s  in a string literal (quotes and prefix included; an f-string's text outside its fields)
     c  in a comment (from '#' to the end of its line)
     n  in a number literal
     k  in a keyword (fn, if, true, none, and, ...)
     o  in any other token (a name, an operator, a bracket)
     .  not judged: white space, an invalid token, an f-string field's braces, conversion and
        format spec (a grammar may call them string or code), and a BOM
   An f-string field's expression is lexed again, as the parser does, so its strings and numbers
   are judged as such. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstring.h"
#include "lexer.h"

static void mark(char *cats, const char *base, const char *from, const char *to, char c)
{
    memset(cats + (from - base), c, (size_t)(to - from));
}

static void lex_code(char *cats, const char *base, const char *text, size_t len);

/* Comments in the gap [from, to) between two tokens: white space and comments only, as the lexer skips them. */
static void mark_gap(char *cats, const char *base, const char *from, const char *to)
{
    for (const char *p = from; p < to; p++) {
        if (*p != '#') continue;
        const char *e = memchr(p, '\n', (size_t)(to - p));
        if (!e) e = to;
        mark(cats, base, p, e, 'c');
        p = e;
    }
}

/* The parts of an f-string body or spec [s, end) at level (0: the body): text as string (level 0)
   or unjudged (a spec), each field's expression lexed as code, nested specs likewise. */
static void mark_fstring_parts(char *cats, const char *base, const char *s, const char *end, bool raw, int level)
{
    FsScan sc = { s, end, level, raw, NULL, NULL };
    const char *t, *te;
    FsField f;
    FsItem it;
    while ((it = fs_next(&sc, &t, &te, &f)) != FS_END && it != FS_ERROR) {
        if (it == FS_TEXT) {
            if (level == 0) mark(cats, base, t, te, 's');
            continue;
        }
        lex_code(cats, base, f.expr, (size_t)(f.expr_end - f.expr));
        if (f.spec) mark_fstring_parts(cats, base, f.spec, f.spec_end, raw, level + 1);
    }
}

/* An f-string token [s, e): its prefix and quotes are string, its body by parts. */
static void mark_fstring(char *cats, const char *base, const char *s, const char *e)
{
    const char *q = s;
    bool raw = false;
    while (*q != '"' && *q != '\'') raw |= *q == 'r' || *q == 'R', q++;
    mark(cats, base, s, q + 1, 's');
    mark(cats, base, e - 1, e, 's');
    mark_fstring_parts(cats, base, q + 1, e - 1, raw, 0);
}

/* Lexes text[0, len) (which lies in the file at text) and marks its tokens and comments. */
static void lex_code(char *cats, const char *base, const char *text, size_t len)
{
    char *copy = malloc(len + 1);   /* the lexer needs a NUL after the text */
    if (!copy) exit(2);
    memcpy(copy, text, len);
    copy[len] = 0;
    Lexer lx;
    lexer_init(&lx, copy, len);
    const char *prev = copy + (lx.cur - (const unsigned char *)copy);
    for (;;) {
        Token t = lexer_next(&lx);
        const char *s = text + (t.start - copy), *e = s + t.len;
        mark_gap(cats, base, text + (prev - copy), t.kind == TK_EOF ? text + len : s);
        if (t.kind == TK_EOF) break;
        free(t.str);
        if (t.kind == TK_STRING) mark(cats, base, s, e, 's');
        else if (t.kind == TK_FSTRING) mark_fstring(cats, base, s, e);
        else if (t.kind == TK_INT || t.kind == TK_FLOAT || t.kind == TK_IMAG) mark(cats, base, s, e, 'n');
        else if ((t.kind >= TK_FN && t.kind <= TK_CATCH) || t.kind == TK_GLOBAL || t.kind == TK_NONLOCAL || t.kind == TK_DEL) mark(cats, base, s, e, 'k');
        else if (t.kind != TK_ERROR && t.kind != TK_NEWLINE) mark(cats, base, s, e, 'o');
        prev = t.start + t.len;
    }
    free(copy);
}

/* Prints the line of categories of the file at path; false when it cannot be read. */
static bool print_categories(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return false;
    }
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap && !(text = realloc(text, cap = cap ? 2 * cap : 65536))) exit(2);
        got = fread(text + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    char *cats = malloc(len + 1);
    if (!cats) exit(2);
    memset(cats, '.', len);
    cats[len] = 0;
    lex_code(cats, text, text, len);
    fwrite(cats, 1, len, stdout);
    fputc('\n', stdout);
    free(cats);
    free(text);
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: tl_tokens FILE.tl...\n", stderr);
        return 2;
    }
    for (int i = 1; i < argc; i++)
        if (!print_categories(argv[i])) return 2;
    return 0;
}

/* test_lexer.c — token streams, decoded values, error tokens and positions from the re2c lexer */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(lexer);

/* Appends one token's short form: ints and floats by value, strings quoted, the rest by kind. */
static void show_token(FILE *out, const Token *t)
{
    switch (t->kind) {
    case TK_INT: fprintf(out, "%lld", (long long)t->ival); break;
    case TK_FLOAT: fprintf(out, "%.17g", t->fval); break;
    case TK_IMAG: fprintf(out, "%.17gj", t->fval); break;
    case TK_STRING:
        fputc('<', out);
        fwrite(t->str, 1, t->slen, out);
        fputc('>', out);
        break;
    case TK_NAME: fprintf(out, "%.*s", (int)t->len, t->start); break;
    case TK_NEWLINE: fputs("NL", out); break;
    case TK_EOF: fputs("EOF", out); break;
    case TK_ERROR: fprintf(out, "ERROR(%s)", t->error); break;
    default: {
        const char *name = token_kind_name(t->kind);   /* "'('" -> ( */
        fprintf(out, "%.*s", (int)strlen(name) - 2, name + 1);
    }
    }
}

/* All tokens of text[0..len) up to EOF or the first error, space-separated. */
static char *lex_n(const char *text, size_t len)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    Lexer lx;
    lexer_init(&lx, text, len);
    for (int i = 0;; i++) {
        Token t = lexer_next(&lx);
        if (i) fputc(' ', out);
        show_token(out, &t);
        if (t.kind == TK_STRING) free(t.str);
        if (t.kind == TK_EOF || t.kind == TK_ERROR) break;
    }
    fclose(out);
    return buf;
}

static char *lex(const char *text) { return lex_n(text, strlen(text)); }

#define expect_tokens(text, expected) \
    do { \
        char *got_ = lex(text); \
        cr_assert_str_eq(got_, expected, "lexing [%s]", text); \
        free(got_); \
    } while (0)

/* The first token of text that is an error (or EOF). */
static Token first_error(const char *text, size_t len)
{
    Lexer lx;
    lexer_init(&lx, text, len);
    for (;;) {
        Token t = lexer_next(&lx);
        if (t.kind == TK_STRING) free(t.str);
        if (t.kind == TK_ERROR || t.kind == TK_EOF) return t;
    }
}

Test(lexer, integers_in_every_base)
{
    expect_tokens("42 0x2a 0X2A 0b101 0B11 1_000_000 0 007", "42 42 42 5 3 1000000 0 7 EOF");
    expect_tokens("0xdead_beef", "3735928559 EOF");
}

Test(lexer, integer_limits)
{
    expect_tokens("9223372036854775807", "9223372036854775807 EOF");
    expect_tokens("0x7fffffffffffffff", "9223372036854775807 EOF");
    expect_tokens("9223372036854775808", "ERROR(integer literal too large)");
    expect_tokens("0x8000000000000000", "ERROR(integer literal too large)");
    expect_tokens("0b" "1000000000000000000000000000000000000000000000000000000000000000",
                  "ERROR(integer literal too large)");
    expect_tokens("99999999999999999999999", "ERROR(integer literal too large)");
}

Test(lexer, floats)
{
    expect_tokens("1.5 .5 1e-3 2. 2.e3 1E+2 1_0.2_5", "1.5 0.5 0.001 2 2000 100 10.25 EOF");
    expect_tokens("1e999", "inf EOF");
    Lexer lx;
    lexer_init(&lx, "0.1", 3);
    cr_assert_eq(lexer_next(&lx).fval, 0.1);
}

Test(lexer, imaginary)
{
    expect_tokens("2j 1.5e3j .5j 1.j 3J", "2j 1500j 0.5j 1j 3j EOF");
}

Test(lexer, number_followed_by_name_char_is_an_error)
{
    expect_tokens("1__0", "ERROR(invalid number literal)");
    expect_tokens("1_", "ERROR(invalid number literal)");
    expect_tokens("0x", "ERROR(invalid number literal)");
    expect_tokens("0b12", "ERROR(invalid number literal)");
    expect_tokens("12abc", "ERROR(invalid number literal)");
    expect_tokens("1e", "ERROR(invalid number literal)");
    expect_tokens("2jj", "ERROR(invalid number literal)");
    expect_tokens("2.T", "ERROR(invalid number literal)");
    expect_tokens("0x_1", "ERROR(invalid number literal)");
}

Test(lexer, slices_and_dots_next_to_numbers)
{
    expect_tokens("a[1:2]", "a [ 1 : 2 ] EOF");
    expect_tokens("a[::-1]", "a [ : : - 1 ] EOF");
    expect_tokens("a[..., 0]", "a [ ... , 0 ] EOF");
    expect_tokens("x.T.shape", "x . T . shape EOF");
    expect_tokens("1..2", "1 0.20000000000000001 EOF");
}

Test(lexer, names_and_keywords)
{
    expect_tokens("fn return if else while for in break continue true false none and or not",
                  "fn return if else while for in break continue true false none and or not EOF");
    expect_tokens("fnx if_ _x None True x2 _", "fnx if_ _x None True x2 _ EOF");
    Lexer lx;
    lexer_init(&lx, "fn fnord", 8);
    cr_assert_eq(lexer_next(&lx).kind, TK_FN);
    cr_assert_eq(lexer_next(&lx).kind, TK_NAME);
}

Test(lexer, every_operator)
{
    expect_tokens("; ( ) [ ] { } , : . ... = += -= *= /= @= + - * / // % @ ** == != < <= > >= & | ~",
                  "; ( ) [ ] { } , : . ... = += -= *= /= @= + - * / // % @ ** == != < <= > >= & | ~ EOF");
    expect_tokens("a**-b//c", "a ** - b // c EOF");
    expect_tokens("x<=y>=z==w!=v", "x <= y >= z == w != v EOF");
    Lexer lx;
    lexer_init(&lx, "**=", 3);
    cr_assert_eq(lexer_next(&lx).kind, TK_DSTAR);
    cr_assert_eq(lexer_next(&lx).kind, TK_ASSIGN);
}

Test(lexer, comments_and_newlines)
{
    expect_tokens("x # comment\ny", "x NL y EOF");
    expect_tokens("# only a comment", "EOF");
    expect_tokens("a\r\nb", "a NL b EOF");
    expect_tokens("\n\n", "NL NL EOF");
    /* anything but a newline may sit in a comment */
    expect_tokens("x # caf\xc3\xa9 \xff\xfe\n1", "x NL 1 EOF");
    char with_nul[] = "x # a\0b\ny";
    char *got = lex_n(with_nul, sizeof with_nul - 1);
    cr_assert_str_eq(got, "x NL y EOF");
    free(got);
}

Test(lexer, string_escapes)
{
    expect_tokens("\"a\\nb\"", "<a\nb> EOF");
    expect_tokens("'tab\\there'", "<tab\there> EOF");
    expect_tokens("'it\\'s' \"q\\\"q\" 'back\\\\slash'", "<it's> <q\"q> <back\\slash> EOF");
    expect_tokens("'say \"hi\"' \"it's\"", "<say \"hi\"> <it's> EOF");
    expect_tokens("'' \"\"", "<> <> EOF");
}

Test(lexer, string_bytes_pass_through)
{
    expect_tokens("\"caf\xc3\xa9 \xff\"", "<caf\xc3\xa9 \xff> EOF");
    char with_nul[] = "'a\0b'";
    Lexer lx;
    lexer_init(&lx, with_nul, sizeof with_nul - 1);
    Token t = lexer_next(&lx);
    cr_assert_eq(t.kind, TK_STRING);
    cr_assert_eq(t.slen, 3);
    cr_assert_eq(memcmp(t.str, "a\0b", 3), 0);
    free(t.str);
    cr_assert_eq(lexer_next(&lx).kind, TK_EOF);
}

Test(lexer, pythons_escapes)
{
    expect_tokens("'\\r\\a\\b\\f\\v'", "<\r\a\b\f\v> EOF");
    expect_tokens("'\\x41\\101\\u00e9\\U0001F600'", "<AA\xc3\xa9\xf0\x9f\x98\x80> EOF");
    expect_tokens("'a\\\nb' 'c\\\r\nd'", "<ab> <cd> EOF");   /* a backslash before a line end: both gone */
    expect_tokens("'\\udcff'", "<\xff> EOF");                       /* a raw byte, as chr(0xDCFF) */
    Lexer lx;
    lexer_init(&lx, "'\\0\\08'", 7);   /* octal: \0, then \0 and a digit that is not octal */
    Token nul = lexer_next(&lx);
    cr_assert_eq(nul.kind, TK_STRING);
    cr_assert_eq(nul.slen, 3);
    cr_assert_eq(memcmp(nul.str, "\0\0" "8", 3), 0);
    free(nul.str);
    Token t = first_error("x = '\\x4'", 10);
    cr_assert(strstr(t.error, "truncated \\xXX escape"), "%s", t.error);
    cr_assert_eq(t.col, 6);
    t = first_error("'\\ud800'", 8);
    cr_assert(strstr(t.error, "surrogate"), "%s", t.error);
    t = first_error("'\\U00110000'", 12);
    cr_assert(strstr(t.error, "illegal Unicode character"), "%s", t.error);
    t = first_error("'\\N{DASH}'", 10);
    cr_assert(strstr(t.error, "\\N{...}"), "%s", t.error);
}

Test(lexer, strings_may_span_lines)
{
    Lexer lx;
    const char *src = "'a\nb' x";
    lexer_init(&lx, src, strlen(src));
    Token s = lexer_next(&lx);
    cr_assert_eq(s.kind, TK_STRING);
    cr_assert_str_eq(s.str, "a\nb");
    cr_assert_eq(s.line, 1);
    cr_assert_eq(s.col, 1);
    free(s.str);
    Token x = lexer_next(&lx);
    cr_assert_eq(x.line, 2);
    cr_assert_eq(x.col, 4);
}

Test(lexer, unterminated_strings)
{
    expect_tokens("\"abc", "ERROR(unterminated string)");
    expect_tokens("x = 'abc", "x = ERROR(unterminated string)");
    expect_tokens("'abc\\'", "ERROR(unterminated string)");
    expect_tokens("'abc\\", "ERROR(unterminated string)");
    expect_tokens("\"abc'", "ERROR(unterminated string)");
    Token t = first_error("x = 'abc", 8);
    cr_assert_eq(t.col, 5);
}

Test(lexer, unknown_escape_points_at_backslash)
{
    Token t = first_error("x = \"a\\qb\"", 10);
    cr_assert_eq(t.kind, TK_ERROR);
    cr_assert(strstr(t.error, "unknown escape sequence"), "%s", t.error);
    cr_assert_eq(t.line, 1);
    cr_assert_eq(t.col, 7);
    t = first_error("'line1\nab\\q'", 12);
    cr_assert_eq(t.kind, TK_ERROR);
    cr_assert_eq(t.line, 2);
    cr_assert_eq(t.col, 3);
}

Test(lexer, invalid_characters)
{
    expect_tokens("a ! b", "a ERROR(invalid character)");
    expect_tokens("$", "ERROR(invalid character)");
    expect_tokens("x = caf\xc3\xa9", "x = caf ERROR(invalid character)");
    expect_tokens("\xff", "ERROR(invalid character)");
    expect_tokens("\\", "ERROR(invalid character)");
    char with_nul[] = "a\0b";
    char *got = lex_n(with_nul, 3);
    cr_assert_str_eq(got, "a ERROR(invalid character)");
    free(got);
    Token t = first_error(with_nul, 3);
    cr_assert_eq(t.col, 2);
}

Test(lexer, line_and_column)
{
    const char *src = "a\n  bb = 12\n\tc";
    Lexer lx;
    lexer_init(&lx, src, strlen(src));
    int expect[][3] = {
        { TK_NAME, 1, 1 }, { TK_NEWLINE, 1, 2 }, { TK_NAME, 2, 3 }, { TK_ASSIGN, 2, 6 },
        { TK_INT, 2, 8 }, { TK_NEWLINE, 2, 10 }, { TK_NAME, 3, 2 }, { TK_EOF, 3, 3 },
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        Token t = lexer_next(&lx);
        cr_assert_eq((int)t.kind, expect[i][0], "token %zu", i);
        cr_assert_eq(t.line, expect[i][1], "token %zu line", i);
        cr_assert_eq(t.col, expect[i][2], "token %zu col", i);
    }
}

Test(lexer, token_text_and_length)
{
    Lexer lx;
    lexer_init(&lx, "  foo_1+", 8);
    Token t = lexer_next(&lx);
    cr_assert_eq(t.len, 5);
    cr_assert_eq(strncmp(t.start, "foo_1", 5), 0);
}

Test(lexer, eof_repeats)
{
    Lexer lx;
    lexer_init(&lx, "x", 1);
    lexer_next(&lx);
    for (int i = 0; i < 3; i++) cr_assert_eq(lexer_next(&lx).kind, TK_EOF);
}

Test(lexer, byte_order_mark_is_skipped)
{
    expect_tokens("\xef\xbb\xbfx = 1", "x = 1 EOF");
    Lexer lx;
    lexer_init(&lx, "\xef\xbb\xbf  y", 6);
    Token t = lexer_next(&lx);
    cr_assert_eq(t.kind, TK_NAME);
    cr_assert_eq(t.col, 3);
}

/* A bump allocator over a fixed pool, counting its calls. */
typedef struct Pool {
    char bytes[256];
    size_t used;
    int calls;
} Pool;

static void *pool_alloc(void *ctx, size_t n)
{
    Pool *pool = ctx;
    pool->calls++;
    if (pool->used + n > sizeof pool->bytes) return NULL;
    void *p = pool->bytes + pool->used;
    pool->used += n;
    return p;
}

Test(lexer, strings_go_to_the_given_allocator)
{
    Pool pool = { .used = 0 };
    Lexer lx;
    lexer_init(&lx, "'abc' \"de\"", 10);
    lexer_set_alloc(&lx, pool_alloc, &pool);
    Token t = lexer_next(&lx);
    cr_assert_eq(pool.calls, 1);
    cr_assert(t.str >= pool.bytes && t.str < pool.bytes + sizeof pool.bytes);
    cr_assert_str_eq(t.str, "abc");
    t = lexer_next(&lx);
    cr_assert_eq(pool.calls, 2);
    cr_assert_str_eq(t.str, "de");
}

Test(lexer, failed_string_allocation_is_an_error_token)
{
    Pool pool = { .used = sizeof pool.bytes };
    Lexer lx;
    lexer_init(&lx, "'abc'", 5);
    lexer_set_alloc(&lx, pool_alloc, &pool);
    Token t = lexer_next(&lx);
    cr_assert_eq(t.kind, TK_ERROR);
    cr_assert_str_eq(t.error, "out of memory");
}

Test(lexer, megabyte_line)
{
    size_t n = 1 << 20;
    char *src = malloc(n + 8);
    src[0] = 'x';
    src[1] = '=';
    src[2] = '"';
    memset(src + 3, 'a', n);
    src[n + 3] = '"';
    src[n + 4] = ' ';
    src[n + 5] = 'y';
    src[n + 6] = '\0';
    Lexer lx;
    lexer_init(&lx, src, n + 6);
    lexer_next(&lx);
    lexer_next(&lx);
    Token s = lexer_next(&lx);
    cr_assert_eq(s.kind, TK_STRING);
    cr_assert_eq(s.slen, n);
    free(s.str);
    Token y = lexer_next(&lx);
    cr_assert_eq(y.kind, TK_NAME);
    cr_assert_eq(y.col, (int)n + 6);
    free(src);

    /* half a million tokens on one line */
    src = malloc(n + 1);
    for (size_t i = 0; i < n; i += 2) { src[i] = '1'; src[i + 1] = '+'; }
    src[n] = '\0';
    lexer_init(&lx, src, n);
    size_t count = 0;
    Token t;
    while ((t = lexer_next(&lx)).kind != TK_EOF) {
        cr_assert_neq(t.kind, TK_ERROR);
        count++;
    }
    cr_assert_eq(count, n);
    cr_assert_eq(t.col, (int)n + 1);
    free(src);
}

Test(lexer, kind_names)
{
    cr_assert_str_eq(token_kind_name(TK_RPAREN), "')'");
    cr_assert_str_eq(token_kind_name(TK_EOF), "end of input");
    cr_assert_str_eq(token_kind_name(TK_NAME), "name");
    cr_assert_str_eq(token_kind_name(TK_DSTAR), "'**'");
    for (int k = 0; k < TK_COUNT; k++) cr_assert_not_null(token_kind_name((TokenKind)k));
}

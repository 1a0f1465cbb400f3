/* lexer.h — the lexer's API: program text to tokens, one at a time */
#ifndef TL_LEXER_H
#define TL_LEXER_H

#include <stddef.h>
#include <stdint.h>

#include "token.h"

/* Allocator for decoded string literals (an arena, typically); NULL means malloc. */
typedef void *(*LexAllocFn)(void *ctx, size_t n);

typedef struct Lexer {
    const unsigned char *cur;         /* next byte to read */
    const unsigned char *lim;         /* text + len; *lim is the '\0' sentinel */
    const unsigned char *line_start;  /* first byte of the current line, for columns */
    int32_t line;
    LexAllocFn alloc;
    void *alloc_ctx;
} Lexer;

/* Starts lexing text[0..len). text[len] must be '\0' (re2c stops on it); NUL bytes
   before len are lexed as "invalid character". A leading UTF-8 byte-order mark is skipped. */
void lexer_init(Lexer *lx, const char *text, size_t len);

/* Decoded strings (Token.str) come from alloc(ctx, n) instead of malloc. */
void lexer_set_alloc(Lexer *lx, LexAllocFn alloc, void *ctx);

/* The next token. After the end of text it returns TK_EOF forever. A TK_ERROR token
   carries its message in `error` and its position at the offending byte. */
Token lexer_next(Lexer *lx);

/* The message for a string never closed: the shell reads on when an entry ends inside one. */
#define LEX_UNTERMINATED "unterminated string"
/* The message for x' (a string opened straight after a value, never closed): a habit from Octave. */
#define LEX_TRANSPOSE_HABIT "unterminated string: ' after a value starts a string in tl; the transpose is x.T"

/* The messages for an escape a string literal may not hold: one Python does not know (Python
   keeps its backslash; tl refuses it), and Python's malformed ones. */
#define LEX_BAD_ESCAPE "unknown escape sequence (Python's are \\n \\t \\r \\\\ \\' \\\" \\a \\b \\f \\v \\ooo \\xhh \\uXXXX \\UXXXXXXXX; a backslash is \\\\)"
#define LEX_TRUNCATED_X "truncated \\xXX escape"
#define LEX_TRUNCATED_U "truncated \\uXXXX escape"
#define LEX_TRUNCATED_UU "truncated \\UXXXXXXXX escape"
#define LEX_BAD_CODE_POINT "illegal Unicode character (past \\U0010FFFF)"
#define LEX_SURROGATE "a surrogate (\\ud800 to \\udfff) is no character; \\udc80 to \\udcff stand for the raw bytes 0x80 to 0xff"
#define LEX_NAMED_ESCAPE "\\N{...} escapes are not supported: write the character itself, or \\uXXXX"

/* The first escape in s[0..n) that string literals do not know or that is malformed (its
   backslash), its message in *msg; or NULL. Python's escapes are known: \n \t \r \\ \' \"
   \a \b \f \v, \ooo (octal), \xhh, \uXXXX and \UXXXXXXXX (the code point; \udc80 to \udcff a raw
   byte), and a backslash before a newline (both dropped). */
const char *lexer_bad_escape(const char *s, size_t n, const char **msg);
/* Decodes the escapes of s[0..n) (checked by lexer_bad_escape) into out (n bytes suffice);
   returns the decoded length. */
size_t lexer_unescape(const char *s, size_t n, char *out);

#endif

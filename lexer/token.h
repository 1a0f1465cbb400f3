/* token.h — token kinds produced by the re2c lexer */
#ifndef TL_TOKEN_H
#define TL_TOKEN_H

#include <stddef.h>
#include <stdint.h>

typedef enum TokenKind {
    TK_EOF, TK_ERROR, TK_NEWLINE, TK_SEMI,
    TK_INT, TK_FLOAT, TK_IMAG, TK_STRING, TK_NAME,
    /* keywords */
    TK_FN, TK_RETURN, TK_IF, TK_ELSE, TK_WHILE, TK_FOR, TK_IN, TK_BREAK, TK_CONTINUE,
    TK_TRUE, TK_FALSE, TK_NONE, TK_AND, TK_OR, TK_NOT, TK_TRY, TK_CATCH,
    /* punctuation */
    TK_LPAREN, TK_RPAREN, TK_LBRACKET, TK_RBRACKET, TK_LBRACE, TK_RBRACE,
    TK_COMMA, TK_COLON, TK_DOT, TK_ELLIPSIS,
    TK_ASSIGN,                                   /* = */
    TK_PLUS_ASSIGN, TK_MINUS_ASSIGN, TK_STAR_ASSIGN, TK_SLASH_ASSIGN, TK_AT_ASSIGN,
    TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_DSLASH, TK_PERCENT, TK_AT, TK_DSTAR,
    TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE,
    TK_AMP, TK_PIPE, TK_TILDE, TK_CARET, TK_SHL, TK_SHR,
    TK_FSTRING,                                  /* f"...": start/len span it, prefix and quotes included */
    /* keywords added with section 13 (kept last so the kinds above keep their numbers) */
    TK_GLOBAL, TK_NONLOCAL, TK_DEL,
    TK_COUNT
} TokenKind;

typedef struct Token {
    TokenKind kind;
    const char *start;      /* into the source text */
    size_t len;
    int32_t line, col;      /* 1-based; col counts bytes */
    /* decoded values */
    int64_t ival;           /* TK_INT */
    double fval;            /* TK_FLOAT, TK_IMAG */
    char *str;              /* TK_STRING: decoded, malloc'd by the lexer's arena callback */
    size_t slen;
    const char *error;      /* TK_ERROR: message ("unterminated string", "invalid character") */
} Token;

/* Spelling of a token kind for messages: "')'", "end of input", "name". */
const char *token_kind_name(TokenKind k);

#endif

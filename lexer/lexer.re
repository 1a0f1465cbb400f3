/* lexer.re — re2c source of the lexer: bytes to tokens (numbers, strings, names, operators) */
#include <locale.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "utf8.h"

typedef const unsigned char *Pos;

void lexer_init(Lexer *lx, const char *text, size_t len)
{
    Pos p = (Pos)text;
    lx->lim = p + len;
    lx->line = 1;
    lx->alloc = NULL;
    lx->alloc_ctx = NULL;
    if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) p += 3;
    lx->cur = p;
    lx->line_start = p;   /* the invisible mark takes no column, so carets line up */
}

void lexer_set_alloc(Lexer *lx, LexAllocFn alloc, void *ctx)
{
    lx->alloc = alloc;
    lx->alloc_ctx = ctx;
}

static int32_t column_of(const Lexer *lx, Pos at)
{
    size_t col = (size_t)(at - lx->line_start) + 1;
    return col > INT32_MAX ? INT32_MAX : (int32_t)col;
}

static Token make_token(const Lexer *lx, TokenKind kind, Pos start, Pos end)
{
    Token t = {0};
    t.kind = kind;
    t.start = (const char *)start;
    t.len = (size_t)(end - start);
    t.line = lx->line;
    t.col = column_of(lx, start);
    return t;
}

/* Moves the lexer to `end`, counting the newlines in [cur, end) (only strings hold them). */
static void advance_to(Lexer *lx, Pos end)
{
    Pos p = lx->cur;
    while (p < end) {
        Pos nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break;
        lx->line++;
        lx->line_start = nl + 1;
        p = nl + 1;
    }
    lx->cur = end;
}

/* An error token spanning [start, end) whose position is the offending byte `at`;
   the lexer resumes after `end`. */
static Token error_token(Lexer *lx, Pos start, Pos at, Pos end, const char *msg)
{
    advance_to(lx, at);
    Token t = make_token(lx, TK_ERROR, start, end);
    t.line = lx->line;
    t.col = column_of(lx, at);
    t.error = msg;
    advance_to(lx, end);
    return t;
}

/* A string that is never closed, reported at its opening quote; a ' straight after a name or a
   closing bracket is Octave's and MATLAB's transpose (x'), which tl spells x.T. */
static Token unterminated_string(Lexer *lx, Pos start)
{
    unsigned char prev = start > lx->line_start ? start[-1] : ' ';
    bool name_end = ((prev | 0x20) >= 'a' && (prev | 0x20) <= 'z') || (prev >= '0' && prev <= '9') || prev == '_';
    bool after_value = *start == '\'' && (name_end || prev == ')' || prev == ']');
    return error_token(lx, start, start, lx->lim, after_value ? LEX_TRANSPOSE_HABIT : LEX_UNTERMINATED);
}

static int digit_value(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}

/* An integer literal in [s, e): base 10, or 16/2 after a 0x/0b prefix; '_' separators skipped. */
static Token int_token(Lexer *lx, Pos s, Pos e, int base)
{
    uint64_t v = 0;
    for (Pos p = base == 10 ? s : s + 2; p < e; p++) {
        if (*p == '_') continue;
        unsigned d = (unsigned)digit_value(*p);
        if (v > ((uint64_t)INT64_MAX - d) / (unsigned)base)
            return error_token(lx, s, s, e, "integer literal too large");
        v = v * (unsigned)base + d;
    }
    Token t = make_token(lx, TK_INT, s, e);
    t.ival = (int64_t)v;
    lx->cur = e;
    return t;
}

/* Floats always use '.', whatever LC_NUMERIC the program (or readline) has set. */
static double c_strtod(const char *s, char **end)
{
    static locale_t c_loc;
    if (!c_loc) c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    return c_loc ? strtod_l(s, end, c_loc) : strtod(s, end);
}

/* Parses the float digits in [s, e) without their '_' separators; false when out of memory. */
static bool float_value(Pos s, Pos e, double *out)
{
    char small[64];
    size_t n = (size_t)(e - s);
    char *buf = n < sizeof small ? small : malloc(n + 1);
    if (!buf) return false;
    size_t k = 0;
    for (Pos p = s; p < e; p++)
        if (*p != '_') buf[k++] = (char)*p;
    buf[k] = '\0';
    *out = c_strtod(buf, NULL);
    if (buf != small) free(buf);
    return true;
}

static Token float_token(Lexer *lx, TokenKind kind, Pos s, Pos e)
{
    double v;
    Pos digits_end = kind == TK_IMAG ? e - 1 : e;   /* drop the 'j' */
    if (!float_value(s, digits_end, &v)) return error_token(lx, s, s, e, "out of memory");
    Token t = make_token(lx, kind, s, e);
    t.fval = v;
    lx->cur = e;
    return t;
}

static void *lex_alloc(Lexer *lx, size_t n)
{
    return lx->alloc ? lx->alloc(lx->alloc_ctx, n) : malloc(n);
}

/* The value of hex digit c, or -1. */
static int hex_value(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* What the escape whose backslash is s[i] gives (Python's escapes): *cp, a code point
   (0xDC80..0xDCFF: the raw byte it stands for, as chr() has them), or ESCAPE_NOTHING for a
   backslash before a line end (\n or \r\n); returns the escape's length in bytes, or 0 with *msg when it is
   none (or a malformed one). */
#define ESCAPE_NOTHING UINT32_MAX
static size_t escape_at(const char *s, size_t n, size_t i, uint32_t *cp, const char **msg)
{
    static const char simple[] = "n\nt\tr\r\\\\''\"\"a\ab\bf\fv\v";
    char c = i + 1 < n ? s[i + 1] : '\0';
    for (const char *p = simple; *p; p += 2)
        if (c == p[0]) return *cp = (unsigned char)p[1], 2;
    if (c == '\n') return *cp = ESCAPE_NOTHING, 2;
    if (c == '\r' && i + 2 < n && s[i + 2] == '\n') return *cp = ESCAPE_NOTHING, 3;   /* a CRLF file's line end */
    if (c >= '0' && c <= '7') {   /* one to three octal digits */
        size_t k = 1;
        uint32_t v = 0;
        for (; k <= 3 && i + k < n && s[i + k] >= '0' && s[i + k] <= '7'; k++) v = v * 8 + (uint32_t)(s[i + k] - '0');
        return *cp = v, k;
    }
    int digits = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
    if (digits) {
        uint32_t v = 0;
        for (int k = 0; k < digits; k++) {
            int h = i + 2 + (size_t)k < n ? hex_value(s[i + 2 + (size_t)k]) : -1;
            if (h < 0) {
                *msg = c == 'x' ? LEX_TRUNCATED_X : c == 'u' ? LEX_TRUNCATED_U : LEX_TRUNCATED_UU;
                return 0;
            }
            v = v * 16 + (uint32_t)h;
        }
        if (v > 0x10FFFF) return *msg = LEX_BAD_CODE_POINT, 0;
        if (v >= 0xD800 && v <= 0xDFFF && !(v >= 0xDC80 && v <= 0xDCFF)) return *msg = LEX_SURROGATE, 0;
        return *cp = v, 2 + (size_t)digits;
    }
    *msg = c == 'N' ? LEX_NAMED_ESCAPE : LEX_BAD_ESCAPE;
    return 0;
}

const char *lexer_bad_escape(const char *s, size_t n, const char **msg)
{
    uint32_t cp;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') continue;
        size_t k = escape_at(s, n, i, &cp, msg);
        if (!k) return s + i;
        i += k - 1;
    }
    return NULL;
}

size_t lexer_unescape(const char *s, size_t n, char *out)
{
    size_t k = 0;
    const char *msg;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp;
        size_t len = s[i] == '\\' ? escape_at(s, n, i, &cp, &msg) : 0;
        if (!len) {
            out[k++] = s[i];
            continue;
        }
        i += len - 1;
        if (cp == ESCAPE_NOTHING) continue;
        if (cp >= 0xDC80 && cp <= 0xDCFF) out[k++] = (char)(cp - 0xDC00);   /* a raw byte */
        else k += tl_utf8_encode(cp, out + k);
    }
    return k;
}

/* A complete quoted string [s, e): checks its escapes, then decodes it into fresh memory. */
static Token string_token(Lexer *lx, Pos s, Pos e)
{
    Pos body = s + 1, body_end = e - 1;
    const char *msg;
    const char *bad = lexer_bad_escape((const char *)body, (size_t)(body_end - body), &msg);
    if (bad) return error_token(lx, s, (Pos)bad, e, msg);
    char *out = lex_alloc(lx, (size_t)(body_end - body) + 1);
    if (!out) return error_token(lx, s, s, e, "out of memory");
    size_t k = lexer_unescape((const char *)body, (size_t)(body_end - body), out);
    out[k] = '\0';
    Token t = make_token(lx, TK_STRING, s, e);
    t.str = out;
    t.slen = k;
    advance_to(lx, e);
    return t;
}

/* A complete f-string [s, e) (its f, rf or fr prefix included): the parser splits it into its
   text and fields (src/fstring.c), so the token carries only its place. */
static Token fstring_token(Lexer *lx, Pos s, Pos e)
{
    Token t = make_token(lx, TK_FSTRING, s, e);
    advance_to(lx, e);
    return t;
}

#define TOKEN(kind) do { lx->cur = YYCURSOR; return make_token(lx, (kind), start, YYCURSOR); } while (0)

Token lexer_next(Lexer *lx)
{
    for (;;) {
        Pos start = lx->cur;
        Pos YYCURSOR = lx->cur, YYMARKER = lx->cur;
        const Pos YYLIMIT = lx->lim;
        /*!re2c
            re2c:define:YYCTYPE = "unsigned char";
            re2c:yyfill:enable = 0;
            re2c:eof = 0;

            dec  = [0-9] ("_"? [0-9])*;
            hex  = "0" [xX] [0-9a-fA-F] ("_"? [0-9a-fA-F])*;
            bin  = "0" [bB] [01] ("_"? [01])*;
            exp  = [eE] [+-]? dec;
            flt  = dec "." dec? exp? | "." dec exp? | dec exp;
            imag = (dec | flt) [jJ];
            name = [A-Za-z_][A-Za-z0-9_]*;

            $                 { lx->cur = YYCURSOR; return make_token(lx, TK_EOF, start, start); }
            [ \t\r\f\v]+      { lx->cur = YYCURSOR; continue; }
            "#" [^\n]*        { lx->cur = YYCURSOR; continue; }
            "\n"              {
                                  Token t = make_token(lx, TK_NEWLINE, start, YYCURSOR);
                                  lx->line++;
                                  lx->line_start = YYCURSOR;
                                  lx->cur = YYCURSOR;
                                  return t;
                              }

            dec               { return int_token(lx, start, YYCURSOR, 10); }
            hex               { return int_token(lx, start, YYCURSOR, 16); }
            bin               { return int_token(lx, start, YYCURSOR, 2); }
            flt               { return float_token(lx, TK_FLOAT, start, YYCURSOR); }
            imag              { return float_token(lx, TK_IMAG, start, YYCURSOR); }
            (dec | hex | bin | flt | imag) [A-Za-z0-9_]
                              { return error_token(lx, start, start, YYCURSOR, "invalid number literal"); }

            ["] ([^"\\] | "\\" [^])* ["]  { return string_token(lx, start, YYCURSOR); }
            ['] ([^'\\] | "\\" [^])* [']  { return string_token(lx, start, YYCURSOR); }
            ["']              { return unterminated_string(lx, start); }

            fpre = [fF] | [rR] [fF] | [fF] [rR];
            fpre ["] ([^"\\] | "\\" [^])* ["]  { return fstring_token(lx, start, YYCURSOR); }
            fpre ['] ([^'\\] | "\\" [^])* [']  { return fstring_token(lx, start, YYCURSOR); }
            fpre ["']         { return unterminated_string(lx, start); }

            "fn"       { TOKEN(TK_FN); }
            "return"   { TOKEN(TK_RETURN); }
            "if"       { TOKEN(TK_IF); }
            "else"     { TOKEN(TK_ELSE); }
            "while"    { TOKEN(TK_WHILE); }
            "for"      { TOKEN(TK_FOR); }
            "in"       { TOKEN(TK_IN); }
            "break"    { TOKEN(TK_BREAK); }
            "continue" { TOKEN(TK_CONTINUE); }
            "true"     { TOKEN(TK_TRUE); }
            "false"    { TOKEN(TK_FALSE); }
            "none"     { TOKEN(TK_NONE); }
            "and"      { TOKEN(TK_AND); }
            "or"       { TOKEN(TK_OR); }
            "not"      { TOKEN(TK_NOT); }
            "try"      { TOKEN(TK_TRY); }
            "catch"    { TOKEN(TK_CATCH); }
            "global"   { TOKEN(TK_GLOBAL); }
            "nonlocal" { TOKEN(TK_NONLOCAL); }
            "del"      { TOKEN(TK_DEL); }
            name       { TOKEN(TK_NAME); }

            ";"   { TOKEN(TK_SEMI); }
            "("   { TOKEN(TK_LPAREN); }
            ")"   { TOKEN(TK_RPAREN); }
            "["   { TOKEN(TK_LBRACKET); }
            "]"   { TOKEN(TK_RBRACKET); }
            "{"   { TOKEN(TK_LBRACE); }
            "}"   { TOKEN(TK_RBRACE); }
            ","   { TOKEN(TK_COMMA); }
            ":"   { TOKEN(TK_COLON); }
            "."   { TOKEN(TK_DOT); }
            "..." { TOKEN(TK_ELLIPSIS); }
            "="   { TOKEN(TK_ASSIGN); }
            "+="  { TOKEN(TK_PLUS_ASSIGN); }
            "-="  { TOKEN(TK_MINUS_ASSIGN); }
            "*="  { TOKEN(TK_STAR_ASSIGN); }
            "/="  { TOKEN(TK_SLASH_ASSIGN); }
            "@="  { TOKEN(TK_AT_ASSIGN); }
            "+"   { TOKEN(TK_PLUS); }
            "-"   { TOKEN(TK_MINUS); }
            "*"   { TOKEN(TK_STAR); }
            "/"   { TOKEN(TK_SLASH); }
            "//"  { TOKEN(TK_DSLASH); }
            "%"   { TOKEN(TK_PERCENT); }
            "@"   { TOKEN(TK_AT); }
            "**"  { TOKEN(TK_DSTAR); }
            "=="  { TOKEN(TK_EQ); }
            "!="  { TOKEN(TK_NE); }
            "<"   { TOKEN(TK_LT); }
            "<="  { TOKEN(TK_LE); }
            ">"   { TOKEN(TK_GT); }
            ">="  { TOKEN(TK_GE); }
            "&"   { TOKEN(TK_AMP); }
            "|"   { TOKEN(TK_PIPE); }
            "^"   { TOKEN(TK_CARET); }
            "<<"  { TOKEN(TK_SHL); }
            ">>"  { TOKEN(TK_SHR); }
            "~"   { TOKEN(TK_TILDE); }

            *     { return error_token(lx, start, start, YYCURSOR, "invalid character"); }
        */
    }
}

static const char *const kind_names[TK_COUNT] = {
    [TK_EOF] = "end of input", [TK_ERROR] = "invalid token", [TK_NEWLINE] = "end of line",
    [TK_SEMI] = "';'", [TK_INT] = "integer", [TK_FLOAT] = "number", [TK_IMAG] = "number",
    [TK_STRING] = "string", [TK_NAME] = "name",
    [TK_FN] = "'fn'", [TK_RETURN] = "'return'", [TK_IF] = "'if'", [TK_ELSE] = "'else'",
    [TK_WHILE] = "'while'", [TK_FOR] = "'for'", [TK_IN] = "'in'", [TK_BREAK] = "'break'",
    [TK_CONTINUE] = "'continue'", [TK_TRUE] = "'true'", [TK_FALSE] = "'false'",
    [TK_NONE] = "'none'", [TK_AND] = "'and'", [TK_OR] = "'or'", [TK_NOT] = "'not'", [TK_TRY] = "'try'", [TK_CATCH] = "'catch'",
    [TK_LPAREN] = "'('", [TK_RPAREN] = "')'", [TK_LBRACKET] = "'['", [TK_RBRACKET] = "']'",
    [TK_LBRACE] = "'{'", [TK_RBRACE] = "'}'", [TK_COMMA] = "','", [TK_COLON] = "':'",
    [TK_DOT] = "'.'", [TK_ELLIPSIS] = "'...'", [TK_ASSIGN] = "'='",
    [TK_PLUS_ASSIGN] = "'+='", [TK_MINUS_ASSIGN] = "'-='", [TK_STAR_ASSIGN] = "'*='",
    [TK_SLASH_ASSIGN] = "'/='", [TK_AT_ASSIGN] = "'@='",
    [TK_PLUS] = "'+'", [TK_MINUS] = "'-'", [TK_STAR] = "'*'", [TK_SLASH] = "'/'",
    [TK_DSLASH] = "'//'", [TK_PERCENT] = "'%'", [TK_AT] = "'@'", [TK_DSTAR] = "'**'",
    [TK_EQ] = "'=='", [TK_NE] = "'!='", [TK_LT] = "'<'", [TK_LE] = "'<='",
    [TK_GT] = "'>'", [TK_GE] = "'>='", [TK_AMP] = "'&'", [TK_PIPE] = "'|'", [TK_TILDE] = "'~'",
    [TK_CARET] = "'^'", [TK_SHL] = "'<<'", [TK_SHR] = "'>>'", [TK_FSTRING] = "f-string",
    [TK_GLOBAL] = "'global'", [TK_NONLOCAL] = "'nonlocal'", [TK_DEL] = "'del'",
};

const char *token_kind_name(TokenKind k)
{
    return (unsigned)k < TK_COUNT && kind_names[k] ? kind_names[k] : "token";
}

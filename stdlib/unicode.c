/* unicode.c — Python's case methods and character classes over Unicode text (upper, title, casefold, isalpha, isupper, isidentifier, ...) */
#include "builtins.h"
#include "unicode_data.inc"

#define COUNT(t) ((int)(sizeof t / sizeof *t))

/* ---- what a character is ------------------------------------------------------------------- */

/* True when cp lies in one of the n sorted [lo, hi] ranges. */
static bool in_ranges(const uint32_t (*r)[2], int n, uint32_t cp)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (cp < r[mid][0]) hi = mid - 1;
        else if (cp > r[mid][1]) lo = mid + 1;
        else return true;
    }
    return false;
}

bool str_is_space(uint32_t cp)
{
    if (cp < 0x80) return cp == ' ' || (cp >= 9 && cp <= 13) || (cp >= 0x1C && cp <= 0x1F);
    return in_ranges(uni_space, COUNT(uni_space), cp);
}

static bool is_cased(uint32_t cp) { return in_ranges(uni_cased, COUNT(uni_cased), cp); }
static bool is_case_ignorable(uint32_t cp) { return in_ranges(uni_case_ignorable, COUNT(uni_case_ignorable), cp); }
/* CPython's "upper", "lower" and "title" flags of one character (str.isupper() of it, ...). */
static bool is_upper(uint32_t cp)
{
    return cp < 0x80 ? cp >= 'A' && cp <= 'Z' : in_ranges(uni_upper_flag, COUNT(uni_upper_flag), cp);
}
static bool is_lower(uint32_t cp)
{
    return cp < 0x80 ? cp >= 'a' && cp <= 'z' : in_ranges(uni_lower_flag, COUNT(uni_lower_flag), cp);
}
static bool is_title(uint32_t cp) { return cp >= 0x80 && in_ranges(uni_title_flag, COUNT(uni_title_flag), cp); }

static bool is_alpha(uint32_t cp)
{
    return cp < 0x80 ? (cp | 32) >= 'a' && (cp | 32) <= 'z' : in_ranges(uni_alpha, COUNT(uni_alpha), cp);
}
static bool is_decimal(uint32_t cp)
{
    return cp < 0x80 ? cp >= '0' && cp <= '9' : in_ranges(uni_decimal, COUNT(uni_decimal), cp);
}
static bool is_digit(uint32_t cp) { return cp < 0x80 ? cp >= '0' && cp <= '9' : in_ranges(uni_digit, COUNT(uni_digit), cp); }
static bool is_numeric(uint32_t cp)
{
    return cp < 0x80 ? cp >= '0' && cp <= '9' : in_ranges(uni_numeric, COUNT(uni_numeric), cp);
}
/* CPython's isalnum of one character: a letter, or a decimal, digit or numeric character. */
static bool is_alnum(uint32_t cp) { return is_alpha(cp) || is_decimal(cp) || is_digit(cp) || is_numeric(cp); }
/* Whether an identifier may start with cp (XID_Start or '_'), and go on with it (XID_Continue). */
static bool is_id_start(uint32_t cp)
{
    return cp < 0x80 ? is_alpha(cp) || cp == '_' : in_ranges(uni_id_start, COUNT(uni_id_start), cp);
}
static bool is_id_continue(uint32_t cp)
{
    return cp < 0x80 ? is_id_start(cp) || is_decimal(cp) : in_ranges(uni_id_continue, COUNT(uni_id_continue), cp);
}

/* ---- what a character becomes -------------------------------------------------------------- */

/* cp mapped by a case table: the characters it becomes (1 to 3) into m, their count returned. */
static int case_map(const int32_t (*single)[2], int nsingle, const uint32_t (*multi)[4], int nmulti, uint32_t cp, uint32_t *m)
{
    for (int k = 0; k < nmulti; k++)
        if (multi[k][0] == cp) {
            int n = 0;
            for (int j = 1; j < 4 && multi[k][j]; j++) m[n++] = multi[k][j];
            return n;
        }
    int lo = 0, hi = nsingle - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if ((int64_t)cp < single[mid][0]) hi = mid - 1;
        else if ((int64_t)cp > single[mid][0]) lo = mid + 1;
        else { m[0] = (uint32_t)((int64_t)cp + single[mid][1]); return 1; }
    }
    m[0] = cp;
    return 1;
}

/* What cp becomes where a sorted table of exceptions (code point, then 1 to 3 characters) lists
   it, into m: their count, or 0 when it is not listed. */
static int exception_map(const uint32_t (*t)[4], int n, uint32_t cp, uint32_t *m)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (cp < t[mid][0]) hi = mid - 1;
        else if (cp > t[mid][0]) lo = mid + 1;
        else {
            int k = 0;
            for (int j = 1; j < 4 && t[mid][j]; j++) m[k++] = t[mid][j];
            return k;
        }
    }
    return 0;
}

/* Python's full case mappings of one character (1 to 3 characters into m, their count). */
static int upper_of(uint32_t cp, uint32_t *m)
{
    if (cp < 0x80) return m[0] = cp >= 'a' && cp <= 'z' ? cp - 32 : cp, 1;
    return case_map(uni_upper_single, COUNT(uni_upper_single), uni_upper_multi, COUNT(uni_upper_multi), cp, m);
}
static int lower_of(uint32_t cp, uint32_t *m)
{
    if (cp < 0x80) return m[0] = cp >= 'A' && cp <= 'Z' ? cp + 32 : cp, 1;
    return case_map(uni_lower_single, COUNT(uni_lower_single), uni_lower_multi, COUNT(uni_lower_multi), cp, m);
}
/* Titlecase is uppercase but for 135 characters ('ǆ' becomes 'ǅ'), case folding lowercase but
   for 297 ('ß' becomes 'ss'): each table lists only those. */
static int title_of(uint32_t cp, uint32_t *m)
{
    int n = cp < 0x80 ? 0 : exception_map(uni_title_not_upper, COUNT(uni_title_not_upper), cp, m);
    return n ? n : upper_of(cp, m);
}
static int fold_of(uint32_t cp, uint32_t *m)
{
    int n = cp < 0x80 ? 0 : exception_map(uni_fold_not_lower, COUNT(uni_fold_not_lower), cp, m);
    return n ? n : lower_of(cp, m);
}

/* Python's final sigma rule for the Σ at byte i (k bytes) of s, given whether the last character
   before it that is not case-ignorable is cased: that, and no cased character after it
   (case-ignorable ones skipped). The caller tracks what lies before, so a string of many Σ
   costs what its length does. */
static bool final_sigma(const Str *s, size_t i, size_t k, bool cased_before)
{
    if (!cased_before) return false;
    uint32_t cp;
    for (size_t j = i + k; j < s->len;) {
        j += utf8_decode(s->data, s->len, j, &cp);
        if (!is_case_ignorable(cp)) return !is_cased(cp);
    }
    return true;
}

enum { CASE_UPPER, CASE_LOWER, CASE_TITLE, CASE_CAPITALIZE, CASE_SWAP, CASE_FOLD };

/* The characters the character cp at byte i (k bytes) of s becomes in case `how`, into m (their
   count): CPython's rules (title: titlecase after an uncased character, else lowercase; swapcase:
   an upper character lowered, a lower one raised; lowering applies the final sigma rule). */
static int case_of(int how, const Str *s, size_t i, size_t k, uint32_t cp, bool cased_before, bool prev_cased, uint32_t *m)
{
    bool lower = how == CASE_LOWER || (how == CASE_TITLE && prev_cased) || (how == CASE_CAPITALIZE && i > 0) ||
                 (how == CASE_SWAP && is_upper(cp));
    if (lower) {
        int n = lower_of(cp, m);
        if (cp == 0x3A3 && final_sigma(s, i, k, cased_before)) m[0] = 0x3C2;
        return n;
    }
    switch (how) {
    case CASE_UPPER: return upper_of(cp, m);
    case CASE_TITLE:
    case CASE_CAPITALIZE: return title_of(cp, m);
    case CASE_SWAP: return is_lower(cp) ? upper_of(cp, m) : (m[0] = cp, 1);
    default: return fold_of(cp, m);
    }
}

/* upper, lower, title, capitalize, swapcase, casefold(s): s with Python's full case mappings. */
static bool bi_case(Interp *I, CallArgs *a, Value *out)
{
    Str *s;
    if (!arg_str(I, a, 0, &s)) return false;
    StrBuf b = { 0 };
    bool ok = sb_append(&b, "", 0);
    bool cased_before = false;   /* the last character so far that is not case-ignorable is cased */
    bool prev_cased = false;     /* the character before is cased (title) */
    for (size_t i = 0; i < s->len && ok;) {
        uint32_t cp, m[3];
        size_t k = utf8_decode(s->data, s->len, i, &cp);
        int n = case_of(a->self->tag, s, i, k, cp, cased_before, prev_cased, m);
        for (int j = 0; j < n && ok; j++) {
            char enc[4];
            ok = sb_append(&b, enc, utf8_encode(m[j], enc));   /* an invalid byte maps to itself */
        }
        prev_cased = is_cased(cp);
        if (!is_case_ignorable(cp)) cased_before = prev_cased;
        i += k;
    }
    if (ok) *out = val_str(b.data, b.len);
    sb_free(&b);
    return (ok && out->kind == V_STR) || interp_error_rt(I, a->at);
}

enum { IS_DIGIT, IS_ALPHA, IS_SPACE, IS_DECIMAL, IS_NUMERIC, IS_ALNUM, IS_IDENTIFIER, IS_ASCII, IS_PRINTABLE };

/* isdigit, isalpha, isspace, isdecimal, isnumeric, isalnum(s): true when s has characters and
   every one is of that class; isidentifier(s): s has characters, the first may start an
   identifier and the rest continue one (Python's str.isidentifier(), no NFKC normalization);
   isascii(s), isprintable(s): every character is ASCII, printable (true for ""; an invalid
   byte, read as a lone surrogate, is not printable). */
static bool bi_is(Interp *I, CallArgs *a, Value *out)
{
    Str *s;
    if (!arg_str(I, a, 0, &s)) return false;
    int cls = a->self->tag;
    bool all = s->len > 0 || cls == IS_ASCII || cls == IS_PRINTABLE;
    for (size_t i = 0; i < s->len && all;) {
        uint32_t cp;
        bool first = i == 0;
        i += utf8_decode(s->data, s->len, i, &cp);
        switch (cls) {
        case IS_DIGIT: all = is_digit(cp); break;
        case IS_ALPHA: all = is_alpha(cp); break;
        case IS_SPACE: all = str_is_space(cp); break;
        case IS_DECIMAL: all = is_decimal(cp); break;
        case IS_NUMERIC: all = is_numeric(cp); break;
        case IS_ALNUM: all = is_alnum(cp); break;
        case IS_IDENTIFIER: all = first ? is_id_start(cp) : is_id_continue(cp); break;
        case IS_PRINTABLE: all = char_is_printable(cp); break;
        default: all = cp < 0x80; break;
        }
    }
    *out = val_bool(all);
    return true;
}

enum { IS_UPPER, IS_LOWER, IS_TITLE };

/* isupper, islower(s): s has a cased character and none of the other case (nor titlecase);
   istitle(s): s has a cased character, and every upper or titlecase one follows an uncased
   character, every lower one a cased character (CPython's loops). */
static bool bi_is_case(Interp *I, CallArgs *a, Value *out)
{
    Str *s;
    if (!arg_str(I, a, 0, &s)) return false;
    int how = a->self->tag;
    bool cased = false, prev_cased = false, ok = true;
    for (size_t i = 0; i < s->len && ok;) {
        uint32_t cp;
        i += utf8_decode(s->data, s->len, i, &cp);
        bool up = is_upper(cp), low = is_lower(cp), title = is_title(cp);
        if (how == IS_TITLE) {
            if (up || title) ok = !prev_cased, prev_cased = cased = true;
            else if (low) ok = prev_cased, prev_cased = cased = true;
            else prev_cased = false;
        } else {
            bool mine = how == IS_UPPER ? up : low, other = how == IS_UPPER ? low : up;
            ok = !other && !title;
            cased = cased || mine;
        }
    }
    *out = val_bool(ok && cased);
    return true;
}

const Builtin bi_unicode_table[] = {
    { "upper", bi_case, "upper(s)", "s in upper case (Python's full mapping: \"ß\" becomes \"SS\")", CASE_UPPER, BF_OTHER, BT_NO },
    { "lower", bi_case, "lower(s)", "s in lower case", CASE_LOWER, BF_OTHER, BT_NO },
    { "title", bi_case, "title(s)", "s with each word's first letter in title case and the rest in lower case", CASE_TITLE, BF_OTHER, BT_NO },
    { "capitalize", bi_case, "capitalize(s)", "s with its first character in title case and the rest in lower case", CASE_CAPITALIZE, BF_OTHER, BT_NO },
    { "swapcase", bi_case, "swapcase(s)", "s with upper case characters lowered and lower case ones raised", CASE_SWAP, BF_OTHER, BT_NO },
    { "casefold", bi_case, "casefold(s)", "s case-folded, for caseless comparison (\"ß\" becomes \"ss\")", CASE_FOLD, BF_OTHER, BT_NO },
    { "isdigit", bi_is, "isdigit(s)", "true when s is not empty and all its characters are digits", IS_DIGIT, BF_OTHER, BT_NO },
    { "isdecimal", bi_is, "isdecimal(s)", "true when s is not empty and all its characters are decimal digits", IS_DECIMAL, BF_OTHER, BT_NO },
    { "isnumeric", bi_is, "isnumeric(s)", "true when s is not empty and all its characters are numeric (digits, fractions, numerals)", IS_NUMERIC, BF_OTHER, BT_NO },
    { "isalpha", bi_is, "isalpha(s)", "true when s is not empty and all its characters are letters", IS_ALPHA, BF_OTHER, BT_NO },
    { "isalnum", bi_is, "isalnum(s)", "true when s is not empty and all its characters are letters or numeric", IS_ALNUM, BF_OTHER, BT_NO },
    { "isspace", bi_is, "isspace(s)", "true when s is not empty and all its characters are whitespace", IS_SPACE, BF_OTHER, BT_NO },
    { "isidentifier", bi_is, "isidentifier(s)", "true when s is an identifier as Python's: a letter or _ first, then letters, digits, marks or _ (Unicode's XID classes)", IS_IDENTIFIER, BF_OTHER, BT_NO },
    { "isascii", bi_is, "isascii(s)", "true when all the characters of s are ASCII (also when s is empty)", IS_ASCII, BF_OTHER, BT_NO },
    { "isprintable", bi_is, "isprintable(s)", "true when no character of s is a control, format, private-use or unassigned one, or a separator but the space (also when s is empty)", IS_PRINTABLE, BF_OTHER, BT_NO },
    { "isupper", bi_is_case, "isupper(s)", "true when s has cased characters and all of them are upper case", IS_UPPER, BF_OTHER, BT_NO },
    { "islower", bi_is_case, "islower(s)", "true when s has cased characters and all of them are lower case", IS_LOWER, BF_OTHER, BT_NO },
    { "istitle", bi_is_case, "istitle(s)", "true when s is in title case: each word's first letter upper, the rest lower", IS_TITLE, BF_OTHER, BT_NO },
    { 0 },
};

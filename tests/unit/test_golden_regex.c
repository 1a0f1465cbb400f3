/* test_golden_regex.c — golden_regex_read: the `#~` patterns it refuses (what glibc's regcomp
   takes exponential time or memory over), the ones it passes, and the expression it writes */
#include <criterion/criterion.h>
#include <regex.h>
#include <string.h>

#include "golden_int.h"

/* Reads pat; returns whether it passed, with the written expression in out (caller frees). */
static bool read_pattern(const char *pat, StrBuf *out, double *copies, char *err, size_t errlen)
{
    *out = (StrBuf){ 0 };
    return golden_regex_read(pat, strlen(pat), out, copies, err, errlen);
}

/* Expects the n bytes at pat refused, with `why` in the reason. */
static void expect_refused_bytes(const char *pat, size_t n, const char *why)
{
    StrBuf out = { 0 };
    double copies;
    char err[200] = "";
    cr_expect(!golden_regex_read(pat, n, &out, &copies, err, sizeof err), "'%s' passed", pat);
    cr_expect(strstr(err, why), "'%s': %s", pat, err);
    sb_free(&out);
}

/* Expects pat refused, with `why` in the reason. */
static void expect_refused(const char *pat, const char *why)
{
    expect_refused_bytes(pat, strlen(pat), why);
}

/* Expects pat passed; returns the copies its counted repetitions make. */
static double expect_passed(const char *pat)
{
    StrBuf out;
    double copies = -1;
    char err[200] = "";
    cr_expect(read_pattern(pat, &out, &copies, err, sizeof err), "'%s' refused: %s", pat, err);
    sb_free(&out);
    return copies;
}

Test(golden_regex, anchors_and_keeps_the_pattern)
{
    const char *cases[][2] = {
        { "ab", "^(ab)$" },
        { "a|b", "^(a|b)$" },
        { "[]a]+x{2,3}", "^([]a]+x{2,3})$" },
        { "[[:digit:]]{1,3}\\.[0-9]*", "^([[:digit:]]{1,3}\\.[0-9]*)$" },
        { "a)", "^(a\\))$" },              /* a ')' without its '(' is itself, not the anchoring group's end */
        { "b)|x", "^(b\\)|x)$" },
        { "(a|b)*c+", "^((a|b)*c+)$" },
        { "", "^()$" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        StrBuf out;
        double copies;
        char err[200];
        cr_assert(read_pattern(cases[k][0], &out, &copies, err, sizeof err), "'%s' refused: %s", cases[k][0], err);
        cr_expect_str_eq(out.data, cases[k][1]);
        regex_t re;
        cr_expect_eq(regcomp(&re, out.data, REG_EXTENDED | REG_NOSUB), 0, "%s", out.data);
        regfree(&re);
        sb_free(&out);
    }
}

Test(golden_regex, refuses_repeating_what_can_match_nothing)
{
    const char *cases[] = { "(a*)*", "(a?)?", "(a*)+", "(x|y*)+", "(a{0,3})*", "a{0,2}{2}", "(^)*", "(\\<)*",
                            "()*", "(|a)*", "x(a*b?)*y", "((a*))*", "(a|b|)?", "a**" };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) expect_refused(cases[k], "can match empty text");
    /* what cannot match nothing may repeat */
    const char *fine[] = { "(a+)*", "(ab?)*", "(a|b*c)+", "(a{1,3})*", "a+*", "(x*y)?" };
    for (size_t k = 0; k < sizeof fine / sizeof fine[0]; k++) expect_passed(fine[k]);
}

Test(golden_regex, counts_the_copies_of_counted_repetitions)
{
    struct { const char *pat; double copies; } cases[] = {
        { "abc", 0 }, { "a{3}", 2 }, { "a{2,5}", 4 }, { "a{2,}", 2 }, { "(ab){3}", 4 }, { "a+", 1 },
        { "(a{1,10}){1,10}", 99 }, { "x{,4}", 3 }, { "(a|bc){2}", 3 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double copies = expect_passed(cases[k].pat);
        cr_expect_eq(copies, cases[k].copies, "'%s': %g copies", cases[k].pat, copies);
    }
    expect_passed("(a{1,31}){1,32}");   /* 992 - 1 */
    expect_refused("(a{1,32}){1,32}", "make 1023 copies (at most 1000 a line");   /* 1,024 - 1 */
    expect_passed("a{255}b{0,255}");
    expect_refused("a{256}", "'{256}' counts past 255");
    expect_refused("a{1,99999999999}", "is not a count");
}

Test(golden_regex, refuses_what_is_not_a_posix_extended_expression)
{
    struct { const char *pat, *why; } cases[] = {
        { "(a)\\1", "'\\1' is a back-reference" },
        { "*a", "'*' follows nothing" },
        { "a|{2}", "'{' follows nothing" },
        { "(?:a)", "'?' follows nothing" },
        { "[ab", "'[ab' has no closing ']'" },
        { "[[:alpha:]", "has no closing ']'" },
        { "[[:(a*)*]", "has no closing ']'" },   /* the unclosed class is not the bracket's end */
        { "[[.a]", "has no closing ']'" },
        { "(ab", "'(ab' has no closing ')'" },
        { "a\\", "lone backslash" },
        { "a{x}", "'{x}' is not a count" },
        { "a{3,2}", "is not a count" },
        { "a{", "is not a count" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) expect_refused(cases[k].pat, cases[k].why);
    expect_refused_bytes("a\0*", 3, "NUL byte");
    char deep[512] = "";
    for (int i = 0; i < 101; i++) strcat(deep, "(");
    strcat(deep, "a");
    for (int i = 0; i < 101; i++) strcat(deep, ")");
    expect_refused(deep, "nested more than 100 deep");
    StrBuf out;
    double copies;
    char err[200];
    cr_expect(read_pattern(deep + 1, &out, &copies, err, sizeof err), "%s", err);   /* 100 deep, and a ')' that is itself */
    cr_expect(out.len > 5 && strcmp(out.data + out.len - 5, ")\\))$") == 0, "%s", out.data);
    sb_free(&out);
}

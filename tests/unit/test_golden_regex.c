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
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        StrBuf out;
        double copies;
        char err[200];
        cr_expect(!read_pattern(cases[k], &out, &copies, err, sizeof err), "'%s' passed", cases[k]);
        cr_expect(strstr(err, "can match empty text"), "'%s': %s", cases[k], err);
        sb_free(&out);
    }
    /* what cannot match nothing may repeat */
    const char *fine[] = { "(a+)*", "(ab?)*", "(a|b*c)+", "(a{1,3})*", "a+*", "(x*y)?" };
    for (size_t k = 0; k < sizeof fine / sizeof fine[0]; k++) {
        StrBuf out;
        double copies;
        char err[200];
        cr_expect(read_pattern(fine[k], &out, &copies, err, sizeof err), "'%s' refused: %s", fine[k], err);
        sb_free(&out);
    }
}

Test(golden_regex, counts_the_copies_of_counted_repetitions)
{
    struct { const char *pat; double copies; } cases[] = {
        { "abc", 0 }, { "a{3}", 2 }, { "a{2,5}", 4 }, { "a{2,}", 2 }, { "(ab){3}", 4 }, { "a+", 1 },
        { "(a{1,10}){1,10}", 99 }, { "x{,4}", 3 }, { "(a|bc){2}", 3 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        StrBuf out;
        double copies = -1;
        char err[200];
        cr_expect(read_pattern(cases[k].pat, &out, &copies, err, sizeof err), "'%s' refused: %s", cases[k].pat, err);
        cr_expect_eq(copies, cases[k].copies, "'%s': %g copies", cases[k].pat, copies);
        sb_free(&out);
    }
    StrBuf out;
    double copies;
    char err[200];
    cr_expect(read_pattern("(a{1,31}){1,32}", &out, &copies, err, sizeof err), "%s", err);   /* 992 - 1 */
    sb_free(&out);
    cr_expect(!read_pattern("(a{1,32}){1,32}", &out, &copies, err, sizeof err));   /* 1,024 - 1 */
    cr_expect(strstr(err, "make 1023 copies (at most 1000 a line"), "%s", err);
    sb_free(&out);
    cr_expect(read_pattern("a{255}b{0,255}", &out, &copies, err, sizeof err), "%s", err);
    sb_free(&out);
    cr_expect(!read_pattern("a{256}", &out, &copies, err, sizeof err));
    cr_expect(strstr(err, "'{256}' counts past 255"), "%s", err);
    sb_free(&out);
    cr_expect(!read_pattern("a{1,99999999999}", &out, &copies, err, sizeof err));
    cr_expect(strstr(err, "is not a count"), "%s", err);
    sb_free(&out);
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
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        StrBuf out;
        double copies;
        char err[200];
        cr_expect(!read_pattern(cases[k].pat, &out, &copies, err, sizeof err), "'%s' passed", cases[k].pat);
        cr_expect(strstr(err, cases[k].why), "'%s': %s", cases[k].pat, err);
        sb_free(&out);
    }
    StrBuf nul = { 0 };
    double nul_copies;
    char nul_err[200];
    cr_expect(!golden_regex_read("a\0*", 3, &nul, &nul_copies, nul_err, sizeof nul_err));
    cr_expect(strstr(nul_err, "NUL byte"), "%s", nul_err);
    sb_free(&nul);
    char deep[512] = "";
    for (int i = 0; i < 101; i++) strcat(deep, "(");
    strcat(deep, "a");
    for (int i = 0; i < 101; i++) strcat(deep, ")");
    StrBuf out;
    double copies;
    char err[200];
    cr_expect(!read_pattern(deep, &out, &copies, err, sizeof err));
    cr_expect(strstr(err, "nested more than 100 deep"), "%s", err);
    sb_free(&out);
    cr_expect(read_pattern(deep + 1, &out, &copies, err, sizeof err), "%s", err);   /* 100 deep, and a ')' that is itself */
    cr_expect(out.len > 5 && strcmp(out.data + out.len - 5, ")\\))$") == 0, "%s", out.data);
    sb_free(&out);
}

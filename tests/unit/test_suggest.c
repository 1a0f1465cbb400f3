/* test_suggest.c — "did you mean": the edit cost and the choice of the closest candidates */
#include <criterion/criterion.h>
#include <string.h>

#include "suggest.h"

Test(suggest, edit_costs)
{
    cr_assert_eq(tl_edit_cost("softmax", "softmax", 10), 0);
    cr_assert_eq(tl_edit_cost("sofmax", "softmax", 10), 2);       /* one inserted */
    cr_assert_eq(tl_edit_cost("mena", "mean", 10), 1);            /* neighbours swapped */
    cr_assert_eq(tl_edit_cost("mena", "meta", 10), 2);            /* one substituted */
    cr_assert_eq(tl_edit_cost("None", "none", 10), 1);            /* case only */
    cr_assert_eq(tl_edit_cost("abc", "xyz", 3), 4);               /* past max: max + 1 */
    cr_assert_eq(tl_edit_cost("a", "abcdefgh", 4), 5);            /* the lengths alone exceed max */
    char longer[100];
    memset(longer, 'a', 99);
    longer[99] = '\0';
    cr_assert_eq(tl_edit_cost(longer, longer, 4), 5);             /* longer than the words compared */
}

Test(suggest, closest_candidates_only)
{
    char buf[128];
    const char *c1[] = { "mean", "meta", "median", NULL };
    cr_assert_str_eq(tl_suggest_among("mena", c1, 4, '\'', buf, sizeof buf), "; did you mean 'mean'?");
    const char *c2[] = { "f16", "f32", "f64" };
    cr_assert_str_eq(tl_suggest_among("f31", c2, 3, '"', buf, sizeof buf), "; did you mean \"f32\"?");
    const char *c3[] = { "float16", "float32", "float64" };
    cr_assert_str_eq(tl_suggest_among("float", c3, 3, '"', buf, sizeof buf),
                     "; did you mean \"float16\", \"float32\" or \"float64\"?");
    const char *c4[] = { "x", "y" };
    cr_assert_str_eq(tl_suggest_among("z", c4, 2, '\'', buf, sizeof buf), "");   /* a short word needs a close match */
    const char *c5[] = { "axis", "axis", "keepdims" };
    cr_assert_str_eq(tl_suggest_among("axs", c5, 3, '\'', buf, sizeof buf), "; did you mean 'axis'?");   /* offered once */
    cr_assert_str_eq(tl_suggest_among("axis", c5, 3, '\'', buf, sizeof buf), "");   /* the word itself is no suggestion */
    char tiny[8];
    tl_suggest_among("mena", c1, 4, '\'', tiny, sizeof tiny);   /* cut short, never overrun */
    cr_assert_eq(strlen(tiny), 7);
}

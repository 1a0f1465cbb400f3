/* suggest.c — "did you mean": the closest of the words in scope to a mistyped one, by an edit distance */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"

/* Longest words compared; a longer one is offered no suggestion (and costs nothing to refuse). */
#define WORD_MAX 64
#define MOVE_COST 2
#define CASE_COST 1
#define SWAP_COST 1   /* neighbours swapped, the commonest slip of typing: "mena" is nearer "mean" than "meta" */

/* The cost of replacing character x by y. */
static int substitution_cost(char x, char y)
{
    if (x == y) return 0;
    return tolower((unsigned char)x) == tolower((unsigned char)y) ? CASE_COST : MOVE_COST;
}

static int min2(int a, int b) { return a < b ? a : b; }

int tl_edit_cost(const char *a, const char *b, int max)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > WORD_MAX || lb > WORD_MAX) return max + 1;
    if ((int)(la > lb ? la - lb : lb - la) * MOVE_COST > max) return max + 1;
    /* optimal string alignment, three rows: before last, last, this */
    int rows[3][WORD_MAX + 1], *r2 = rows[0], *r1 = rows[1], *r0 = rows[2];
    for (size_t j = 0; j <= lb; j++) r1[j] = (int)j * MOVE_COST;
    for (size_t i = 1; i <= la; i++) {
        r0[0] = (int)i * MOVE_COST;
        int lowest = r0[0];
        for (size_t j = 1; j <= lb; j++) {
            int c = min2(r1[j] + MOVE_COST, r0[j - 1] + MOVE_COST);
            c = min2(c, r1[j - 1] + substitution_cost(a[i - 1], b[j - 1]));
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) c = min2(c, r2[j - 2] + SWAP_COST);
            r0[j] = c;
            lowest = min2(lowest, c);
        }
        if (lowest > max) return max + 1;
        int *t = r2;
        r2 = r1, r1 = r0, r0 = t;
    }
    return r1[lb] <= max ? r1[lb] : max + 1;
}

int tl_suggest_max_cost(const char *a, const char *b) { return (int)(strlen(a) + strlen(b) + 3) * MOVE_COST / 6; }

void tl_suggest_init(tl_suggest *s, const char *word)
{
    s->word = word;
    s->best = 1 << 20;
    s->n = 0;
}

void tl_suggest_add(tl_suggest *s, const char *cand)
{
    if (!cand || !*cand || strcmp(cand, s->word) == 0) return;
    int max = min2(tl_suggest_max_cost(s->word, cand), s->best);
    int c = tl_edit_cost(s->word, cand, max);
    if (c > max) return;
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->cand[i], cand) == 0) return;   /* offered twice (a global and a builtin of one name) */
    if (c < s->best) {
        s->best = c;
        s->n = 0;
    }
    if (s->n < TL_SUGGEST_MAX) s->cand[s->n++] = cand;
}

const char *tl_suggest_text(const tl_suggest *s, char quote, char *buf, size_t n)
{
    if (n == 0) return buf;
    buf[0] = '\0';
    if (s->n == 0) return buf;
    size_t w = (size_t)snprintf(buf, n, "; did you mean ");
    for (int i = 0; i < s->n && w < n; i++) {
        const char *sep = i == 0 ? "" : i == s->n - 1 ? " or " : ", ";
        w += (size_t)snprintf(buf + w, n - w, "%s%c%s%c", sep, quote, s->cand[i], quote);
    }
    if (w < n) snprintf(buf + w, n - w, "?");
    return buf;
}

const char *tl_suggest_among(const char *word, const char *const *cands, int n, char quote, char *buf, size_t cap)
{
    tl_suggest s;
    tl_suggest_init(&s, word);
    for (int i = 0; i < n; i++) tl_suggest_add(&s, cands[i]);
    return tl_suggest_text(&s, quote, buf, cap);
}

/* suggest.h — "did you mean": the closest of the words in scope to a mistyped one, by an edit distance */
#ifndef TL_SUGGEST_H
#define TL_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

/* Candidates kept when several are equally close ("did you mean 'sum' or 'cumsum'?"). */
#define TL_SUGGEST_MAX 3

/* A search: offer it every candidate in scope (tl_suggest_add), then ask for the text. The
   candidates are not copied: they must live until the text is made. */
typedef struct tl_suggest {
    const char *word;                  /* the word that was not found */
    int best;                          /* the cost of the closest candidates so far */
    int n;                             /* how many of them are kept */
    const char *cand[TL_SUGGEST_MAX];
} tl_suggest;

/* Starts a search for the closest candidates to word. */
void tl_suggest_init(tl_suggest *s, const char *word);
/* Offers one candidate; it is kept when close enough and at least as close as the kept ones. */
void tl_suggest_add(tl_suggest *s, const char *cand);
/* Writes "; did you mean 'a'?" (or "'a' or 'b'", "'a', 'b' or 'c'"; the candidates quoted with
   quote), the end of a message, into buf, or "" when no candidate was close; returns buf. */
const char *tl_suggest_text(const tl_suggest *s, char quote, char *buf, size_t n);
/* tl_suggest_text for word among n candidates (NULL ones skipped). */
const char *tl_suggest_among(const char *word, const char *const *cands, int n, char quote, char *buf, size_t cap);

/* The cost of turning a into b: 2 per inserted, deleted or substituted character, 1 for a
   change of case only (Python's suggestions weigh them so) and 1 for two neighbours swapped
   (the commonest typing slip); more than max when it exceeds max (the search stops there). */
int tl_edit_cost(const char *a, const char *b, int max);
/* The largest cost at which b is offered for a: Python's (len(a) + len(b) + 3) / 3, so a
   short word needs a close match ("x" suggests nothing) and a long one allows a few changes. */
int tl_suggest_max_cost(const char *a, const char *b);

#endif

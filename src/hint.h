/* hint.h — help for a mistake: "did you mean" over the names in scope, and tl's spelling of Python and numpy habits */
#ifndef TL_HINT_H
#define TL_HINT_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "tlapi.h"

/* How tl spells a word from Python or numpy ("tl writes none" for None, "tl calls it concat"
   for concatenate), or NULL when the word is no such habit; keyword: only Python's keywords
   (def, elif, import, ...: the parser's). */
const char *hint_habit(const char *word, size_t len, bool keyword);

/* The end of the message for the unknown name n ("; did you mean 'softmax'?", "; tl writes
   none"), from the habits or the closest of the names in scope: the locals of n's function,
   the globals that hold a value and the builtins. "" when there is none. Returns buf. */
const char *hint_name(Interp *I, const Node *n, char *buf, size_t cap);

#endif

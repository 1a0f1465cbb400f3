/* hint.c — help for a mistake: "did you mean" over the names in scope, and tl's spelling of Python and numpy habits */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "frame.h"
#include "interp.h"
#include "hint.h"
#include "suggest.h"

/* Words a Python or numpy user reaches for, and how tl says them (docs/language.md, "Coming
   from Python and numpy"). The parser names the keywords among them where they break a
   statement; an unknown name names any of them. */
static const struct { const char *word, *hint; bool keyword; } habits[] = {
    { "None", "tl writes none", false },
    { "True", "tl writes true", false },
    { "False", "tl writes false", false },
    { "null", "tl writes none", false },
    { "def", "tl defines a function with fn: fn f(x) { return x * 2 } or fn f(x) = x * 2", true },
    { "lambda", "tl writes an anonymous function as fn(x) = x * 2", true },
    { "elif", "tl writes else if c { ... }", true },
    { "import", "tl needs no import: numpy's functions are builtins (zeros, sum, ...), and include(\"f.tl\") runs a file", true },
    { "from", "tl needs no import: numpy's functions are builtins (zeros, sum, ...)", true },
    { "np", "tl needs no np. prefix: zeros(3), not np.zeros(3)", false },
    { "numpy", "tl needs no numpy. prefix: zeros(3), not numpy.zeros(3)", false },
    { "int", "tl casts with i64(x) (round(x) or floor(x) first to choose the rounding)", false },
    { "float", "tl casts with f64(x), or f32(x) for single precision", false },
    { "exit", "the shell quits on exit or quit alone on a line, or Ctrl-D", false },
    { "quit", "the shell quits on exit or quit alone on a line, or Ctrl-D", false },
    { "pass", "tl's empty block is {}", true },
    { "class", "tl has no classes: use dicts and functions", true },
    { "raise", "tl raises with error(msg) or error(kind, msg)", true },
    { "except", "tl catches with try { ... } catch e { ... }", true },
    { "is", "tl compares with == and != (x == none)", true },
    { "with", "tl has no with: load(path) and read_text(path) read a file whole, save and write_text write one", true },
    { "yield", "tl has no generators: append to a list (xs.append(v)) or write a comprehension", true },
    { "set", "tl has no sets: unique(x) gives a tensor's distinct values, and a dict's keys are distinct", false },
    { "type", "tl has no type(): help(x) says what x is, and x.dtype is a tensor's element type", false },
    { "isinstance", "tl has no isinstance(): help(x) says what x is, and x.dtype is a tensor's element type", false },
    { "concatenate", "tl calls it concat", false },
    { "amax", "tl calls it max", false },
    { "amin", "tl calls it min", false },
    { "absolute", "tl calls it abs", false },
    { "around", "tl calls it round", false },
    { "arcsin", "tl calls it asin", false },
    { "arccos", "tl calls it acos", false },
    { "arctan", "tl calls it atan", false },
    { "arctan2", "tl calls it atan2", false },
    { "newaxis", "tl writes a new axis as none: x[:, none]", false },
    { "float32", "tl's dtype is f32: f32(x), dtype=\"f32\" (or \"float32\")", false },
    { "float64", "tl's dtype is f64: f64(x), dtype=\"f64\" (or \"float64\")", false },
    { "float16", "tl's dtype is f16: f16(x), dtype=\"f16\" (or \"float16\")", false },
    { "int32", "tl's dtype is i32: i32(x), dtype=\"i32\" (or \"int32\")", false },
    { "int64", "tl's dtype is i64: i64(x), dtype=\"i64\" (or \"int64\")", false },
    { "uint8", "tl's dtype is u8: u8(x), dtype=\"u8\" (or \"uint8\")", false },
    { "bool_", "tl's dtype is bool: bool(x), dtype=\"bool\"", false },
    { "fliplr", "tl writes flip(x, axis=1)", false },
    { "flipud", "tl writes flip(x, axis=0)", false },
};

const char *hint_habit(const char *word, size_t len, bool keyword)
{
    for (size_t i = 0; i < sizeof habits / sizeof habits[0]; i++)
        if ((habits[i].keyword || !keyword) && strlen(habits[i].word) == len && memcmp(habits[i].word, word, len) == 0)
            return habits[i].hint;
    return NULL;
}

const char *hint_name(Interp *I, const Node *n, char *buf, size_t cap)
{
    const char *habit = hint_habit(n->name, strlen(n->name), false);
    if (habit) {
        snprintf(buf, cap, "; %s", habit);
        return buf;
    }
    tl_suggest s;
    tl_suggest_init(&s, n->name);
    const FnDef *fn = n->fn;   /* the function the name is used in (the resolver's), or NULL at the top level */
    for (int i = 0; fn && fn->slot_names && i < fn->nslots; i++) tl_suggest_add(&s, fn->slot_names[i]);
    for (int i = 0; i < I->gsyms.n && i < I->globals->nslots; i++)
        if (I->globals->slots[i].kind != V_UNDEF) tl_suggest_add(&s, I->gsyms.names[i]);
    for (int i = 0; i < builtin_count(); i++) tl_suggest_add(&s, builtin_at(i)->name);
    return tl_suggest_text(&s, '\'', buf, cap);
}

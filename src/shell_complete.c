/* shell_complete.c — Tab completion: names, a.<function>, dict keys after d[", paths in strings */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shell_int.h"

static const char *const keywords[] = {
    "fn", "return", "if", "else", "while", "for", "in", "break", "continue",
    "true", "false", "none", "and", "or", "not", "global", "nonlocal", NULL,
};

/* Keywords after which a space always follows. */
static const char *const spaced_keywords[] = { "fn", "return", "if", "else", "while", "for", "in", "and", "or", "not", NULL };


/* What Tab inserts at the start of a line. */
#define INDENT "    "

/* Word breaks outside strings; '.' splits `a.sum` so the function name is the word. */
static const char code_breaks[] = " \t\n\"'`@$><=;|&{([,)]}+-*/%!~^:.#";

static bool is_ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

static bool in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (strcmp(*list, s) == 0) return true;
    return false;
}

/* ---- where the cursor is: code, string or comment ----------------------- */

typedef struct Context {
    bool in_string, in_comment;
    char quote;
    int str_start;      /* offset in the line where the string's text starts (0: began on an earlier line) */
    int nopen;          /* brackets opened on the current line and not closed, innermost last */
    int open[32];       /* their offsets (only the innermost 32 are kept) */
} Context;

static void scan(Context *c, const char *s, size_t n, bool current_line)
{
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (c->in_comment) {
            if (ch == '\n') c->in_comment = false;
        } else if (c->in_string) {
            if (ch == '\\' && i + 1 < n) i++;
            else if (ch == c->quote) c->in_string = false;
        } else if (ch == '#') {
            c->in_comment = true;
        } else if (ch == '"' || ch == '\'') {
            c->in_string = true;
            c->quote = ch;
            c->str_start = current_line ? (int)i + 1 : 0;
        } else if (current_line && (ch == '(' || ch == '[' || ch == '{')) {
            if (c->nopen == 32) memmove(c->open, c->open + 1, 31 * sizeof c->open[0]), c->nopen--;
            c->open[c->nopen++] = (int)i;
        } else if (current_line && (ch == ')' || ch == ']' || ch == '}') && c->nopen > 0) {
            c->nopen--;
        }
    }
}

static Context context_at(const char *pending, const char *line, int cursor)
{
    Context c = { 0 };
    if (pending && *pending) {
        scan(&c, pending, strlen(pending), false);
        scan(&c, "\n", 1, false);     /* the line break between pending and line (ends a comment) */
    }
    scan(&c, line, (size_t)cursor, true);
    return c;
}

const char *shell_break_chars(const char *pending, const char *line, int cursor)
{
    Context c = context_at(pending, line, cursor);
    return c.in_string ? "\"'" : code_breaks;
}

/* ---- the candidate list ------------------------------------------------- */

static bool add(Completions *c, const char *s, size_t n)
{
    if (c->n == c->cap) {
        int ncap = c->cap ? c->cap * 2 : 32;
        char **ni = realloc(c->items, sizeof(char *) * (size_t)ncap);
        if (!ni) return false;
        c->items = ni;
        c->cap = ncap;
    }
    char *copy = strndup(s, n);
    if (!copy) return false;
    c->items[c->n++] = copy;
    return true;
}

static bool add_if_prefix(Completions *c, const char *name, const char *prefix, size_t plen)
{
    return strncmp(name, prefix, plen) != 0 || add(c, name, strlen(name));
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorts and drops duplicates. */
static void sort_unique(Completions *c)
{
    if (c->n < 2) return;
    qsort(c->items, (size_t)c->n, sizeof(char *), cmp_str);
    int w = 1;
    for (int i = 1; i < c->n; i++) {
        if (strcmp(c->items[i], c->items[w - 1]) == 0) free(c->items[i]);
        else c->items[w++] = c->items[i];
    }
    c->n = w;
}

void completions_free(Completions *c)
{
    for (int i = 0; i < c->n; i++) free(c->items[i]);
    free(c->items);
    *c = (Completions){ 0 };
}

/* The value bound to a global name, or NULL when it is unbound. */
static Value *global_value(Interp *I, const char *name, size_t n)
{
    char buf[256];
    if (n >= sizeof buf) return NULL;
    memcpy(buf, name, n);
    buf[n] = 0;
    int slot = symtab_find(&I->gsyms, buf);
    if (slot < 0 || slot >= I->globals->nslots) return NULL;
    Value *v = &I->globals->slots[slot];
    return v->kind == V_UNDEF ? NULL : v;
}

/* ---- the kinds of completion ---------------------------------------------- */

/* Names in scope: keywords, defined globals (which include the builtins), builtins. */
static void complete_names(Interp *I, Completions *c, const char *prefix, size_t plen)
{
    for (const char *const *k = keywords; *k; k++) add_if_prefix(c, *k, prefix, plen);
    for (int i = 0; i < I->gsyms.n && i < I->globals->nslots; i++)
        if (I->globals->slots[i].kind != V_UNDEF) add_if_prefix(c, I->gsyms.names[i], prefix, plen);
    for (int i = 0; i < builtin_count(); i++) add_if_prefix(c, builtin_at(i)->name, prefix, plen);
}

/* True when a builtin has at least one parameter. */
static bool builtin_takes_args(const Builtin *b) { return builtin_params(b)->n > 0; }

/* Functions that accept a first argument: what `a.` may be followed by. */
static void complete_methods(Interp *I, Completions *c, const char *prefix, size_t plen)
{
    for (int i = 0; i < I->gsyms.n && i < I->globals->nslots; i++) {
        Value v = I->globals->slots[i];
        bool usable = (v.kind == V_FUNC && v.as.fn->def->nparams >= 1) || (v.kind == V_BUILTIN && builtin_takes_args(v.as.bi));
        if (usable) add_if_prefix(c, I->gsyms.names[i], prefix, plen);
    }
    for (int i = 0; i < builtin_count(); i++)
        if (builtin_takes_args(builtin_at(i))) add_if_prefix(c, builtin_at(i)->name, prefix, plen);
}

/* Names :help knows: builtins and functions bound to globals. */
static void complete_help_names(Interp *I, Completions *c, const char *prefix, size_t plen)
{
    for (int i = 0; i < I->gsyms.n && i < I->globals->nslots; i++) {
        Value v = I->globals->slots[i];
        if (v.kind == V_FUNC || v.kind == V_BUILTIN) add_if_prefix(c, I->gsyms.names[i], prefix, plen);
    }
    for (int i = 0; i < builtin_count(); i++) add_if_prefix(c, builtin_at(i)->name, prefix, plen);
}

/* The parameter names a call of the function named line[start..end) takes by keyword. */
static void complete_keywords(Interp *I, Completions *c, const char *line, int start, int end, const char *prefix, size_t plen)
{
    Value *v = global_value(I, line + start, (size_t)(end - start));
    char name[64];
    if (v && v->kind == V_FUNC) {
        const FnDef *d = v->as.fn->def;
        for (int i = 0; i < fndef_fixed_params(d); i++) {   /* (*rest and **names take no name=) */
            snprintf(name, sizeof name, "%s=", d->params[i]);
            add_if_prefix(c, name, prefix, plen);
        }
        return;
    }
    const Builtin *b = v && v->kind == V_BUILTIN ? v->as.bi : NULL;
    if (!b && !v && end - start < (int)sizeof name) {
        snprintf(name, sizeof name, "%.*s", end - start, line + start);
        b = builtin_find(name);
    }
    const BuiltinParams *p = b ? builtin_params(b) : NULL;
    for (int i = 0; p && i < p->n; i++) {
        if (i == p->rest) continue;      /* *rest takes positional values only */
        snprintf(name, sizeof name, "%s=", p->name[i]);
        add_if_prefix(c, name, prefix, plen);
    }
}

/* Where an argument starts at ws inside the innermost bracket ctx left open, when that bracket is a
   call's '(' after a name: the name's span in *start, *end. */
static bool at_call_argument(const Context *ctx, const char *line, int ws, int *start, int *end)
{
    if (ctx->nopen == 0 || line[ctx->open[ctx->nopen - 1]] != '(') return false;
    int i = ws - 1;
    while (i >= 0 && (line[i] == ' ' || line[i] == '\t')) i--;
    if (i < 0 || (line[i] != '(' && line[i] != ',')) return false;
    int paren = ctx->open[ctx->nopen - 1];
    i = paren - 1;
    while (i >= 0 && (line[i] == ' ' || line[i] == '\t')) i--;
    *end = i + 1;
    while (i >= 0 && is_ident(line[i])) i--;
    *start = i + 1;
    return *start < *end && !isdigit((unsigned char)line[*start]);
}

/* The dict a string opened right after NAME[ belongs to (quote_at: the opening quote's offset). */
static Dict *dict_before_bracket(Interp *I, const char *line, int quote_at)
{
    int i = quote_at - 1;
    while (i >= 0 && (line[i] == ' ' || line[i] == '\t')) i--;
    if (i < 0 || line[i] != '[') return NULL;
    i--;
    while (i >= 0 && (line[i] == ' ' || line[i] == '\t')) i--;
    int end = i + 1;
    while (i >= 0 && is_ident(line[i])) i--;
    int start = i + 1;
    if (start == end || isdigit((unsigned char)line[start])) return NULL;
    if (start > 0 && line[start - 1] == '.') return NULL;   /* a.b["...: not a plain name */
    Value *v = global_value(I, line + start, (size_t)(end - start));
    return v && v->kind == V_DICT ? v->as.d : NULL;
}

static void complete_dict_keys(Dict *d, Completions *c, const char *prefix, size_t plen, char quote, const char *after)
{
    for (int i = 0; i < d->n; i++) {
        Str *k = d->keys[i];
        if (k->len >= plen && memcmp(k->data, prefix, plen) == 0 && !memchr(k->data, quote, k->len))
            add(c, k->data, k->len);
    }
    sort_unique(c);
    if (c->n == 1 && after[0] != quote) {   /* a unique key closes the string and the bracket */
        size_t n = strlen(c->items[0]);
        char *full = realloc(c->items[0], n + 3);
        if (full) {
            full[n] = quote;
            full[n + 1] = ']';
            full[n + 2] = 0;
            c->items[0] = full;
        }
    }
    c->append = 0;
}

/* Files and folders whose path starts with the string's text so far; folders end with '/'. */
static void complete_paths(Completions *c, const char *text, size_t n, char quote, const char *after)
{
    const char *slash = NULL;
    for (size_t i = 0; i < n; i++)
        if (text[i] == '/') slash = text + i;
    size_t dlen = slash ? (size_t)(slash - text) + 1 : 0;
    char *dir = dlen ? strndup(text, dlen) : strdup("./");
    const char *base = text + dlen;
    size_t blen = n - dlen;
    DIR *dp = dir ? opendir(dir) : NULL;
    if (dp) {
        struct dirent *e;
        while ((e = readdir(dp))) {
            const char *name = e->d_name;
            if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
            if (name[0] == '.' && (blen == 0 || base[0] != '.')) continue;
            if (strncmp(name, base, blen) != 0) continue;
            size_t nlen = strlen(name), full_len = strlen(dir) + nlen;
            char *full = malloc(full_len + 2);
            if (!full) break;
            snprintf(full, full_len + 1, "%s%s", dir, name);
            struct stat st;
            bool is_dir = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
            /* the candidate keeps what was typed (no "./" added) */
            snprintf(full, full_len + 2, "%.*s%s%s", (int)dlen, text, name, is_dir ? "/" : "");
            add(c, full, strlen(full));
            free(full);
        }
        closedir(dp);
    }
    free(dir);
    sort_unique(c);
    bool unique_file = c->n == 1 && c->items[0][strlen(c->items[0]) - 1] != '/';
    c->append = unique_file && after[0] != quote ? quote : 0;
}

/* True when the word ending at ws is preceded by `receiver.` (not a number such as `1.`). */
static bool after_receiver_dot(const char *line, int ws)
{
    if (ws < 2 || line[ws - 1] != '.') return false;
    char r = line[ws - 2];
    if (r == ')' || r == ']' || r == '"' || r == '\'') return true;
    if (!is_ident(r)) return false;
    int i = ws - 2;
    while (i >= 0 && is_ident(line[i])) i--;
    return !isdigit((unsigned char)line[i + 1]);
}

bool shell_complete(Interp *I, const char *pending, const char *line, int cursor, Completions *out)
{
    *out = (Completions){ 0 };
    int len = (int)strlen(line);
    if (cursor < 0 || cursor > len) cursor = len;
    int blank = 0;
    while (blank < cursor && (line[blank] == ' ' || line[blank] == '\t')) blank++;
    if (blank == cursor) {   /* Tab with only blanks before it indents, as in Python's shell */
        out->start = cursor;
        return add(out, INDENT, strlen(INDENT));
    }
    const char *after = line + cursor;
    Context ctx = context_at(pending, line, cursor);
    if (ctx.in_comment) return true;
    if (ctx.in_string) {
        out->start = ctx.str_start;
        const char *text = line + ctx.str_start;
        size_t n = (size_t)(cursor - ctx.str_start);
        Dict *d = ctx.str_start > 0 ? dict_before_bracket(I, line, ctx.str_start - 1) : NULL;
        if (d) complete_dict_keys(d, out, text, n, ctx.quote, after);
        else complete_paths(out, text, n, ctx.quote, after);
        return true;
    }
    int ws = cursor;
    while (ws > 0 && is_ident(line[ws - 1])) ws--;
    out->start = ws;
    const char *word = line + ws;
    size_t wlen = (size_t)(cursor - ws);
    if (wlen && isdigit((unsigned char)word[0])) return true;   /* a number */
    bool first_line = !pending || !*pending;
    int lead = 0;
    while (line[lead] == ' ' || line[lead] == '\t') lead++;
    if (first_line && line[lead] == ':') {
        if (ws == lead + 1) {
#define COMPLETE_COMMAND(NAME, ...) add_if_prefix(out, #NAME, word, wlen);
            SHELL_COMMAND_LIST(COMPLETE_COMMAND)
#undef COMPLETE_COMMAND
            sort_unique(out);
            out->append = ' ';
            return true;
        }
        if (strncmp(line + lead, ":help", 5) == 0 && !is_ident(line[lead + 5])) {
            complete_help_names(I, out, word, wlen);
            sort_unique(out);
            return true;
        }
    }
    int call_start, call_end;
    if (after_receiver_dot(line, ws)) complete_methods(I, out, word, wlen);
    else if (ws > 0 && line[ws - 1] == '.') return true;   /* `1.`: a number, not a call */
    else {
        if (at_call_argument(&ctx, line, ws, &call_start, &call_end))   /* f(x, ax<Tab>: axis= too */
            complete_keywords(I, out, line, call_start, call_end, word, wlen);
        complete_names(I, out, word, wlen);
    }
    sort_unique(out);
    out->append = out->n == 1 && in_list(spaced_keywords, out->items[0]) ? ' ' : 0;
    return true;
}

/* interp.c — the interpreter state: globals, sources, running programs, errors, echo */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "eval.h"
#include "stmt_marks.h"
#include "interp.h"
#include "parse.h"
#include "resolve.h"

/* ---- the global symbol table ------------------------------------------- */

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

int symtab_find(const Symtab *s, const char *name)
{
    if (!s->nbuckets) return -1;
    uint64_t mask = (uint64_t)s->nbuckets - 1;
    for (uint64_t h = hash_name(name) & mask;; h = (h + 1) & mask) {
        int e = s->buckets[h];
        if (e == 0) return -1;
        if (strcmp(s->names[e - 1], name) == 0) return e - 1;
    }
}

/* Doubles the bucket array and reinserts every name. */
static bool symtab_grow(Symtab *s)
{
    int nb = s->nbuckets ? s->nbuckets * 2 : 256;
    int *b = calloc((size_t)nb, sizeof(int));
    if (!b) return false;
    for (int i = 0; i < s->n; i++) {
        uint64_t h = hash_name(s->names[i]) & (uint64_t)(nb - 1);
        while (b[h]) h = (h + 1) & (uint64_t)(nb - 1);
        b[h] = i + 1;
    }
    free(s->buckets);
    s->buckets = b;
    s->nbuckets = nb;
    return true;
}

int symtab_intern(Symtab *s, const char *name)
{
    int i = symtab_find(s, name);
    if (i >= 0) return i;
    if ((s->n + 1) * 2 > s->nbuckets && !symtab_grow(s)) return -1;
    if (s->n == s->cap) {
        int ncap = s->cap ? s->cap * 2 : 64;
        char **nn = realloc(s->names, (size_t)ncap * sizeof *nn);
        if (!nn) return -1;
        s->names = nn;
        s->cap = ncap;
    }
    char *copy = strdup(name);
    if (!copy) return -1;
    s->names[s->n] = copy;
    uint64_t mask = (uint64_t)s->nbuckets - 1;
    uint64_t h = hash_name(name) & mask;
    while (s->buckets[h]) h = (h + 1) & mask;
    s->buckets[h] = s->n + 1;
    return s->n++;
}

static void symtab_free(Symtab *s)
{
    for (int i = 0; i < s->n; i++) free(s->names[i]);
    free(s->names);
    free(s->buckets);
}

/* ---- sources ----------------------------------------------------------- */

Source *source_new(const char *name, const char *text, size_t len)
{
    Source *s = calloc(1, sizeof(Source));
    if (!s) return NULL;
    s->refcount = 1;
    s->name = strdup(name);
    s->text = malloc(len + 1);
    if (!s->name || !s->text) { free(s->name); free(s->text); free(s); return NULL; }
    memcpy(s->text, text, len);
    s->text[len] = 0;
    s->len = len;
    const char *slash = strrchr(name, '/');
    s->dir = slash ? strndup(name, (size_t)(slash - name + 1)) : strdup("");
    if (!s->dir) { source_release(s); return NULL; }
    return s;
}

/* The most source tl reads from one file: include("/dev/zero") must end, not eat all memory. */
#define SOURCE_MAX_BYTES ((size_t)64 << 20)

/* Reports a file over SOURCE_MAX_BYTES; returns NULL. */
static Source *source_too_large(FILE *f, char *buf, const char *path, char *errbuf, size_t errlen)
{
    free(buf);
    fclose(f);
    snprintf(errbuf, errlen, "%s is larger than %zu MiB, the most tl reads as a program", path, SOURCE_MAX_BYTES >> 20);
    return NULL;
}

/* Reads a program's text. A regular file's size is checked before reading. A device or a pipe
   is read up to its first NUL byte, which the lexer then reports as an invalid character at
   its place, so include("/dev/zero") fails at once rather than after 64 MiB (a NUL byte inside
   a string literal is text only in a regular file). */
Source *source_from_file(const char *path, char *errbuf, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(errbuf, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    if (regular && (uintmax_t)st.st_size > SOURCE_MAX_BYTES) return source_too_large(f, NULL, path, errbuf, errlen);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap && cap >= SOURCE_MAX_BYTES && fgetc(f) != EOF)
            return source_too_large(f, buf, path, errbuf, errlen);
        if (len == cap && cap >= SOURCE_MAX_BYTES) break;
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); snprintf(errbuf, errlen, "out of memory reading %s", path); return NULL; }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        const char *nul = regular ? NULL : memchr(buf + len, 0, got);
        len += got;
        if (nul) { len = (size_t)(nul - buf) + 1; break; }
        if (got == 0) break;
    }
    bool err = ferror(f);
    fclose(f);
    if (err) { free(buf); snprintf(errbuf, errlen, "cannot read %s", path); return NULL; }
    Source *s = source_new(path, buf ? buf : "", len);
    free(buf);
    if (!s) snprintf(errbuf, errlen, "out of memory");
    return s;
}

void source_release(Source *s)
{
    if (!s || --s->refcount > 0) return;
    if (s->root) resolve_free(s->root);
    if (s->arena) arena_free(s->arena);
    free(s->name);
    free(s->dir);
    free(s->text);
    free(s);
}

/* ---- interpreter ------------------------------------------------------- */

/* How much C stack the evaluator may use before "recursion too deep". */
static size_t stack_budget(void)
{
    struct rlimit rl;
    size_t total = 8u << 20;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) total = (size_t)rl.rlim_cur;
    if (total > (256u << 20)) total = 256u << 20;
    return total > (2u << 20) ? total - (1u << 20) - total / 8 : total / 2;
}

bool interp_set_global(Interp *I, const char *name, Value v)
{
    int slot = symtab_intern(&I->gsyms, name);
    if (slot < 0 || !frame_ensure(I->globals, I->gsyms.n)) {
        val_release(v);
        return false;
    }
    Value old = I->globals->slots[slot];
    I->globals->slots[slot] = v;
    val_release(old);
    return true;
}

/* The predefined constants: f64 globals, weak as a literal is (f32_tensor * pi stays f32), and
   shadowable as builtins are. */
static const struct { const char *name; double value; } constants[] = {
    { "pi", 3.141592653589793 }, { "e", 2.718281828459045 }, { "inf", HUGE_VAL }, { "nan", NAN },
};

bool interp_is_constant(const char *name, Value v)
{
    for (size_t i = 0; i < sizeof constants / sizeof *constants; i++)
        if (strcmp(name, constants[i].name) == 0)
            return v.kind == V_NUM && v.dtype == TL_F64 && v.weak &&
                   memcmp(&v.as.num.f64, &constants[i].value, sizeof(double)) == 0;
    return false;
}

Interp *interp_new(void)
{
    Interp *I = calloc(1, sizeof(Interp));
    if (!I) return NULL;
    val_owner_init(&I->owner);
    I->globals = frame_new(NULL, 0);
    if (!I->globals) { free(I); return NULL; }
    I->out = stdout;
    I->echo_enabled = true;
    I->last = val_none();
    I->stack_limit = stack_budget();
    if (!builtins_init()) { interp_free(I); return NULL; }
    for (int i = 0; i < builtin_count(); i++) {
        Value v = { .kind = V_BUILTIN };
        v.as.bi = builtin_at(i);
        if (!interp_set_global(I, v.as.bi->name, v)) { interp_free(I); return NULL; }
    }
    for (size_t i = 0; i < sizeof constants / sizeof *constants; i++) {
        Value v = val_f64(constants[i].value);
        v.weak = true;
        if (!interp_set_global(I, constants[i].name, v)) { interp_free(I); return NULL; }
    }
    return I;
}

void interp_free(Interp *I)
{
    if (!I) return;
    val_release(I->last);
    frame_clear(I->globals);
    frame_release(I->globals);
    for (int i = 0; i < I->nsources; i++) source_release(I->sources[i]);
    free(I->sources);
    val_owner_sweep(&I->owner);   /* what only reference cycles keep (tl has no cycle collector) */
    symtab_free(&I->gsyms);
    free(I);
}

static bool keep_source(Interp *I, Source *src)
{
    if (I->nsources == I->capsources) {
        int ncap = I->capsources ? I->capsources * 2 : 16;
        Source **ns = realloc(I->sources, (size_t)ncap * sizeof *ns);
        if (!ns) return false;
        I->sources = ns;
        I->capsources = ncap;
    }
    src->refcount++;
    I->sources[I->nsources++] = src;
    return true;
}

bool interp_parse(Interp *I, Source *src, ParseResult *res)
{
    if (res) *res = (ParseResult){ 0 };
    if (!src->arena) {
        src->arena = arena_new();
        if (!src->arena) return interp_error_kind(I, (Span){ src, 1, 1 }, TL_E_MemoryError, "out of memory");
    }
    ParseResult pr = parse_program(src, src->arena, &I->err);
    if (!pr.root) {
        if (res) *res = pr;
        return false;
    }
    src->root = pr.root;
    if (!resolve_program(I, pr.root)) return false;   /* the error is in I->err */
    if (!frame_ensure(I->globals, I->gsyms.n))
        return interp_error_kind(I, (Span){ src, 1, 1 }, TL_E_MemoryError, "out of memory");
    return true;
}

/* Releases every kept source: at the start of a top-level run, the error they
   were kept for has been reported. Closures still hold their own sources. */
static void drop_reported_sources(Interp *I)
{
    for (int i = 0; i < I->nsources; i++) source_release(I->sources[i]);
    I->nsources = 0;
    I->err.at.src = NULL;   /* the old error's spans may point into them */
    I->err.ntrace = 0;
}

/* Stops keeping src (the most recent entry for it): its run ended without an
   error, so no error span points into it. */
static void forget_source(Interp *I, Source *src)
{
    for (int i = I->nsources - 1; i >= 0; i--) {
        if (I->sources[i] != src) continue;
        memmove(I->sources + i, I->sources + i + 1, (size_t)(I->nsources - i - 1) * sizeof *I->sources);
        I->nsources--;
        source_release(src);
        return;
    }
}

/* The first line of a top-level statement (an assignment's `at` is its '=', which may come later). */
static int statement_line(const Node *n)
{
    return (n->kind == N_ASSIGN || n->kind == N_OPASSIGN ? node_start(n->a) : node_start(n)).line;
}

/* Runs a program's top-level statements one at a time, announcing each on stdout and stderr first,
   so that `tl --test` can tell which statement printed what (the markers: stmt_marks.h). */
static bool eval_marked(Interp *I, Node *root)
{
    fprintf(I->out, "%c%s", MARK_OPEN, MARK_PLAN);
    for (int i = 0; i < root->n; i++) fprintf(I->out, " %d", statement_line(root->list[i]));
    fputc(MARK_CLOSE, I->out);
    for (int i = 0; i < root->n; i++) {
        int line = statement_line(root->list[i]);
        fprintf(I->out, "%c%s %d%c", MARK_OPEN, MARK_STMT, line, MARK_CLOSE);
        fprintf(stderr, "%c%s %d%c", MARK_OPEN, MARK_STMT, line, MARK_CLOSE);
        if (I->as_shell) {
            val_release(I->last);
            I->last = val_none();
        }
        if (!eval_program(I, root->list[i])) {
            if (!I->as_shell || tl_interrupt_flag) return false;
            fflush(I->out);   /* as the shell reports it, and goes on */
            diag_print(stderr, &I->err);
            I->failed_statements++;
            continue;
        }
        if (I->as_shell && I->last.kind != V_NONE && !interp_set_global(I, "_", val_retain(I->last))) return false;
    }
    return true;
}

/* Sources are kept while an error may point into them: a run that fails keeps
   its source (and the sources of failed includes inside it) until the next
   top-level run; a run that succeeds lets its source go at once, unless a
   closure defined in it holds it. So a long shell session, or include() in a
   loop, does not pile up parsed programs. */
bool interp_run_source(Interp *I, Source *src, bool echo)
{
    if (I->run_depth == 0) drop_reported_sources(I);
    if (!keep_source(I, src)) return interp_error_kind(I, (Span){ src, 1, 1 }, TL_E_MemoryError, "out of memory");
    if (!src->root && !interp_parse(I, src, NULL)) return false;
    bool saved = I->echo_enabled;
    I->echo_enabled = echo;
    I->run_depth++;
    bool ok = I->mark_statements && I->run_depth == 1 ? eval_marked(I, src->root) : eval_program(I, src->root);
    I->run_depth--;
    I->echo_enabled = saved;
    if (ok) forget_source(I, src);
    return ok;
}

bool interp_error_kind(Interp *I, Span at, tl_errkind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vset(&I->err, at, kind, fmt, ap);
    va_end(ap);
    return false;
}

bool interp_error_rt(Interp *I, Span at) { return interp_error_kind(I, at, tl_errkind_last(), "%s", tl_errmsg()); }

bool interp_check_repeated(Interp *I, CallArgs *a, const char *fname, int nparams, const char *const *params)
{
    for (int k = 0; k < a->nkw; k++)
        for (int i = 0; i < a->npos && i < nparams; i++)
            if (strcmp(params[i], a->kwnames[k]) == 0)
                return interp_error(I, a->at, TypeError, "%s() got multiple values for argument '%s'", fname, a->kwnames[k]);
    return true;
}

/* ---- echo -------------------------------------------------------------- */

bool interp_echo(Interp *I, Value v, FILE *out)
{
    /* a string echoes raw; anything else as its repr (the print form, and the dtype when not a default) */
    int rc = val_write_file(v, out, v.kind != V_STR, I->mark_statements);
    if (rc == 0 || val_file_bytes_written() > 0) fputc('\n', out);   /* a failed echo ends only a line it began */
    return rc == 0;
}

bool interp_show_value(Interp *I, Value v)
{
    return I->display ? I->display->value(I->display->ctx, I, v) : interp_echo(I, v, I->out);
}

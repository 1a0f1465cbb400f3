/* shell_cmd.c — the shell's own commands: :help NAME, :apropos WORD, :time EXPR, :explain EXPR, :vars, :record FILE, :quit */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval.h"
#include "parse.h"
#include "quant.h"
#include "shell_int.h"
#include "suggest.h"

/* :time aims at about this much total running time, within the run-count bounds below. */
#define TIME_BUDGET_SECONDS 1.0
#define TIME_MIN_RUNS 3
#define TIME_MAX_RUNS 10000

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

/* The length of s without its trailing white space. */
static size_t trimmed_len(const char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    return n;
}

/* ---- :help ---------------------------------------------------------------- */

static void list_commands(FILE *out);

/* Calls help() at `at` as shell_help says. */
static bool help_at(Interp *I, const char *arg, size_t n, Span at)
{
    const Builtin *help = builtin_find("help");
    if (!help) return interp_error(I, at, ValueError, "no help in this build");
    Value fn = { .kind = V_BUILTIN };
    fn.as.bi = help;
    Value argv = val_none(), out = val_none();
    int nargs = 0;
    if (n) {
        char *name = strndup(arg, n);
        int slot = name ? symtab_find(&I->gsyms, name) : -1;
        Value *bound = slot >= 0 && slot < I->globals->nslots ? &I->globals->slots[slot] : NULL;
        bool value = bound && bound->kind != V_UNDEF && bound->kind != V_STR;   /* a string is read as a name */
        argv = value ? val_retain(*bound) : val_str(arg, n);
        free(name);
        nargs = 1;
    }
    tl_interrupt_flag = 0;
    bool ok = argv.kind != V_UNDEF && interp_call(I, fn, nargs, &argv, at, &out);
    if (argv.kind == V_UNDEF) interp_error(I, at, MemoryError, "out of memory");
    val_release(argv);
    val_release(out);
    fflush(I->out);
    return ok;
}

bool shell_help(Interp *I, const char *name, size_t n)
{
    Source *src = source_new("<help>", name, n);
    if (!src) return interp_error(I, (Span){ 0 }, MemoryError, "out of memory");
    bool ok = help_at(I, name, n, (Span){ src, 1, 1 });
    if (!ok) {   /* the error's span must not outlive src: it points at no source */
        I->err.at.src = NULL;
        I->err.ntrace = 0;
    }
    source_release(src);
    return ok;
}

/* :help NAME calls the help builtin with the value bound to NAME (a function, a tensor, ...; not
   a string), else with the string. */
static CmdResult cmd_help(Interp *I, const char *line, const char *arg)
{
    size_t n = trimmed_len(arg);
    Source *src = source_new("<shell>", line, strlen(line));
    if (!src) return CMD_DONE;
    bool ok = help_at(I, arg, n, (Span){ src, 1, (int)(arg - line) + 1 });
    if (!ok) shell_print_error(I);
    else if (!n) list_commands(I->out);
    source_release(src);
    return CMD_DONE;
}

/* :apropos WORD is help("*WORD*"): every builtin and topic that mentions the word. */
static CmdResult cmd_apropos(Interp *I, const char *line, const char *arg)
{
    (void)line;
    size_t n = trimmed_len(arg);
    if (!n) {
        fprintf(stderr, ":apropos needs a word, as in  :apropos norm\n");
        return CMD_DONE;
    }
    char query[256];
    snprintf(query, sizeof query, ":help *%.*s*", (int)(n < 200 ? n : 200), arg);
    return cmd_help(I, query, query + 6);
}

/* ---- :time ---------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The p-quantile of sorted v, interpolating linearly (numpy's default). */
static double quantile(const double *v, int n, double p)
{
    double pos = p * (n - 1);
    int lo = (int)pos;
    if (lo >= n - 1) return v[n - 1];
    return v[lo] + (pos - lo) * (v[lo + 1] - v[lo]);
}

/* Writes seconds with a unit that keeps three or four significant digits. */
static void put_duration(FILE *f, double s)
{
    if (s >= 1) fprintf(f, "%.3f s", s);
    else if (s >= 1e-3) fprintf(f, "%.3f ms", s * 1e3);
    else if (s >= 1e-6) fprintf(f, "%.3f us", s * 1e6);
    else fprintf(f, "%.0f ns", s * 1e9);
}

/* Runs the parsed statement once (no echo); false on error or Ctrl-C. */
static bool timed_run(Interp *I, Node *root, double *seconds)
{
    bool saved = I->echo_enabled;
    I->echo_enabled = false;
    double t0 = now_seconds();
    bool ok = eval_program(I, root);
    *seconds = now_seconds() - t0;
    I->echo_enabled = saved;
    return ok;
}

static void print_timing(FILE *f, double *t, int runs)
{
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    fputs("median ", f);
    put_duration(f, quantile(t, runs, 0.5));
    fputs(", middle half ", f);
    put_duration(f, quantile(t, runs, 0.25));
    fputs(" to ", f);
    put_duration(f, quantile(t, runs, 0.75));
    fputs(", min ", f);
    put_duration(f, t[0]);
    fputs(", max ", f);
    put_duration(f, t[runs - 1]);
    fprintf(f, " (%d runs)\n", runs);
}

/* :time EXPR runs EXPR (any statement) several times and prints the median and the spread. */
static CmdResult cmd_time(Interp *I, const char *line, const char *arg)
{
    (void)line;
    if (!*skip_space(arg)) {
        fprintf(stderr, ":time needs a statement, as in  :time a @ b\n");
        return CMD_DONE;
    }
    Source *src = source_new("<shell>", arg, strlen(arg));
    if (!src) return CMD_DONE;
    tl_interrupt_flag = 0;
    if (!interp_parse(I, src, NULL)) {
        shell_print_error(I);
        source_release(src);
        return CMD_DONE;
    }
    /* interp_run_source keeps the source alive for closures the statement makes; later runs reuse it */
    double *t = malloc(sizeof(double) * TIME_MAX_RUNS);
    double t0 = now_seconds();
    bool ok = t && interp_run_source(I, src, false);
    if (!t) interp_error_kind(I, (Span){ src, 1, 1 }, TL_E_MemoryError, "out of memory");
    int runs = 0;
    if (ok) t[runs++] = now_seconds() - t0;
    int target = ok ? (t[0] > 0 ? (int)(TIME_BUDGET_SECONDS / t[0]) : TIME_MAX_RUNS) : 0;
    if (target < TIME_MIN_RUNS) target = TIME_MIN_RUNS;
    if (target > TIME_MAX_RUNS) target = TIME_MAX_RUNS;
    while (ok && runs < target) {
        ok = timed_run(I, src->root, &t[runs]);
        if (ok) runs++;
    }
    CmdResult r = CMD_DONE;
    if (ok) {
        print_timing(I->out, t, runs);
    } else if (shell_was_interrupted(I)) {   /* the runs that finished keep what they did, as any statement */
        shell_report_interrupt(I);
        r = CMD_INTERRUPTED;
    } else {
        shell_print_error(I);
    }
    tl_interrupt_flag = 0;
    free(t);
    source_release(src);
    fflush(I->out);
    return r;
}

/* ---- :explain ------------------------------------------------------------- */

/* Appends to b each name in expr that a global tensor is bound to (once each), separated by ", ". */
static bool tensor_names(Interp *I, const char *expr, StrBuf *b)
{
    for (const char *p = expr; *p;) {
        if (*p == '"' || *p == '\'') {   /* a string literal's words are not names */
            char q = *p++;
            while (*p && *p != q) p += p[0] == '\\' && p[1] ? 2 : 1;
            if (*p) p++;
            continue;
        }
        if (!(isalpha((unsigned char)*p) || *p == '_')) { p++; continue; }
        const char *w = p;
        while (isalnum((unsigned char)*p) || *p == '_') p++;
        char *name = strndup(w, (size_t)(p - w));
        if (!name) return false;
        int slot = symtab_find(&I->gsyms, name);
        bool tensor = slot >= 0 && slot < I->globals->nslots && I->globals->slots[slot].kind == V_TENSOR;
        bool seen = false;
        for (const char *s = b->data; tensor && s && (s = strstr(s, name)); s++)   /* already listed? */
            if ((s == b->data || s[-1] == ' ') && (s[strlen(name)] == ',' || s[strlen(name)] == '\0')) seen = true;
        bool ok = !tensor || seen || sb_printf(b, "%s%s", b->len ? ", " : "", name);
        free(name);
        if (!ok) return false;
    }
    return true;
}

/* True when text[0..n) parses as exactly one expression (no statement, no second one, no ';'):
   :explain pastes it into a program, where unbalanced brackets would run statements of their
   own. Says why not on stderr. Parsing only: nothing is resolved or bound. */
static bool one_expression(Interp *I, const char *text, size_t n)
{
    Source *src = source_new("<explain>", text, n);
    Arena *arena = src ? arena_new() : NULL;
    if (!arena) {
        source_release(src);
        fprintf(stderr, "out of memory\n");
        return false;
    }
    src->arena = arena;   /* the source owns it */
    ParseResult pr = parse_program(src, arena, &I->err);
    const Node *root = pr.root;
    bool one = root && root->kind == N_BLOCK && root->n == 1 && root->list[0]->kind == N_EXPR_STMT && root->list[0]->echo;
    if (!root) {
        shell_print_error(I);
        I->err.at.src = NULL;   /* it points into src */
    } else if (!one) fprintf(stderr, ":explain takes one expression (not a statement, not two, no ';'), as in  :explain exp(x - 1) * w\n");
    source_release(src);
    return one;
}

/* :explain EXPR prints the graph of EXPR over the global tensors it names (graph() with them
   as the examples): its nodes, fused groups and planned memory. Nothing is bound or echoed. */
static CmdResult cmd_explain(Interp *I, const char *line, const char *arg)
{
    (void)line;
    size_t n = trimmed_len(arg);
    if (!n) {
        fprintf(stderr, ":explain needs an expression, as in  :explain exp(x - 1) * w\n");
        return CMD_DONE;
    }
    if (!one_expression(I, arg, n)) return CMD_DONE;
    StrBuf names = { 0 }, text = { 0 };   /* EXPR on a line of its own: a comment in it ends there */
    bool ok = tensor_names(I, arg, &names) &&
              sb_printf(&text, "print(graph(fn(%s) = (\n%.*s\n)%s%s))", names.len ? names.data : "", (int)n, arg,
                        names.len ? ", " : "", names.len ? names.data : "");
    Source *src = ok ? source_new("<explain>", text.data, text.len) : NULL;
    sb_free(&names);
    sb_free(&text);
    if (!src) {
        fprintf(stderr, "out of memory\n");
        return CMD_DONE;
    }
    tl_interrupt_flag = 0;
    CmdResult r = CMD_DONE;
    if (!interp_parse(I, src, NULL) || !interp_run_source(I, src, false)) {
        if (shell_was_interrupted(I)) {
            shell_report_interrupt(I);
            r = CMD_INTERRUPTED;
        } else {
            shell_print_error(I);
        }
    }
    tl_interrupt_flag = 0;
    source_release(src);
    fflush(I->out);
    return r;
}

/* ---- :vars ---------------------------------------------------------------- */

typedef struct VarRow { const char *name; char type[32], shape[96], bytes[32], mapped[32], resident[32]; } VarRow;

static void shape_text(char *buf, size_t cap, int ndim, const int64_t *shape)
{
    size_t w = (size_t)snprintf(buf, cap, "(");
    for (int i = 0; i < ndim && w < cap; i++)
        w += (size_t)snprintf(buf + w, cap - w, "%s%lld", i ? ", " : "", (long long)shape[i]);
    if (w < cap) snprintf(buf + w, cap - w, ndim == 1 ? ",)" : ")");
}

/* Fills a row describing v: dtype, ggml type or kind, shape (or length), bytes of its elements
   (as stored: blocks for a quantized tensor), and of a tensor's storage those a file maps and
   those in memory now. */
static void describe(VarRow *r, Value v)
{
    strcpy(r->shape, "");
    strcpy(r->bytes, "-");
    strcpy(r->mapped, "-");
    strcpy(r->resident, "-");
    switch (v.kind) {
    case V_NUM:
        snprintf(r->type, sizeof r->type, "%s", tl_dtype_name((tl_dtype)v.dtype));
        strcpy(r->shape, "()");
        snprintf(r->bytes, sizeof r->bytes, "%zu", tl_dtype_size((tl_dtype)v.dtype));
        break;
    case V_TENSOR: {
        tl_tensor *t = v.as.t;
        tl_footprint fp;
        tl_tensor_footprint(t, &fp);
        snprintf(r->type, sizeof r->type, "%s", tl_tensor_type_name(t));
        shape_text(r->shape, sizeof r->shape, t->ndim, t->shape);
        snprintf(r->bytes, sizeof r->bytes, "%llu", (unsigned long long)fp.stored);
        snprintf(r->mapped, sizeof r->mapped, "%llu", (unsigned long long)fp.mapped);
        snprintf(r->resident, sizeof r->resident, "%llu", (unsigned long long)fp.resident);
        break;
    }
    case V_STR:
        strcpy(r->type, "string");
        snprintf(r->shape, sizeof r->shape, "len %lld", (long long)str_chars(v.as.s));
        snprintf(r->bytes, sizeof r->bytes, "%zu", v.as.s->len);
        break;
    case V_TUPLE:
        strcpy(r->type, "tuple");
        snprintf(r->shape, sizeof r->shape, "%d item%s", v.as.tu->n, v.as.tu->n == 1 ? "" : "s");
        break;
    case V_LIST:
        strcpy(r->type, "list");
        snprintf(r->shape, sizeof r->shape, "%lld item%s", (long long)v.as.l->n, v.as.l->n == 1 ? "" : "s");
        break;
    case V_DICT:
        strcpy(r->type, "dict");
        snprintf(r->shape, sizeof r->shape, "%d key%s", v.as.d->n, v.as.d->n == 1 ? "" : "s");
        break;
    case V_FUNC: {
        FnDef *d = v.as.fn->def;
        strcpy(r->type, "function");
        size_t w = (size_t)snprintf(r->shape, sizeof r->shape, "%s(", d->name);
        for (int k = 0; k < fndef_written_count(d) && w < sizeof r->shape; k++) {
            const char *stars;
            int i = fndef_written_param(d, k, &stars);
            w += (size_t)snprintf(r->shape + w, sizeof r->shape - w, "%s%s%s", k ? ", " : "", stars, i < 0 ? "" : d->params[i]);
        }
        if (w < sizeof r->shape) snprintf(r->shape + w, sizeof r->shape - w, ")");
        break;
    }
    case V_GRAPH:
        strcpy(r->type, "graph");
        break;
    case V_BUILTIN:
        strcpy(r->type, "builtin");
        snprintf(r->shape, sizeof r->shape, "%s", v.as.bi->signature);
        break;
    default:
        strcpy(r->type, "none");
        break;
    }
}

static int cmp_row(const void *a, const void *b) { return strcmp(((const VarRow *)a)->name, ((const VarRow *)b)->name); }

/* True for globals the user did not make: builtins under their own name, the constants, an empty argv. */
static bool is_system_binding(const char *name, Value v)
{
    if (v.kind == V_BUILTIN && strcmp(v.as.bi->name, name) == 0) return true;
    if (interp_is_constant(name, v)) return true;
    return strcmp(name, "argv") == 0 && v.kind == V_TUPLE && v.as.tu->n == 0;
}

static CmdResult cmd_vars(Interp *I, const char *line, const char *arg)
{
    (void)line, (void)arg;
    int n = I->gsyms.n < I->globals->nslots ? I->gsyms.n : I->globals->nslots;
    VarRow *rows = malloc(sizeof(VarRow) * (size_t)(n ? n : 1));
    if (!rows) return CMD_DONE;
    int nrows = 0;
    for (int i = 0; i < n; i++) {
        Value v = I->globals->slots[i];
        if (v.kind == V_UNDEF || is_system_binding(I->gsyms.names[i], v)) continue;
        rows[nrows].name = I->gsyms.names[i];
        describe(&rows[nrows++], v);
    }
    if (nrows == 0) {
        fprintf(I->out, "no variables\n");
        free(rows);
        return CMD_DONE;
    }
    qsort(rows, (size_t)nrows, sizeof *rows, cmp_row);
    int wn = 4, wt = 4, ws = 5, wb = 5, wm = 6;
    for (int i = 0; i < nrows; i++) {
        int a = (int)strlen(rows[i].name), b = (int)strlen(rows[i].type), c = (int)strlen(rows[i].shape);
        int d = (int)strlen(rows[i].bytes), e = (int)strlen(rows[i].mapped);
        wn = a > wn ? a : wn;
        wt = b > wt ? b : wt;
        ws = c > ws ? c : ws;
        wb = d > wb ? d : wb;
        wm = e > wm ? e : wm;
    }
    fprintf(I->out, "%-*s  %-*s  %-*s  %*s  %*s  %s\n", wn, "name", wt, "type", ws, "shape", wb, "bytes", wm, "mapped", "resident");
    for (int i = 0; i < nrows; i++)
        fprintf(I->out, "%-*s  %-*s  %-*s  %*s  %*s  %s\n", wn, rows[i].name, wt, rows[i].type, ws, rows[i].shape, wb, rows[i].bytes,
                wm, rows[i].mapped, rows[i].resident);
    free(rows);
    fflush(I->out);
    return CMD_DONE;
}

/* ---- :record --------------------------------------------------------------- */

/* :record FILE.tl starts writing the session as a golden test; :record alone stops. */
static CmdResult cmd_record(Interp *I, const char *line, const char *arg)
{
    (void)I, (void)line;
    size_t n = trimmed_len(arg);
    if (!n) {
        if (record_active()) printf("recorded %s (tl --test %s runs it)\n", record_path(), record_path());
        else fprintf(stderr, ":record needs a file, as in  :record session.tl  (:record alone stops)\n");
        record_stop();
        return CMD_DONE;
    }
    char *path = strndup(arg, n);
    if (path && record_start(path)) printf("recording to %s (:record alone stops)\n", path);
    free(path);
    fflush(stdout);
    return CMD_DONE;
}

/* ---- dispatch ------------------------------------------------------------- */

static CmdResult cmd_quit(Interp *I, const char *line, const char *arg)
{
    (void)I, (void)line, (void)arg;
    return CMD_QUIT;
}

/* The commands of SHELL_COMMAND_LIST (shell_int.h), each run by its cmd_NAME. */
static const struct Command {
    const char *name, *alias, *args, *what;
    CmdResult (*run)(Interp *I, const char *line, const char *arg);
} commands[] = {
#define COMMAND_ROW(NAME, ALIAS, ARGS, WHAT, RUN) { #NAME, ALIAS, ARGS, WHAT, cmd_##RUN },
    SHELL_COMMAND_LIST(COMMAND_ROW)
#undef COMMAND_ROW
};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

/* One line per command (the ones with a description), for :help. */
static void list_commands(FILE *out)
{
    fprintf(out, "Shell commands:\n");
    for (int i = 0; i < NCOMMANDS; i++) {
        if (!commands[i].what) continue;
        char head[32];
        snprintf(head, sizeof head, ":%s%s", commands[i].name, commands[i].args);
        fprintf(out, "  %-14s %s\n", head, commands[i].what);
    }
}

CmdResult shell_command(Interp *I, const char *line)
{
    const char *p = skip_space(line) + 1;   /* past ':' */
    const char *name = p;
    while (isalpha((unsigned char)*p)) p++;
    size_t n = (size_t)(p - name);
    const char *arg = skip_space(p);
    char spelled[NCOMMANDS][16];   /* ":help": what "did you mean" offers */
    const char *names[NCOMMANDS];
    for (int i = 0; i < NCOMMANDS; i++) {
        const struct Command *c = &commands[i];
        if ((strlen(c->name) == n && strncmp(name, c->name, n) == 0) || (c->alias && strlen(c->alias) == n && strncmp(name, c->alias, n) == 0))
            return c->run(I, line, arg);
        snprintf(spelled[i], sizeof spelled[i], ":%s", c->name);
        names[i] = spelled[i];
    }
    char word[32], hint[160];
    snprintf(word, sizeof word, ":%.*s", (int)(n < 30 ? n : 30), name);
    tl_suggest_among(word, names, NCOMMANDS, '\'', hint, sizeof hint);
    fprintf(stderr, "unknown command :%.*s%s (:help lists the commands)\n", (int)n, name, hint);
    return CMD_DONE;
}

/* shell.c — the interactive prompt: reads whole statements, runs them, survives errors and Ctrl-C */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shell.h"
#include "shell_int.h"

/* Exit status of a non-interactive shell stopped by Ctrl-C (as a script's). */
#define EXIT_INTERRUPTED 130

/* ---- errors ------------------------------------------------------------ */

static bool color_enabled(void)
{
    const char *nc = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    if (nc && *nc) return false;
    if (term && strcmp(term, "dumb") == 0) return false;
    return isatty(2);
}

/* Writes one line of diag_print's output with "error[KIND]:", "note:" and the caret colored. */
static void put_colored_line(const char *line, size_t n)
{
    static const struct { const char *word, *end, *color; } marks[] = {
        { ": error[", "]:", "\033[1;31m" }, { ": note: ", ":", "\033[1;36m" },
    };
    for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++) {
        const char *hit = memmem(line, n, marks[k].word, strlen(marks[k].word));
        const char *end = hit ? memmem(hit + 1, n - (size_t)(hit + 1 - line), marks[k].end, strlen(marks[k].end)) : NULL;
        if (!end) continue;
        size_t word = (size_t)(end - hit) + strlen(marks[k].end) - 2;   /* "error[KIND]:" or "note:" */
        fwrite(line, 1, (size_t)(hit - line) + 2, stderr);
        fprintf(stderr, "%s%.*s\033[0m", marks[k].color, (int)word, hit + 2);
        fwrite(hit + 2 + word, 1, n - (size_t)(hit + 2 + word - line), stderr);
        return;
    }
    size_t blank = 0;
    while (blank < n && (line[blank] == ' ' || line[blank] == '\t')) blank++;
    if (n > 0 && blank == n - 1 && line[n - 1] == '^') {
        fwrite(line, 1, blank, stderr);
        fputs("\033[1;32m^\033[0m", stderr);
        return;
    }
    fwrite(line, 1, n, stderr);
}

void shell_print_error(Interp *I)
{
    fflush(stdout);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = color_enabled() ? open_memstream(&text, &len) : NULL;
    if (!mem) {
        diag_print(stderr, &I->err);
        fflush(stderr);
        return;
    }
    diag_print(mem, &I->err);
    fclose(mem);
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        put_colored_line(p, n);
        if (nl) fputc('\n', stderr);
        p += n + (nl != NULL);
    }
    free(text);
    fflush(stderr);
}

bool shell_was_interrupted(Interp *I)
{
    return tl_interrupt_flag || I->err.kind == TL_E_Interrupt;
}

/* ---- running one statement --------------------------------------------- */

void shell_report_interrupt(Interp *I)
{
    clearerr(stdout);   /* a write cut short by the signal must not poison later output */
    if (isatty(1)) fputc('\n', stdout);   /* end a line cut short (and the terminal's "^C") */
    fflush(stdout);
    shell_print_error(I);
}

/* Ctrl-C keeps what finished: every statement (and loop step) that completed before it keeps
   its bindings, as in Python; only the one running is abandoned (its assignment is not made). */
bool shell_exec(Interp *I, Source *src, bool echo)
{
    val_release(I->last);
    I->last = val_none();
    bool ok = interp_run_source(I, src, echo);
    fflush(stdout);
    if (!ok && shell_was_interrupted(I)) {
        val_release(I->last);
        I->last = val_none();
        return false;
    }
    if (I->last.kind != V_NONE) interp_set_global(I, "_", val_retain(I->last));
    return ok;
}

bool shell_run_statement(Interp *I, Source *src, bool echo)
{
    bool ok = shell_exec(I, src, echo);
    if (!ok && shell_was_interrupted(I)) {
        shell_report_interrupt(I);
        return false;
    }
    if (tl_interrupt_flag && isatty(1)) fputc('\n', stdout);   /* Ctrl-C came too late: end the "^C" line */
    if (!ok) shell_print_error(I);
    return ok;
}

/* ---- the read-eval loop ------------------------------------------------ */

static bool is_blank(const char *s)
{
    for (; *s; s++)
        if (!isspace((unsigned char)*s)) return false;
    return true;
}

/* Whether the line is exit or quit alone (spaces around allowed): the shell then quits. */
static bool is_quit_word(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strcspn(s, " \t");
    if (!((n == 4 && strncmp(s, "exit", 4) == 0) || (n == 4 && strncmp(s, "quit", 4) == 0))) return false;
    for (s += n; *s; s++)
        if (!isspace((unsigned char)*s)) return false;
    return true;
}

/* For ?name and name? (IPython's): the name alone, as ":help name" into buf, or false when the
   line is not one. */
static bool help_query(const char *s, char *buf, size_t cap)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (n < 2 || (s[0] == '?') == (s[n - 1] == '?')) return false;
    const char *name = s[0] == '?' ? s + 1 : s;
    size_t len = n - 1;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_') return false;
    return snprintf(buf, cap, ":help %.*s", (int)len, name) < (int)cap;
}

static bool is_command(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return *s == ':';
}

/* What the loop does after one entry. */
typedef enum Step { STEP_MORE, STEP_NEXT, STEP_STOP } Step;

/* Parses the entry so far: runs it when complete, asks for more when it is not (open then
   says which brackets and string are still open). */
static Step try_entry(Interp *I, StrBuf *entry, bool interactive, bool *interrupted, char *open)
{
    Source *src = source_new("<shell>", entry->data ? entry->data : "", entry->len);
    if (!src) { fputs("tl: out of memory\n", stderr); return STEP_STOP; }
    ParseResult pr;
    tl_interrupt_flag = 0;
    if (!interp_parse(I, src, &pr)) {
        bool incomplete = pr.incomplete;
        memcpy(open, pr.open, sizeof pr.open);
        if (!incomplete) {
            if (interactive) line_history_add(entry->data);
            shell_print_error(I);   /* before the release: the error points into src */
        }
        source_release(src);
        return incomplete ? STEP_MORE : STEP_NEXT;
    }
    if (interactive) line_history_add(entry->data);
    if (record_active()) record_run(I, entry->data, entry->len, interrupted);
    else if (!shell_run_statement(I, src, true) && shell_was_interrupted(I)) *interrupted = true;
    tl_interrupt_flag = 0;
    source_release(src);
    return STEP_NEXT;
}

/* At end of input inside an unfinished statement: says why it was not run. */
static void report_unfinished(Interp *I, StrBuf *entry)
{
    Source *src = source_new("<shell>", entry->data ? entry->data : "", entry->len);
    if (!src) return;
    if (!interp_parse(I, src, NULL)) shell_print_error(I);
    source_release(src);
}

/* The continuation prompt: what is still open, innermost last, in the width of "tl> " ("..( ",
   ".([ ", "..' "; "... " when nothing is known). */
static const char *continuation_prompt(const char *open, char *buf)
{
    size_t n = strlen(open), keep = n > 3 ? 3 : n;
    memset(buf, '.', 3);
    memcpy(buf + 3 - keep, open + n - keep, keep);
    buf[3] = ' ';
    buf[4] = '\0';
    return buf;
}

int shell_run(Interp *I)
{
    bool interactive = isatty(0);
    int status = 0;
    line_open(I, interactive);
    if (interactive && isatty(1)) printf("tl %s: help() or ?NAME for help, exit or Ctrl-D to quit\n", TL_VERSION);
    StrBuf entry = { 0 };
    char open[PARSE_OPEN_MAX + 1] = "", prompt[5];
    for (;;) {
        char *line = NULL;
        LineStatus st = line_read(entry.len ? continuation_prompt(open, prompt) : "tl> ", entry.len ? entry.data : "", &line);
        if (st == LINE_EOF) {
            if (entry.len && !interactive) report_unfinished(I, &entry);
            break;
        }
        if (st == LINE_INTERRUPT) {
            entry.len = 0;
            if (!interactive) { status = EXIT_INTERRUPTED; break; }
            continue;
        }
        char query[128];
        bool asks = entry.len == 0 && help_query(line, query, sizeof query);
        if (entry.len == 0 && (asks || is_command(line))) {
            if (interactive) line_history_add(line);
            CmdResult r = shell_command(I, asks ? query : line);
            free(line);
            if (r == CMD_QUIT) break;
            if (r == CMD_INTERRUPTED && !interactive) { status = EXIT_INTERRUPTED; break; }
            continue;
        }
        if (entry.len == 0 && is_blank(line)) { free(line); continue; }
        if (entry.len == 0 && is_quit_word(line)) {
            if (interactive) line_history_add(line);
            free(line);
            break;
        }
        bool ok = (!entry.len || sb_append(&entry, "\n", 1)) && sb_append(&entry, line, strlen(line));
        free(line);
        if (!ok) { fputs("tl: out of memory\n", stderr); break; }
        bool interrupted = false;
        Step step = try_entry(I, &entry, interactive, &interrupted, open);
        if (step == STEP_STOP) break;
        if (step == STEP_NEXT) entry.len = 0;
        if (interrupted && !interactive) { status = EXIT_INTERRUPTED; break; }
    }
    sb_free(&entry);
    record_stop();
    line_close();
    if (interactive) fputc('\n', stdout);
    fflush(stdout);
    return status;
}

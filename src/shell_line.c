/* shell_line.c — reading lines: GNU readline or libedit on a terminal, plain stdio otherwise;
   Ctrl-C at the prompt clears the line; history and Tab completion hooks */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shell_int.h"

#if defined(TL_LINE_READLINE)
#include <readline/history.h>
#include <readline/readline.h>
#define HAVE_EDITOR 1
#elif defined(TL_LINE_LIBEDIT)
#include <editline/readline.h>
#include "dynlib.h"
#define HAVE_EDITOR 1
#else
#define HAVE_EDITOR 0
#endif

#if defined(TL_LINE_LIBEDIT)
#ifndef TL_LIBEDIT_LIBRARY_DEFAULT
#define TL_LIBEDIT_LIBRARY_DEFAULT "libedit.so.2"
#endif
/* libedit is opened with dlopen when the shell first edits a line, so `tl -e` and scripts
   never load it (nor libtinfo and libbsd behind it). Every name below is reached
   through this table: the functions and the variables the shell uses. */
#define LIBEDIT_SYMBOLS(X)                                                                              \
    X(rl_callback_handler_install) X(rl_callback_handler_remove) X(rl_callback_read_char)               \
    X(rl_replace_line) X(rl_completion_matches) X(add_history) X(using_history) X(stifle_history)      \
    X(clear_history) X(rl_outstream) X(rl_instream) X(rl_line_buffer) X(rl_point) X(rl_end)           \
    X(rl_attempted_completion_over) X(rl_completion_append_character) X(rl_readline_name)            \
    X(rl_catch_signals) X(rl_attempted_completion_function) X(rl_completion_word_break_hook)          \
    X(rl_basic_word_break_characters) X(rl_completer_word_break_characters)
#define LIBEDIT_FIELD(name) __typeof__(&name) name;
#define LIBEDIT_NAME(name) #name,
#define LIBEDIT_SLOT(name) (void **)&edit.name,
static struct { LIBEDIT_SYMBOLS(LIBEDIT_FIELD) } edit;
static tl_dynlib edit_lib = TL_DYNLIB_INIT;

/* Fills edit from libedit (run once). */
static void load_libedit(void)
{
    static const char *const names[] = { LIBEDIT_SYMBOLS(LIBEDIT_NAME) NULL };
    static void **const slots[] = { LIBEDIT_SYMBOLS(LIBEDIT_SLOT) NULL };
    if (tl_dynlib_open(&edit_lib, "libedit", "TL_LIBEDIT_LIBRARY", TL_LIBEDIT_LIBRARY_DEFAULT, names, slots))
        edit_lib.status = 0;
}

/* True once libedit is loaded; else (said once on stderr) the shell reads plain lines. */
static bool editor_load(void)
{
    if (tl_dynlib_load(&edit_lib, load_libedit) == 0) return true;
    fprintf(stderr, "tl: %s; reading plain lines\n", tl_errmsg());
    return false;
}

#define rl_callback_handler_install (*edit.rl_callback_handler_install)
#define rl_callback_handler_remove (*edit.rl_callback_handler_remove)
#define rl_callback_read_char (*edit.rl_callback_read_char)
#define rl_replace_line (*edit.rl_replace_line)
#define rl_completion_matches (*edit.rl_completion_matches)
#define add_history (*edit.add_history)
#define using_history (*edit.using_history)
#define stifle_history (*edit.stifle_history)
#define clear_history (*edit.clear_history)
#define rl_outstream (*edit.rl_outstream)
#define rl_instream (*edit.rl_instream)
#define rl_line_buffer (*edit.rl_line_buffer)
#define rl_point (*edit.rl_point)
#define rl_end (*edit.rl_end)
#define rl_attempted_completion_over (*edit.rl_attempted_completion_over)
#define rl_completion_append_character (*edit.rl_completion_append_character)
#define rl_readline_name (*edit.rl_readline_name)
#define rl_catch_signals (*edit.rl_catch_signals)
#define rl_attempted_completion_function (*edit.rl_attempted_completion_function)
#define rl_completion_word_break_hook (*edit.rl_completion_word_break_hook)
#define rl_basic_word_break_characters (*edit.rl_basic_word_break_characters)
#define rl_completer_word_break_characters (*edit.rl_completer_word_break_characters)
#elif HAVE_EDITOR
/* GNU readline is linked. */
static bool editor_load(void) { return true; }
#endif

static struct {
    Interp *I;
    bool interactive;
    bool editing;            /* the line editor is in use (interactive and built with one) */
    char *hist_file;         /* NULL: history is not saved */
    char *last_entry;        /* the newest history entry, to skip repeats */
    const char *pending;     /* the entry's earlier lines, for completion */
    int sigpipe[2];          /* the SIGINT handler writes a byte here to wake poll() */
    bool handler_set;
    struct sigaction old_sigint;
} L = { .sigpipe = { -1, -1 } };

const char *line_editor_name(void)
{
#if defined(TL_LINE_READLINE)
    return "readline";
#elif defined(TL_LINE_LIBEDIT)
    return "libedit";
#else
    return "none";
#endif
}

/* ---- Ctrl-C ------------------------------------------------------------------ */

/* Sets the flag the evaluator and kernels poll, and wakes a prompt waiting in poll()
   (the signal may land on any thread, so an EINTR cannot be relied on). */
static void on_sigint(int sig)
{
    (void)sig;
    int saved = errno;
    tl_interrupt_flag = 1;
    if (L.sigpipe[1] >= 0) {
        ssize_t w = write(L.sigpipe[1], "!", 1);
        (void)w;
    }
    errno = saved;
}

static void drain_sigpipe(void)
{
    char buf[64];
    if (L.sigpipe[0] >= 0)
        while (read(L.sigpipe[0], buf, sizeof buf) > 0) {}
}

static void install_sigint(void)
{
    if (pipe(L.sigpipe) != 0) {
        L.sigpipe[0] = L.sigpipe[1] = -1;
    } else {
        for (int i = 0; i < 2; i++) {
            fcntl(L.sigpipe[i], F_SETFL, fcntl(L.sigpipe[i], F_GETFL) | O_NONBLOCK);
            fcntl(L.sigpipe[i], F_SETFD, FD_CLOEXEC);
        }
    }
    struct sigaction sa = { 0 };
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    L.handler_set = sigaction(SIGINT, &sa, &L.old_sigint) == 0;
}

static void remove_sigint(void)
{
    if (L.handler_set) sigaction(SIGINT, &L.old_sigint, NULL);
    L.handler_set = false;
    for (int i = 0; i < 2; i++) {
        if (L.sigpipe[i] >= 0) close(L.sigpipe[i]);
        L.sigpipe[i] = -1;
    }
}

typedef enum WaitResult { WAIT_READY, WAIT_INTERRUPT, WAIT_ERROR } WaitResult;

/* Waits until stdin has input or Ctrl-C is pressed. */
static WaitResult wait_input(void)
{
    for (;;) {
        if (tl_interrupt_flag) return WAIT_INTERRUPT;
        struct pollfd p[2] = { { 0, POLLIN, 0 }, { L.sigpipe[0], POLLIN, 0 } };
        int r = poll(p, L.sigpipe[0] >= 0 ? 2 : 1, -1);
        if (r < 0) {
            if (errno == EINTR) continue;
            return WAIT_ERROR;
        }
        if (L.sigpipe[0] >= 0 && (p[1].revents & POLLIN)) {
            drain_sigpipe();
            continue;   /* the flag says whether it was Ctrl-C */
        }
        if (p[0].revents) return WAIT_READY;
    }
}

/* ---- plain reading (pipes, files, builds without an editor) ----------------- */

/* Reads one line with stdio; LINE_INTERRUPT if a read was cut short by Ctrl-C. */
static LineStatus read_plain(char **out)
{
    StrBuf b = { 0 };
    char buf[4096];
    bool any = false;
    for (;;) {
        if (!fgets(buf, sizeof buf, stdin)) {
            if (ferror(stdin) && errno == EINTR && tl_interrupt_flag) {
                clearerr(stdin);
                sb_free(&b);
                return LINE_INTERRUPT;
            }
            break;
        }
        any = true;
        size_t n = strlen(buf);
        bool nl = n && buf[n - 1] == '\n';
        if (!sb_append(&b, buf, nl ? n - 1 : n)) break;
        if (nl) break;
    }
    if (!any) { sb_free(&b); return LINE_EOF; }
    *out = b.data ? b.data : strdup("");
    return *out ? LINE_OK : LINE_EOF;
}

/* A terminal without a line editor: prompt, then wait so Ctrl-C can interrupt the wait. */
static LineStatus read_plain_prompted(const char *prompt, char **out)
{
    fputs(prompt, stdout);
    fflush(stdout);
    WaitResult w = wait_input();
    if (w == WAIT_INTERRUPT) {
        fputc('\n', stdout);
        return LINE_INTERRUPT;
    }
    if (w == WAIT_ERROR) return LINE_EOF;
    return read_plain(out);
}

/* ---- the line editor ------------------------------------------------------- */

#if HAVE_EDITOR
static struct {
    bool done, eof;
    char *line;
} got;

/* Called by the editor with a finished line (NULL at Ctrl-D on an empty line). */
static void on_line(char *line)
{
    got.done = true;
    got.eof = line == NULL;
    got.line = line;
    rl_callback_handler_remove();   /* so the editor does not print the next prompt itself */
}

/* Abandons the line being edited after Ctrl-C. */
static void cancel_line(void)
{
    FILE *out = rl_outstream ? rl_outstream : stdout;
#if defined(TL_LINE_READLINE)
    rl_point = rl_end;   /* "^C" goes after the whole line, as in bash */
    rl_redisplay();      /* (libedit's rl_redisplay pushes a ^R key instead: not there) */
#endif
    fputs("^C", out);
    fflush(out);
#if defined(TL_LINE_READLINE)
    rl_free_line_state();
    rl_callback_sigcleanup();
    rl_cleanup_after_signal();
#else
    rl_replace_line("", 0);
#endif
    rl_callback_handler_remove();
    fputs("\n", out);   /* after the editor's own clean-up, which may return to column 0 */
    fflush(out);
}

static LineStatus read_edited(const char *prompt, char **out)
{
    got.done = false;
    got.line = NULL;
    rl_callback_handler_install(prompt, on_line);
    while (!got.done) {
        WaitResult w = wait_input();
        if (w == WAIT_INTERRUPT) {
            cancel_line();
            return LINE_INTERRUPT;
        }
        if (w == WAIT_ERROR) {
            rl_callback_handler_remove();
            return LINE_EOF;
        }
        rl_callback_read_char();
    }
    if (got.eof) return LINE_EOF;
    *out = got.line;
    return LINE_OK;
}

/* The completion word's breaks depend on where the cursor is (in a string: only quotes). */
static char *break_hook(void)
{
    return (char *)shell_break_chars(L.pending, rl_line_buffer ? rl_line_buffer : "", rl_point);
}

static const char *const *gen_items;
static int gen_n, gen_next;

static char *generate(const char *text, int state)
{
    (void)text;
    if (state == 0) gen_next = 0;
    return gen_next < gen_n ? strdup(gen_items[gen_next++]) : NULL;
}

/* Rebases candidates computed for line[from..] onto the editor's word start `to`. */
static void rebase(Completions *c, const char *line, int from, int to)
{
    int w = 0;
    for (int i = 0; i < c->n; i++) {
        char *item = c->items[i];
        char *moved = NULL;
        if (to < from) {
            size_t pre = (size_t)(from - to), n = strlen(item);
            moved = malloc(pre + n + 1);
            if (moved) {
                memcpy(moved, line + to, pre);
                memcpy(moved + pre, item, n + 1);
            }
        } else if (strlen(item) >= (size_t)(to - from) && strncmp(item, line + from, (size_t)(to - from)) == 0) {
            moved = strdup(item + (to - from));
        }
        free(item);
        if (moved) c->items[w++] = moved;
    }
    c->n = w;
}

static char **attempt_completion(const char *text, int start, int end)
{
    rl_attempted_completion_over = 1;   /* never fall back to the editor's file-name completion */
    /* a copy up to the end of the line: libedit's buffer is not terminated there */
    char *line = strndup(rl_line_buffer ? rl_line_buffer : "", rl_line_buffer ? (size_t)rl_end : 0);
    if (!line) return NULL;
    bool blank_before = true;
    for (int i = 0; i < end && line[i]; i++)
        if (line[i] != ' ' && line[i] != '\t') blank_before = false;
    static char indent[] = "    ";
    char *indent_item[] = { indent };
    Completions c = { .items = indent_item, .n = 1, .start = end };
    if (blank_before) {   /* Tab at the start of a line indents, as in Python's shell */
        if (start != end) { free(line); return NULL; }
    } else {
        if (!shell_complete(L.I, L.pending, line, end, &c) || c.n == 0) {
            completions_free(&c);
            free(line);
            return NULL;
        }
        if (c.start != start) rebase(&c, line, c.start, start);
    }
    rl_completion_append_character = c.append ? c.append : '\0';
#if defined(TL_LINE_READLINE)
    rl_completion_suppress_append = c.append == 0;
#endif
    gen_items = (const char *const *)c.items;
    gen_n = c.n;
    char **matches = c.n ? rl_completion_matches(text, generate) : NULL;
    gen_items = NULL;
    gen_n = 0;
    if (!blank_before) completions_free(&c);
    free(line);
    return matches;
}

static void add_loaded(const char *entry)
{
    add_history(entry);
    free(L.last_entry);
    L.last_entry = strdup(entry);
}

static void editor_open(void)
{
    rl_readline_name = "tl";
    rl_instream = stdin;
    rl_outstream = isatty(1) ? stdout : stderr;   /* keep prompts out of redirected output */
    rl_catch_signals = 0;                          /* SIGINT is ours: see on_sigint */
#if defined(TL_LINE_READLINE)
    rl_catch_sigwinch = 1;
    rl_change_environment = 0;
    rl_completer_quote_characters = NULL;
    rl_basic_quote_characters = "";   /* else a word starting after '"' gets a '"' appended */
#endif
    rl_attempted_completion_function = attempt_completion;
    rl_completion_word_break_hook = break_hook;
    rl_basic_word_break_characters = (char *)shell_break_chars(NULL, "", 0);
    rl_completer_word_break_characters = (char *)shell_break_chars(NULL, "", 0);
    using_history();
    stifle_history(HISTORY_MAX);
    if (L.hist_file) history_load(L.hist_file, HISTORY_MAX, add_loaded);
}

static void editor_close(void)
{
    rl_callback_handler_remove();
    clear_history();
}
#endif

/* ---- the interface --------------------------------------------------------- */

void line_open(Interp *I, bool interactive)
{
    L.I = I;
    L.interactive = interactive;
    L.pending = "";
    if (!interactive) return;
    L.hist_file = history_path();
    install_sigint();
#if HAVE_EDITOR
    L.editing = editor_load();
    if (L.editing) editor_open();
#endif
}

LineStatus line_read(const char *prompt, const char *pending, char **out)
{
    *out = NULL;
    if (!L.interactive) return read_plain(out);
    drain_sigpipe();
    tl_interrupt_flag = 0;   /* a Ctrl-C that came after the last statement finished */
    L.pending = pending ? pending : "";
    LineStatus st;
#if HAVE_EDITOR
    st = L.editing ? read_edited(prompt, out) : read_plain_prompted(prompt, out);
#else
    st = read_plain_prompted(prompt, out);
#endif
    L.pending = "";
    if (st == LINE_INTERRUPT) {
        drain_sigpipe();
        tl_interrupt_flag = 0;
    }
    return st;
}

static bool blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') return false;
    return true;
}

void line_history_add(const char *entry)
{
    if (!L.interactive || !entry || blank(entry)) return;
    size_t n = strlen(entry);
    while (n && (entry[n - 1] == '\n' || entry[n - 1] == '\r' || entry[n - 1] == ' ')) n--;   /* a paste's last newline */
    char *e = strndup(entry, n);
    if (!e) return;
    if (L.last_entry && strcmp(L.last_entry, e) == 0) { free(e); return; }
    free(L.last_entry);
    L.last_entry = e;
#if HAVE_EDITOR
    if (L.editing) add_history(e);
#endif
    if (L.hist_file) history_append(L.hist_file, e);
}

static void ignore_entry(const char *entry) { (void)entry; }

void line_close(void)
{
    if (!L.interactive) return;
#if HAVE_EDITOR
    if (L.editing) editor_close();
#endif
    if (L.hist_file) history_load(L.hist_file, HISTORY_MAX, ignore_entry);   /* trims the file */
    remove_sigint();
    free(L.hist_file);
    free(L.last_entry);
    L.hist_file = L.last_entry = NULL;
    L.interactive = L.editing = false;
}

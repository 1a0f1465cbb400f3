/* shell_line.c — reading lines: the line editor on a terminal (shell_libedit.c or
   shell_readline.c), plain stdio otherwise; Ctrl-C at the prompt; the history file's entries */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shell_int.h"

static struct {
    bool interactive;
    bool editing;            /* the line editor is in use (interactive and built with one) */
    char *hist_file;         /* NULL: history is not saved */
    char *last_entry;        /* the newest history entry, to skip repeats */
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

WaitResult line_wait_input(void)
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
    WaitResult w = line_wait_input();
    if (w == WAIT_INTERRUPT) {
        fputc('\n', stdout);
        return LINE_INTERRUPT;
    }
    if (w == WAIT_ERROR) return LINE_EOF;
    return read_plain(out);
}

/* ---- the locale keys are read in ------------------------------------------ */

const char *line_ctype_locale(void)
{
    static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };   /* POSIX's order */
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return strcmp(v, "C") == 0 || strcmp(v, "POSIX") == 0 ? "C.UTF-8" : "";
    }
    return "C.UTF-8";
}

/* ---- the interface --------------------------------------------------------- */

#if HAVE_EDITOR
/* Gives the editor one entry read from the history file. */
static void add_loaded(const char *entry)
{
    editor_history_add(entry);
    free(L.last_entry);
    L.last_entry = strdup(entry);
}
#endif

void line_open(Interp *I, bool interactive)
{
    L.interactive = interactive;
    if (!interactive) return;
    L.hist_file = history_path();
    install_sigint();
#if HAVE_EDITOR
    L.editing = editor_open(I);
    if (L.editing && L.hist_file) history_load(L.hist_file, HISTORY_MAX, add_loaded);
#else
    (void)I;
#endif
}

LineStatus line_read(const char *prompt, const char *pending, char **out)
{
    *out = NULL;
    if (!L.interactive) return read_plain(out);
    drain_sigpipe();
    tl_interrupt_flag = 0;   /* a Ctrl-C that came after the last statement finished */
    LineStatus st;
#if HAVE_EDITOR
    st = L.editing ? editor_read(prompt, pending ? pending : "", out) : read_plain_prompted(prompt, out);
#else
    (void)pending;
    st = read_plain_prompted(prompt, out);
#endif
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
    if (L.editing) editor_history_add(e);
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

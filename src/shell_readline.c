/* shell_readline.c — the line editor on GNU readline (-Dline_editor=readline): its callback
   interface, so that Ctrl-C can stop the wait for a key; Tab completion from shell_complete */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "shell_int.h"

static struct {
    Interp *I;
    const char *pending;     /* the entry's earlier lines, for completion */
    bool done, eof;
    char *line;
} R = { .pending = "" };

/* Called by readline with a finished line (NULL at Ctrl-D on an empty line). */
static void on_line(char *line)
{
    R.done = true;
    R.eof = line == NULL;
    R.line = line;
    rl_callback_handler_remove();   /* so readline does not print the next prompt itself */
}

/* Abandons the line being edited after Ctrl-C. */
static void cancel_line(void)
{
    FILE *out = rl_outstream ? rl_outstream : stdout;
    rl_point = rl_end;   /* "^C" goes after the whole line, as in bash */
    rl_redisplay();
    fputs("^C", out);
    fflush(out);
    rl_free_line_state();
    rl_callback_sigcleanup();
    rl_cleanup_after_signal();
    rl_callback_handler_remove();
    fputs("\n", out);   /* after readline's own clean-up, which may return to column 0 */
    fflush(out);
}

LineStatus editor_read(const char *prompt, const char *pending, char **out)
{
    R.done = false;
    R.line = NULL;
    R.pending = pending;
    rl_callback_handler_install(prompt, on_line);
    LineStatus st = LINE_OK;
    while (!R.done) {
        WaitResult w = line_wait_input();
        if (w == WAIT_INTERRUPT) {
            cancel_line();
            st = LINE_INTERRUPT;
            break;
        }
        if (w == WAIT_ERROR) {
            rl_callback_handler_remove();
            st = LINE_EOF;
            break;
        }
        rl_callback_read_char();
    }
    R.pending = "";
    if (st != LINE_OK) return st;
    if (R.eof) return LINE_EOF;
    *out = R.line;
    return LINE_OK;
}

/* The completion word's breaks depend on where the cursor is (in a string: only quotes). */
static char *break_hook(void)
{
    return (char *)shell_break_chars(R.pending, rl_line_buffer ? rl_line_buffer : "", rl_point);
}

static const char *const *gen_items;
static int gen_n, gen_next;

/* readline's generator: the candidates computed by attempt_completion, one per call. */
static char *generate(const char *text, int state)
{
    (void)text;
    if (state == 0) gen_next = 0;
    return gen_next < gen_n ? strdup(gen_items[gen_next++]) : NULL;
}

/* Rebases candidates computed for line[from..] onto readline's word start `to`. */
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

/* readline's completion hook: shell_complete's candidates for the word readline found. */
static char **attempt_completion(const char *text, int start, int end)
{
    rl_attempted_completion_over = 1;   /* never fall back to readline's file-name completion */
    char *line = strndup(rl_line_buffer ? rl_line_buffer : "", rl_line_buffer ? (size_t)rl_end : 0);
    if (!line) return NULL;
    Completions c;
    if (!shell_complete(R.I, R.pending, line, end, &c) || c.n == 0) {
        completions_free(&c);
        free(line);
        return NULL;
    }
    if (c.start != start) rebase(&c, line, c.start, start);
    rl_completion_append_character = c.append ? c.append : '\0';
    rl_completion_suppress_append = c.append == 0;
    gen_items = (const char *const *)c.items;
    gen_n = c.n;
    char **matches = c.n ? rl_completion_matches(text, generate) : NULL;
    gen_items = NULL;
    gen_n = 0;
    completions_free(&c);
    free(line);
    return matches;
}

bool editor_open(Interp *I)
{
    R.I = I;
    rl_readline_name = "tl";
    rl_instream = stdin;
    rl_outstream = isatty(1) ? stdout : stderr;   /* keep prompts out of redirected output */
    rl_catch_signals = 0;                          /* SIGINT is ours: see shell_line.c */
    rl_catch_sigwinch = 1;
    rl_change_environment = 0;
    rl_completer_quote_characters = NULL;
    rl_basic_quote_characters = "";   /* else a word starting after '"' gets a '"' appended */
    rl_attempted_completion_function = attempt_completion;
    rl_completion_word_break_hook = break_hook;
    rl_basic_word_break_characters = (char *)shell_break_chars(NULL, "", 0);
    rl_completer_word_break_characters = (char *)shell_break_chars(NULL, "", 0);
    /* readline sets LC_CTYPE from the environment itself when it starts (a C locale would
       make it turn the bytes of UTF-8 into Meta keys): set it first where that is C */
    if (*line_ctype_locale()) setlocale(LC_CTYPE, line_ctype_locale());
    using_history();
    stifle_history(HISTORY_MAX);
    return true;
}

void editor_history_add(const char *entry) { add_history(entry); }

void editor_close(void)
{
    rl_callback_handler_remove();
    clear_history();
}

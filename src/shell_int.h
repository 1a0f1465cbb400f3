/* shell_int.h — what the shell's files share: the line editor, history, completion, commands */
#ifndef TL_SHELL_INT_H
#define TL_SHELL_INT_H

#include <stdbool.h>

#include "interp.h"

/* ---- shell_line.c: reading lines (the line editor, or plain stdio) ---------- */

typedef enum LineStatus { LINE_OK, LINE_EOF, LINE_INTERRUPT } LineStatus;
typedef enum WaitResult { WAIT_READY, WAIT_INTERRUPT, WAIT_ERROR } WaitResult;

/* Which line editor this build uses: "readline", "libedit" or "none". */
const char *line_editor_name(void);
/* Prepares reading: on a terminal, the editor, history, completion and the SIGINT handler. */
void line_open(Interp *I, bool interactive);
/* Reads one line (malloc'd, no newline) into *out. pending is the text of the entry so far
   (earlier lines of a multi-line statement; completion looks at it). */
LineStatus line_read(const char *prompt, const char *pending, char **out);
/* Records a whole entry (possibly several lines) in the history and the history file. */
void line_history_add(const char *entry);
/* Undoes line_open: restores the terminal, the SIGINT handler, trims the history file. */
void line_close(void);
/* Waits until stdin has input or Ctrl-C is pressed (for the editor, which reads a key at a time). */
WaitResult line_wait_input(void);
/* The LC_CTYPE locale the editor reads keys in: "" (the environment's), or "C.UTF-8" when the
   environment's is C or POSIX, as Python's shell does (PEP 538): tl's text is UTF-8. */
const char *line_ctype_locale(void);

/* ---- shell_libedit.c or shell_readline.c: the line editor the build chose ---- */

#if defined(TL_LINE_LIBEDIT) || defined(TL_LINE_READLINE)
#define HAVE_EDITOR 1
/* Sets the editor up on the terminal (libedit: opens it first); false, said on stderr, when it
   cannot be used (the shell then reads plain lines). */
bool editor_open(Interp *I);
/* Reads one edited line after printing prompt (malloc'd, no newline); pending is the text of the
   entry so far (completion looks at it). Ctrl-C clears the line: LINE_INTERRUPT. */
LineStatus editor_read(const char *prompt, const char *pending, char **out);
/* Adds an entry to what Up brings back. */
void editor_history_add(const char *entry);
/* Restores the terminal and frees the editor. */
void editor_close(void);
#else
#define HAVE_EDITOR 0
#endif

/* ---- shell_history.c: the history file ---------------------------------- */

/* Most entries kept, in memory and in the file. */
#define HISTORY_MAX 10000

/* The history file's path (malloc'd), or NULL when history is off (TL_HISTORY set empty). */
char *history_path(void);
/* Reads the file's entries, oldest first, keeping the last `max`; calls add(entry) for each.
   Rewrites the file when it holds more than max. */
void history_load(const char *path, int max, void (*add)(const char *entry));
/* Appends one entry to the file (newlines and backslashes escaped so it stays one line). */
void history_append(const char *path, const char *entry);

/* ---- shell_complete.c: Tab completion, independent of the line editor ---- */

typedef struct Completions {
    char **items;       /* full replacements for line[start..cursor) */
    int n, cap;
    int start;          /* byte offset in the current line where the replaced word starts */
    char append;        /* appended after a unique match (0 for none) */
} Completions;

/* Computes completions for the cursor position in line; pending is the entry's earlier lines.
   With only blanks before the cursor the one candidate is an indent (four spaces). */
bool shell_complete(Interp *I, const char *pending, const char *line, int cursor, Completions *out);
void completions_free(Completions *c);
/* The word-break characters for the context at the cursor (inside a string: only quotes). */
const char *shell_break_chars(const char *pending, const char *line, int cursor);

/* ---- shell_cmd.c: :help :time :vars :quit -------------------------------- */

typedef enum CmdResult { CMD_DONE, CMD_QUIT, CMD_INTERRUPTED } CmdResult;

/* Runs a line starting with ':'. */
CmdResult shell_command(Interp *I, const char *line);
/* The shell's commands, one row each: name (typed after ':'), a short form (or NULL), what follows
   it, what it does (NULL: not listed by :help), and the cmd_ function of shell_cmd.c that runs it.
   shell_cmd.c dispatches and lists from it, shell_complete.c completes from it. */
#define SHELL_COMMAND_LIST(X)                                                                          \
    X(help, "h", " NAME", "help on a builtin, function, keyword or topic (:help alone lists them)", help) \
    X(time, "t", " EXPR", "runs EXPR repeatedly and prints how long it takes", time)                   \
    X(explain, NULL, " EXPR", "prints the graph of EXPR", explain)                                       \
    X(vars, NULL, "", "lists the variables with type, shape and bytes", vars)                          \
    X(record, NULL, " FILE", "writes the session to FILE.tl as a golden test (:record alone stops)", record) \
    X(apropos, NULL, " WORD", "lists every builtin and topic that mentions WORD (help(\"*WORD*\"))", apropos) \
    X(quit, "q", "", "leaves the shell (also :exit, exit, quit or Ctrl-D)", quit)                      \
    X(exit, NULL, "", NULL, quit)
/* Calls help() as :help NAME does (the function bound to NAME, else the name as a string; no name:
   the list), writing to I->out; false with the error in I->err. */
bool shell_help(Interp *I, const char *name, size_t n);

/* ---- shell_record.c: :record FILE ------------------------------------------- */

/* Starts writing the session to path as a golden test (a new file; the random numbers restart
   from tl --test's seed); false (said) when it cannot be written. */
bool record_start(const char *path);
/* Stops recording (the file holds every entry so far). */
void record_stop(void);
/* Whether a session is being recorded, and to which file (NULL: none). */
bool record_active(void);
const char *record_path(void);
/* Runs a parsed entry as shell_run_statement does, its output copied into the file as #> and #!
   lines after the entry (not when Ctrl-C stopped it). Returns false on error (already printed). */
bool record_run(Interp *I, const char *entry, size_t len, bool *interrupted);

/* ---- shell.c: running statements ----------------------------------------- */

/* Runs src as one shell statement: echoes, binds `_`; Ctrl-C keeps what finished before it.
   Returns false on error (already printed). */
bool shell_run_statement(Interp *I, Source *src, bool echo);
/* The same without printing the error (left in I->err): what a notebook's cell runs. */
bool shell_exec(Interp *I, Source *src, bool echo);
/* Prints the pending error (colored on a terminal unless NO_COLOR is set). */
void shell_print_error(Interp *I);
/* Prints the "interrupted" error on a fresh line. */
void shell_report_interrupt(Interp *I);
/* True when the last failure was a Ctrl-C. */
bool shell_was_interrupted(Interp *I);

#endif

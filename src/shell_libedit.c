/* shell_libedit.c — the line editor on libedit's own interface (histedit.h), opened with dlopen;
   one key per call so that Ctrl-C can stop the wait for a key; Tab completion from shell_complete */
#include <errno.h>
#include <fcntl.h>
#include <histedit.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include "dynlib.h"
#include "shell_int.h"

/* Why not libedit's readline emulation (editline/readline.h), which tl used before: its
   rl_callback_read_char ends every key with `rl_line_buffer[rl_end] = '\0'`, but it points
   rl_line_buffer at el_line()'s text buffer again only when the edit buffer grows (doubling),
   while el_line() reallocates that text buffer in 1,024-byte steps. Between the two, from a
   line of about 1,020 bytes on, the write lands in freed memory, and past the old block's
   end from about 3,068 (libedit 3.1-20221030, and NetBSD's readline.c 1.182 of 2024). Its
   own interface keeps no such pointer: el_line() is asked afresh each time. */

#ifndef TL_LIBEDIT_LIBRARY_DEFAULT
#define TL_LIBEDIT_LIBRARY_DEFAULT "libedit.so.2"
#endif
/* libedit is opened when the shell first edits a line, so `tl -e` and scripts never load it
   (nor libtinfo and libbsd behind it). Every function below is reached through this table. */
#define LIBEDIT_SYMBOLS(X)                                                                          \
    X(el_init) X(el_end) X(el_set) X(el_wset) X(el_get) X(el_source) X(el_wgets) X(el_line) X(el_wline) \
    X(el_insertstr) X(el_deletestr) X(el_cursor) X(el_wpush) X(history_init) X(history_end) X(history)
#define LIBEDIT_FIELD(name) __typeof__(&name) name;
#define LIBEDIT_NAME(name) #name,
#define LIBEDIT_SLOT(name) (void **)&lib.name,
static struct { LIBEDIT_SYMBOLS(LIBEDIT_FIELD) } lib;
static tl_dynlib edit_lib = TL_DYNLIB_INIT;

/* Fills lib from libedit (run once). */
static void load_libedit(void)
{
    static const char *const names[] = { LIBEDIT_SYMBOLS(LIBEDIT_NAME) NULL };
    static void **const slots[] = { LIBEDIT_SYMBOLS(LIBEDIT_SLOT) NULL };
    if (tl_dynlib_open(&edit_lib, "libedit", "TL_LIBEDIT_LIBRARY", TL_LIBEDIT_LIBRARY_DEFAULT, names, slots))
        edit_lib.status = 0;
}

static struct {
    Interp *I;
    EditLine *el;
    History *hist;
    FILE *out;               /* where prompts and the line go */
    locale_t loc;            /* LC_CTYPE while libedit runs (0: the program's) */
    int keys_fd;             /* the terminal opened again, non-blocking, for reading keys (-1: fd 0) */
    const char *prompt;
    const char *pending;     /* the entry's earlier lines, for completion */
    bool input_over;         /* stdin ended or failed while reading a key */
    char *tab_line;          /* the line and cursor when Tab last found nothing to add */
    int tab_cursor;
    int walk;                /* which history entry the line shows: 0 the line being edited, k the k-th newest */
    char *walk_saved;        /* the line being edited, while the line shows an entry */
    bool searches_refused;   /* the history searches are bound to a beep (guard_searches) */
} E = { .pending = "", .keys_fd = -1 };

/* The incremental history search (Ctrl-R, Ctrl-S) while it runs; see "the search" below. */
static struct {
    bool on;
    bool older;              /* Ctrl-R's direction (else Ctrl-S's) */
    bool failed;             /* no entry holds the text: a longer text is not looked for */
    wchar_t *text;           /* what is looked for, as typed */
    size_t len, cap;
    char *bytes;             /* text in the locale's encoding, as the entries are kept */
    int from;                /* E.walk when the search began */
    int at;                  /* the entry shown (k-th newest), or 0: the line as the search found it */
    char *began;             /* that line (Ctrl-G puts it back) */
    char *prompt;            /* what the prompt shows meanwhile */
    wchar_t *last;           /* the last search's text (Ctrl-R on an empty text takes it) */
} S;

/* ---- what libedit calls back --------------------------------------------------- */

static char *prompt_text(EditLine *el)
{
    (void)el;
    return S.on && S.prompt ? S.prompt : (char *)E.prompt;
}

/* Opens the terminal again for reading keys, with its own non-blocking open file description
   (fd 0's flags are shared with the shell that started tl). Only poll() may wait for a key:
   Ctrl-C empties the terminal's input (ISIG flushes it), so a key poll() saw can be gone by the
   read, and SIGINT mostly lands on another thread (Linux prefers the process's first thread,
   which waits for the interpreter's), so a read that waits is never cut short. */
static int open_keys(void)
{
    const char *name = ttyname(0);
    return name ? open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) : -1;
}

/* Reads one key's character from stdin, decoded in LC_CTYPE: 1, or 0 at the end of input, -1
   on an error or at Ctrl-C. libedit calls it for every key, also for the keys it reads itself
   within one (the rest of an escape sequence, Meta-digit counts), as does tl's search, so it waits
   as the prompt does, in poll(), which Ctrl-C's pipe wakes whatever thread takes the signal. */
static int read_key(EditLine *el, wchar_t *wc)
{
    (void)el;
    char buf[MB_LEN_MAX];
    size_t n = 0;
    *wc = 0;
    for (;;) {
        WaitResult w = line_wait_input();
        if (w == WAIT_INTERRUPT) return -1;   /* libedit ends the key; read_keys drops the line */
        ssize_t r = w == WAIT_READY ? read(E.keys_fd >= 0 ? E.keys_fd : 0, buf + n, 1) : -1;
        if (r < 0 && w == WAIT_READY && (errno == EINTR || errno == EAGAIN)) continue;   /* gone: wait again */
        if (r <= 0) {
            E.input_over = true;
            return r == 0 ? 0 : -1;
        }
        n++;
        mbstate_t st = { 0 };
        size_t k = mbrtowc(wc, buf, n, &st);
        if (k == (size_t)-2 && n < sizeof buf) continue;   /* more bytes of one character */
        if (k <= n) return 1;
        n = 0;   /* bytes that are no character here are dropped, as libedit drops them */
    }
}

/* libedit's line (malloc'd, NULL when out of memory) and in *cursor the cursor's byte offset.
   It is read only up to the end of its text, which libedit's record of the line's end could
   pass (see walk_history). */
static char *current_line(int *cursor)
{
    const LineInfo *li = lib.el_line(E.el);
    size_t n = strnlen(li->buffer, (size_t)(li->lastchar - li->buffer)), at = (size_t)(li->cursor - li->buffer);
    if (cursor) *cursor = (int)(at < n ? at : n);
    return strndup(li->buffer, n);
}

/* ---- Tab ------------------------------------------------------------------------- */

/* Length of the prefix all candidates share. */
static size_t common_prefix(const Completions *c)
{
    size_t n = strlen(c->items[0]);
    for (int i = 1; i < c->n; i++) {
        size_t k = 0;
        while (k < n && c->items[i][k] == c->items[0][k]) k++;
        n = k;
    }
    return n;
}

/* Replaces the word line[start..cursor) before the cursor by text. */
static void replace_word(const char *line, int start, int cursor, const char *text)
{
    size_t typed = (size_t)(cursor - start);
    if (strncmp(text, line + start, typed) == 0) {
        if (text[typed]) lib.el_insertstr(E.el, text + typed);
        return;
    }
    char *word = strndup(line + start, typed);
    size_t chars = word ? mbstowcs(NULL, word, 0) : (size_t)-1;   /* el_deletestr counts characters */
    free(word);
    lib.el_deletestr(E.el, chars == (size_t)-1 ? (int)typed : (int)chars);
    lib.el_insertstr(E.el, text);
}

/* Writes the candidates in columns below the line (libedit then draws the prompt and line again). */
static void list_choices(const Completions *c)
{
    size_t width = 0;
    for (int i = 0; i < c->n; i++) {
        size_t n = strlen(c->items[i]);
        if (n > width) width = n;
    }
    struct winsize ws;
    size_t cols = ioctl(fileno(E.out), TIOCGWINSZ, &ws) == 0 && ws.ws_col ? ws.ws_col : 80;
    size_t per_row = cols / (width + 2) ? cols / (width + 2) : 1;
    size_t rows = ((size_t)c->n + per_row - 1) / per_row;
    fputc('\n', E.out);
    for (size_t r = 0; r < rows; r++) {
        for (size_t k = r; k < (size_t)c->n; k += rows)   /* down the columns, as readline lists */
            fprintf(E.out, "%-*s", k + rows < (size_t)c->n ? (int)(width + 2) : 0, c->items[k]);
        fputc('\n', E.out);
    }
    fflush(E.out);
}

/* Remembers the line as it is now (a second Tab on it lists the choices). */
static void remember_line(void)
{
    free(E.tab_line);
    E.tab_line = current_line(&E.tab_cursor);
}

/* Tab: completes the word before the cursor as far as the candidates agree; when there is
   nothing to add, a second Tab lists them. */
static unsigned char complete_key(EditLine *el, int ch)
{
    (void)el, (void)ch;
    int cursor;
    char *line = current_line(&cursor);
    Completions c;
    if (!line || !shell_complete(E.I, E.pending, line, cursor, &c) || c.n == 0) {
        if (line) completions_free(&c);
        free(line);
        return CC_REFRESH_BEEP;
    }
    bool again = E.tab_line && E.tab_cursor == cursor && strcmp(E.tab_line, line) == 0;
    size_t common = common_prefix(&c);
    unsigned char result = CC_REFRESH;
    char *text = c.n == 1 ? malloc(common + 2) : strndup(c.items[0], common);
    if (text && c.n == 1) snprintf(text, common + 2, "%s%c", c.items[0], c.append);
    if (text && (c.n == 1 || common > (size_t)(cursor - c.start))) {
        replace_word(line, c.start, cursor, text);
    } else if (again) {
        list_choices(&c);
        result = CC_REDISPLAY;
    } else {
        result = CC_REFRESH_BEEP;
    }
    if (c.n > 1) remember_line();
    free(text);
    completions_free(&c);
    free(line);
    return result;
}

/* ---- the history --------------------------------------------------------------------- */

/* Up, Down, Ctrl-P and Ctrl-N walk the history here, not in libedit. libedit (3.1-20221030,
   common.c: ed_prev_history, ed_search_prev_history) keeps the line being edited in a buffer
   of 1,024 characters but records its whole length, so a longer line came back from the
   history with its tail gone (NULs up to its old end, which el_line() then read past). The
   incremental searches (Ctrl-R, Ctrl-S) are tl's too (below); Meta-P and Meta-N are libedit's,
   refused while the line is longer than it keeps. */
#define LIBEDIT_KEEPS 1023

/* Points ev at the k-th newest history entry (k >= 1); false if there is none. */
static bool history_at(int k, HistEvent *ev)
{
    if (k < 1 || lib.history(E.hist, ev, H_FIRST) != 0) return false;
    for (int i = 1; i < k; i++)
        if (lib.history(E.hist, ev, H_NEXT) != 0) return false;
    return true;
}

/* The k-th newest history entry (k >= 1), or NULL. */
static const char *history_entry(int k)
{
    HistEvent ev;
    return history_at(k, &ev) ? ev.str : NULL;
}

/* Puts text in place of the whole line, the cursor at its end. */
static void set_line(const char *text)
{
    const LineInfoW *li = lib.el_wline(E.el);
    int len = (int)(li->lastchar - li->buffer), to_end = (int)(li->lastchar - li->cursor);
    lib.el_cursor(E.el, to_end);
    lib.el_deletestr(E.el, len);
    if (*text) lib.el_insertstr(E.el, text);
}

/* Shows the history entry step places older (1) or newer (-1) than the one shown. */
static unsigned char walk_history(int step)
{
    int to = E.walk + step;
    const char *text = to == 0 ? E.walk_saved : to > 0 ? history_entry(to) : NULL;
    if (!text) return CC_REFRESH_BEEP;
    if (E.walk == 0) {
        free(E.walk_saved);
        if (!(E.walk_saved = current_line(NULL))) return CC_REFRESH_BEEP;
    }
    set_line(text);
    E.walk = to;
    return CC_REFRESH;
}

static unsigned char history_older(EditLine *el, int ch)
{
    (void)el, (void)ch;
    return walk_history(1);
}

static unsigned char history_newer(EditLine *el, int ch)
{
    (void)el, (void)ch;
    return walk_history(-1);
}

/* The keys of libedit's history searches and their commands. */
static const char *const search_keys[][2] = {
    { "\\ep", "ed-search-prev-history" }, { "\\eP", "ed-search-prev-history" },
    { "\\en", "ed-search-next-history" }, { "\\eN", "ed-search-next-history" },
};

/* Binds the search keys to a beep while the line (len characters; what a search would save)
   is longer than libedit keeps, and to their commands again when it is not. */
static void guard_searches(size_t len)
{
    bool refuse = len > LIBEDIT_KEEPS;
    if (refuse == E.searches_refused) return;
    E.searches_refused = refuse;
    for (size_t i = 0; i < sizeof search_keys / sizeof search_keys[0]; i++)
        lib.el_set(E.el, EL_BIND, search_keys[i][0], refuse ? "ed-unassigned" : search_keys[i][1], NULL);
}

/* ---- the search ---------------------------------------------------------------------- */

/* Why tl searches the history itself: libedit's em-inc-search-prev matches the regular
   expression ".*TEXT" against each entry (search.c), which glibc's regexec tries from every
   position, so a search step costs the square of each entry's length (60 ms for one entry of
   8,000 characters in a UTF-8 locale); a history holding some long pasted lines froze the shell
   for minutes on one Ctrl-R, deaf to Ctrl-C (fuzz_shell found it). tl looks for TEXT as a
   substring, in time linear in the history's size, and not again while a shorter TEXT failed.
   The screen is libedit's: a search key ends with SEARCH_REDRAW pushed back as input, a key
   sequence no terminal sends, bound to ed-redisplay, and the key that ends a search is pushed
   after it, for libedit to do what it does. */
#define SEARCH_REDRAW L"\033[9~"
#define SEARCH_REDRAW_KEY "\\e[9~"
#define SEARCH_SHOWN 60   /* the prompt shows at most the text's last this many characters */

/* The entry the search shows (the line it began on when none). */
static const char *search_shown(void)
{
    const char *entry = S.at > 0 ? history_entry(S.at) : NULL;
    return entry ? entry : S.began;
}

/* The first entry from the k-th newest on, going older (step 1) or newer (-1), that holds the
   text and is not `skip`; 0 when there is none (or Ctrl-C came). */
static int search_find(int k, int step, const char *skip)
{
    HistEvent ev;
    if (!history_at(k, &ev)) return 0;
    for (;; k += step) {
        if (tl_interrupt_flag) return 0;
        if (strstr(ev.str, S.bytes) && !(skip && strcmp(ev.str, skip) == 0)) return k;
        if (lib.history(E.hist, &ev, step > 0 ? H_NEXT : H_PREV) != 0) return 0;
    }
}

/* Where a search in the direction it goes starts: the entry after the one it began on. */
static int search_start(void) { return S.older ? S.from + 1 : S.from - 1; }

/* Looks for the text from entry k on (skipping entries that read `skip`); shows what it finds. */
static void search_from(int k, const char *skip)
{
    int found = S.len ? search_find(k, S.older ? 1 : -1, skip) : 0;
    S.failed = S.len && !found;
    if (found || !S.len) S.at = found;
}

/* Makes S.bytes from S.text; false when out of memory or the text has no encoding here. */
static bool search_encode(void)
{
    S.text[S.len] = 0;
    size_t n = wcstombs(NULL, S.text, 0);
    char *b = n == (size_t)-1 ? NULL : malloc(n + 1);
    if (!b) return false;
    wcstombs(b, S.text, n + 1);
    free(S.bytes);
    S.bytes = b;
    return true;
}

/* Puts the entry found in the line, the cursor at the match. */
static void search_place(void)
{
    const char *line = search_shown();
    set_line(line);
    const char *hit = S.len && S.bytes ? strstr(line, S.bytes) : NULL;
    size_t after = hit ? mbstowcs(NULL, hit, 0) : 0;
    if (after != (size_t)-1 && after) lib.el_cursor(E.el, -(int)(after < INT_MAX ? after : INT_MAX));
}

/* Shows the entry found under a prompt that names the text. */
static void search_draw(void)
{
    search_place();
    wchar_t shown[SEARCH_SHOWN + 4];
    size_t from = S.len > SEARCH_SHOWN ? S.len - SEARCH_SHOWN : 0, n = 0;
    for (int i = 0; from && i < 3; i++) shown[n++] = L'.';
    for (size_t i = from; i < S.len; i++)   /* a character of no width would confuse libedit's record */
        shown[n++] = wcwidth(S.text[i]) > 0 ? S.text[i] : L'?';
    shown[n] = 0;
    char text[sizeof shown * MB_LEN_MAX / sizeof shown[0] + 1];
    if (wcstombs(text, shown, sizeof text) == (size_t)-1) snprintf(text, sizeof text, "...");
    const char *what = S.older ? "reverse-i-search" : "i-search";
    size_t size = strlen(text) + 48;
    char *prompt = malloc(size);
    if (!prompt) return;
    snprintf(prompt, size, "(%s%s)`%s': ", S.failed ? "failed " : "", what, text);
    free(S.prompt);
    S.prompt = prompt;
}

/* Ctrl-R, Ctrl-S: begins a search older or newer than the line shown. */
static unsigned char search_begin(bool older)
{
    free(S.began);
    if (!(S.began = current_line(NULL))) return CC_REFRESH_BEEP;
    S.on = true;
    S.older = older;
    S.failed = false;
    S.len = 0;
    S.from = E.walk;
    S.at = 0;
    search_draw();
    return CC_REDISPLAY;
}

static unsigned char search_older_key(EditLine *el, int ch)
{
    (void)el, (void)ch;
    return search_begin(true);
}

static unsigned char search_newer_key(EditLine *el, int ch)
{
    (void)el, (void)ch;
    return search_begin(false);
}

/* Ends the search: keeps the entry found (Up and Down go on from it), or puts back the line it
   began on (cancel). */
static void search_end(bool cancel)
{
    if (cancel) S.at = 0;
    search_place();
    if (!cancel && S.at > 0) {
        if (E.walk == 0) {
            free(E.walk_saved);
            E.walk_saved = S.began;
            S.began = NULL;
        }
        E.walk = S.at;
    }
    if (S.len) {
        free(S.last);
        S.text[S.len] = 0;
        S.last = wcsdup(S.text);
    }
    free(S.began);
    free(S.prompt);
    S.began = S.prompt = NULL;
    S.on = false;
}

/* Adds n characters to the text; false (and the text as it was) when out of memory. */
static bool search_add(const wchar_t *w, size_t n)
{
    if (S.len + n + 1 > S.cap) {
        size_t cap = S.cap ? S.cap : 64;
        while (cap < S.len + n + 1) cap *= 2;
        wchar_t *t = realloc(S.text, cap * sizeof *t);
        if (!t) return false;
        S.text = t;
        S.cap = cap;
    }
    wmemcpy(S.text + S.len, w, n);
    S.len += n;
    if (!search_encode()) {
        S.len -= n;
        return false;
    }
    return true;
}

/* Whether another key is already waiting (a paste): the screen is drawn once for all of it. */
static bool key_waiting(void)
{
    struct pollfd p = { E.keys_fd >= 0 ? E.keys_fd : 0, POLLIN, 0 };
    return poll(&p, 1, 0) > 0;
}

/* Takes one key of the search; returns false when it ends the search (the key to put back for
   libedit, if any, in *give). */
static bool search_key(wchar_t wc, wchar_t *give)
{
    bool again = wc == 0x12 || wc == 0x13;   /* Ctrl-R, Ctrl-S: the next entry that holds the text */
    if (again) {
        S.older = wc == 0x12;
        if (!S.len && S.last) search_add(S.last, wcslen(S.last));
        const char *shown = S.at > 0 ? history_entry(S.at) : NULL;
        search_from(S.at > 0 ? S.at + (S.older ? 1 : -1) : search_start(), shown);
    } else if (wc == 0x7f || wc == 0x08) {   /* Backspace: the text shorter, looked for afresh */
        if (S.len) S.len--;
        if (S.len) search_encode();
        search_from(search_start(), NULL);
    } else if (wc == 0x07) {                 /* Ctrl-G: back to the line as it was */
        search_end(true);
    } else if (wc >= 0x20 && !(wc >= 0x7f && wc < 0xa0)) {
        if (search_add(&wc, 1) && !S.failed) search_from(S.at > 0 ? S.at : search_start(), NULL);
    } else {                                 /* any other key: keep what was found, then the key */
        search_end(false);
        if (wc != 0x1b || key_waiting()) give[0] = wc;   /* a lone Esc only ends the search */
        return false;
    }
    return S.on;
}

/* Reads the keys of a search until the screen is due to be drawn (or the search ends); returns
   how many commands it left for libedit (the redraw, then maybe the key that ended it), or 0
   when reading stopped (Ctrl-C, the end of input). */
static int search_read(void)
{
    wchar_t push[8] = SEARCH_REDRAW, give[2] = { 0 };
    for (;;) {
        wchar_t wc;
        if (read_key(E.el, &wc) != 1) {
            search_end(true);
            return 0;
        }
        if (!search_key(wc, give) || !key_waiting()) break;
    }
    if (S.on) search_draw();
    wcscat(push, give);
    lib.el_wpush(E.el, push);
    return give[0] ? 2 : 1;
}

/* ---- reading a line --------------------------------------------------------------- */

/* Switches this thread to the locale keys are read in, for libedit's calls (the rest of tl
   runs in the C locale); returns what to give leave_edit_locale. */
static locale_t enter_edit_locale(void) { return E.loc ? uselocale(E.loc) : (locale_t)0; }

static void leave_edit_locale(locale_t saved)
{
    if (saved) uselocale(saved);
}

/* Abandons the line being edited after Ctrl-C. */
static void cancel_line(void)
{
    fputs("^C", E.out);
    fflush(E.out);
    lib.el_set(E.el, EL_UNBUFFERED, 0);   /* the terminal back as it was */
    fputs("\n", E.out);
    fflush(E.out);
}

/* The finished line (without its newline), taken from libedit. */
static char *finished_line(void)
{
    char *line = current_line(NULL);
    size_t n = line ? strlen(line) : 0;
    if (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[n - 1] = 0;
    return line;
}

/* Whether the line (its n characters, with the prompt) may need more rows than the terminal
   has: each character may take two columns (a wide one), and each newline (a multi-line entry
   from the history) may leave the rest of a row empty. */
static bool taller_than_screen(const wchar_t *line, size_t n)
{
    int cols = 0, rows = 0;
    if (lib.el_get(E.el, EL_GETTC, "co", &cols) != 0 || lib.el_get(E.el, EL_GETTC, "li", &rows) != 0) return true;
    size_t need = 2 * n + 8;
    for (size_t i = 0; i < n; i++) need += line[i] == L'\n' ? (size_t)cols : 0;
    return need >= (size_t)cols * (size_t)(rows > 1 ? rows - 1 : 1);
}

/* Clears the screen and has libedit draw the prompt and the line afresh at its top. libedit
   draws most keys as changes to its record of the screen; when that record no longer matches
   the screen, only a redraw from a known place (the top, after "cl") makes them agree again. */
static void redraw_from_top(void)
{
    lib.el_set(E.el, EL_ECHOTC, "cl", NULL);
    lib.el_set(E.el, EL_REFRESH);
}

/* Redraws after the two kinds of key that leave libedit's record of the screen wrong
   (libedit 3.1-20221030, refresh.c), on which a later character typed at the end of the line,
   on reaching the right margin, took the row after the last one, a NULL pointer, and wrote
   through it: a key that only moved the cursor (Home, End, an arrow) on a line taller than the
   screen, which moves the recorded cursor row but not the record of the rows shown (a search
   that showed an entry, the cursor at the match, is taken for such a key: searched); and a
   character of width 0 or less (a combining accent, U+200B, U+FEFF) typed at the end of the
   line, for which the recorded column advances though the terminal's does not. */
static void mend_display(size_t *len, size_t *cursor, bool searched)
{
    const LineInfoW *li = lib.el_wline(E.el);
    size_t n = (size_t)(li->lastchar - li->buffer), at = (size_t)(li->cursor - li->buffer);
    bool moved = (n == *len || searched) && at != *cursor && taller_than_screen(li->buffer, n);
    bool zero_width = n > *len && at == n && wcwidth(li->buffer[n - 1]) <= 0;
    if (moved || zero_width) redraw_from_top();
    guard_searches(n);
    *len = n;
    *cursor = at;
}

/* Reads keys until the line ends; the body of editor_read. */
static LineStatus read_keys(char **out)
{
    lib.el_set(E.el, EL_UNBUFFERED, 1);   /* the terminal in raw mode, the prompt drawn */
    E.input_over = false;
    size_t len = 0, cursor = 0;
    int queued = 0;   /* commands a search left for libedit, to run before waiting again */
    for (;;) {
        WaitResult w = queued ? WAIT_READY : line_wait_input();
        if (w == WAIT_INTERRUPT) {
            cancel_line();
            return LINE_INTERRUPT;
        }
        bool searched = !queued && w == WAIT_READY && S.on;   /* this key draws a search's line */
        if (searched) {
            queued = search_read();
            if (E.input_over) break;
            if (!queued) continue;   /* Ctrl-C: the wait says so */
        }
        if (queued) queued--;
        int n = 0;
        const wchar_t *text = w == WAIT_READY ? lib.el_wgets(E.el, &n) : NULL;   /* one key */
        if (w == WAIT_ERROR || E.input_over) break;
        mend_display(&len, &cursor, searched);
        if (!text || n <= 0) continue;
        if (n == 1 && text[0] == 4) break;   /* Ctrl-D on an empty line: libedit puts the ^D in the line */
        if (text[n - 1] == '\n' || text[n - 1] == '\r') {
            *out = finished_line();
            lib.el_set(E.el, EL_UNBUFFERED, 0);
            return *out ? LINE_OK : LINE_EOF;
        }
    }
    lib.el_set(E.el, EL_UNBUFFERED, 0);
    return LINE_EOF;
}

LineStatus editor_read(const char *prompt, const char *pending, char **out)
{
    E.prompt = prompt;
    E.pending = pending;
    E.walk = 0;
    locale_t saved = enter_edit_locale();
    LineStatus st = read_keys(out);
    if (S.on) search_end(true);
    leave_edit_locale(saved);
    E.pending = "";
    free(E.tab_line);
    free(E.walk_saved);
    E.tab_line = E.walk_saved = NULL;
    return st;
}

/* ---- setting up ------------------------------------------------------------------- */

/* The locale keys are read in: line_ctype_locale's, else C.UTF-8, else the program's (0). */
static locale_t edit_locale(void)
{
    locale_t loc = newlocale(LC_CTYPE_MASK, line_ctype_locale(), (locale_t)0);
    return loc ? loc : newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/* Binds the keys: as libedit's readline emulation bound them, and tl's own (Tab, the history walk);
   then ~/.editrc may change any. */
static void bind_keys(void)
{
    static const char *const binds[][2] = {
        { "^P", "tl-history-older" }, { "\\e[A", "tl-history-older" }, { "\\eOA", "tl-history-older" },   /* Up */
        { "^N", "tl-history-newer" }, { "\\e[B", "tl-history-newer" }, { "\\eOB", "tl-history-newer" },   /* Down */
        { "\\e[1~", "ed-move-to-beg" }, { "\\e[4~", "ed-move-to-end" },   /* Home, End */
        { "\\e[7~", "ed-move-to-beg" }, { "\\e[8~", "ed-move-to-end" },
        { "\\e[H", "ed-move-to-beg" }, { "\\e[F", "ed-move-to-end" },
        { "\\e[3~", "ed-delete-next-char" }, { "\\e[2~", "em-toggle-overwrite" },   /* Delete, Insert */
        { "\\e[1;5C", "em-next-word" }, { "\\e[1;5D", "ed-prev-word" },   /* Ctrl-Right, Ctrl-Left */
        { "\\e[5C", "em-next-word" }, { "\\e[5D", "ed-prev-word" },
        { "\\e\\e[C", "em-next-word" }, { "\\e\\e[D", "ed-prev-word" },
        { "^I", "tl-complete" },
        { "^R", "tl-search-older" }, { "^S", "tl-search-newer" }, { SEARCH_REDRAW_KEY, "ed-redisplay" },
        /* libedit binds the key of a disabled terminal character (0 on Linux) to that character's
           function, which left Ctrl-@ (Ctrl-Space) a quoted insert: the next Ctrl-C was text */
        { "^@", "em-set-mark" },
        /* Alt-x opens libedit's own command line (ed-command), which crashes on a line with an
           unmatched quote (its tokenizer gives no words and el_wparse reads the first) */
        { "^[x", "ed-unassigned" }, { "^[X", "ed-unassigned" },
    };
    /* the wide form keeps libedit's pointers to these strings (the narrow one copies them and never frees the copies) */
    lib.el_wset(E.el, EL_ADDFN, L"tl-complete", L"complete the word before the cursor", complete_key);
    lib.el_wset(E.el, EL_ADDFN, L"tl-history-older", L"show the next older history entry", history_older);
    lib.el_wset(E.el, EL_ADDFN, L"tl-history-newer", L"show the next newer history entry", history_newer);
    lib.el_wset(E.el, EL_ADDFN, L"tl-search-older", L"search the history, newest first", search_older_key);
    lib.el_wset(E.el, EL_ADDFN, L"tl-search-newer", L"search the history, oldest first", search_newer_key);
    for (size_t i = 0; i < sizeof binds / sizeof binds[0]; i++) lib.el_set(E.el, EL_BIND, binds[i][0], binds[i][1], NULL);
    E.searches_refused = true;
    guard_searches(0);   /* Meta-P and the other libedit searches (search_keys) */
    lib.el_source(E.el, NULL);
    /* an ~/.editrc that chose vi keys: ':' in command mode is that same command line */
    const char *editor = NULL;
    if (lib.el_get(E.el, EL_EDITOR, &editor) == 0 && editor && strcmp(editor, "vi") == 0)
        lib.el_set(E.el, EL_BIND, "-a", ":", "ed-unassigned", NULL);
}

/* Makes the editor and its history; false when libedit cannot start. */
static bool make_editor(void)
{
    HistEvent ev;
    E.el = lib.el_init("tl", stdin, E.out, stderr);
    E.hist = lib.history_init();
    if (!E.el || !E.hist) return false;
    lib.history(E.hist, &ev, H_SETSIZE, HISTORY_MAX);
    lib.el_set(E.el, EL_HIST, lib.history, E.hist);
    lib.el_set(E.el, EL_EDITOR, "emacs");
    lib.el_set(E.el, EL_PROMPT, prompt_text);
    lib.el_set(E.el, EL_GETCFN, read_key);
    bind_keys();
    return true;
}

bool editor_open(Interp *I)
{
    if (tl_dynlib_load(&edit_lib, load_libedit) != 0) {
        fprintf(stderr, "tl: %s; reading plain lines\n", tl_errmsg());
        return false;
    }
    E.I = I;
    E.out = isatty(1) ? stdout : stderr;   /* keep prompts out of redirected output */
    E.keys_fd = open_keys();
    E.loc = edit_locale();
    locale_t saved = enter_edit_locale();
    bool ok = make_editor();
    leave_edit_locale(saved);
    if (!ok) {
        editor_close();
        fprintf(stderr, "tl: libedit did not start; reading plain lines\n");
    }
    return ok;
}

void editor_history_add(const char *entry)
{
    HistEvent ev;
    lib.history(E.hist, &ev, H_ENTER, entry);   /* kept as bytes: decoded when Up brings it back */
}

void editor_close(void)
{
    locale_t saved = enter_edit_locale();
    if (E.el) lib.el_end(E.el);   /* (puts the terminal back) */
    if (E.hist) lib.history_end(E.hist);
    leave_edit_locale(saved);
    if (E.loc) freelocale(E.loc);
    if (E.keys_fd >= 0) close(E.keys_fd);
    free(E.tab_line);
    free(E.walk_saved);
    free(S.text);
    free(S.bytes);
    free(S.last);
    S.text = S.last = NULL;
    S.bytes = NULL;
    S.len = S.cap = 0;
    E.walk_saved = NULL;
    E.el = NULL;
    E.hist = NULL;
    E.loc = (locale_t)0;
    E.keys_fd = -1;
    E.tab_line = NULL;
}

/* shell.c — the interactive prompt: reads complete statements, runs them, keeps going after errors */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "shell.h"

/* Reads one line into b (without the newline); false at end of input. */
static bool read_line(StrBuf *b)
{
    char buf[4096];
    bool any = false;
    while (fgets(buf, sizeof buf, stdin)) {
        any = true;
        size_t n = strlen(buf);
        bool nl = n && buf[n - 1] == '\n';
        sb_append(b, buf, nl ? n - 1 : n);
        if (nl) return true;
    }
    return any;
}

int shell_run(Interp *I)
{
    bool tty = isatty(0);
    StrBuf entry = { 0 };
    for (;;) {
        if (tty) { fputs(entry.len ? "... " : "tl> ", stdout); fflush(stdout); }
        StrBuf line = { 0 };
        if (!read_line(&line)) { sb_free(&line); break; }
        if (entry.len) sb_append(&entry, "\n", 1);
        sb_append(&entry, line.data ? line.data : "", line.len);
        sb_free(&line);
        Source *src = source_new("<shell>", entry.data ? entry.data : "", entry.len);
        if (!src) break;
        bool incomplete = false;
        tl_interrupt_flag = 0;
        if (!interp_parse(I, src, &incomplete)) {
            if (!incomplete) {
                diag_print(stderr, &I->err);
                entry.len = 0;
            }
        } else {
            if (!interp_run_source(I, src, true)) diag_print(stderr, &I->err);
            entry.len = 0;
        }
        source_release(src);
        fflush(stdout);
    }
    sb_free(&entry);
    if (tty) fputc('\n', stdout);
    return 0;
}

/* golden_review.c — tl --test --review: each failing test's report, then a question on the terminal */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "golden_int.h"

/* Reads one key from the terminal without waiting for Enter or echoing it; -1 at end of input
   or when a signal (Ctrl-C) cut the read short. */
static int read_key(void)
{
    struct termios saved, raw;
    bool cooked = tcgetattr(0, &saved) == 0;
    if (cooked) {
        raw = saved;
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);   /* ISIG stays: Ctrl-C still stops the run */
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        tcsetattr(0, TCSANOW, &raw);
    }
    unsigned char c;
    ssize_t got = read(0, &c, 1);
    if (cooked) tcsetattr(0, TCSANOW, &saved);
    return got == 1 ? c : -1;
}

ReviewChoice review_ask(const Test *t, int index, int total)
{
    printf("\n[%d/%d] ", index, total);
    fwrite(t->report.data ? t->report.data : "", 1, t->report.len, stdout);
    static const struct { char key; ReviewChoice choice; const char *said; } keys[] = {
        { 'a', REVIEW_ACCEPT, "accepted" }, { 'r', REVIEW_REJECT, "rejected" },
        { 's', REVIEW_SKIP, "skipped" },    { 'q', REVIEW_QUIT, "quit" },
    };
    for (;;) {
        fputs("accept the new output, reject it, skip, quit? [a/r/s/q] ", stdout);
        fflush(stdout);
        int c = read_key();
        if (c < 0) {
            puts("quit");
            return REVIEW_QUIT;
        }
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (c == keys[k].key || c == keys[k].key - 'a' + 'A') {
                puts(keys[k].said);
                return keys[k].choice;
            }
        puts("?");
    }
}

/* shell_record.c — :record FILE: each entry of the session and what it printed, written as a golden test */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden.h"
#include "shell_int.h"

/* The first lines of a recorded test: it runs as the shell ran it (docs/testing.md). */
#define RECORD_HEADER "# tl-test: shell\n"

/* The file being written, NULL when not recording. */
static struct Recording {
    char *path;
    const char *base;          /* its file name: tl --test runs a test by it, so messages quote it */
    int lines;                 /* lines written so far: the next entry starts on lines + 1 */
} rec;

bool record_active(void) { return rec.path != NULL; }

/* ---- capture: fds 1 and 2 through pipes, copied to the terminal and kept ---- */

/* What a running entry's output goes through: the pipes' read ends, the terminal's descriptors
   (saved), what came through each. */
typedef struct Tee { int from[2], to[2]; StrBuf got[2]; pthread_t thread; bool ok; } Tee;

/* The copying thread: until both pipes end, writes what comes to the saved descriptor and keeps it. */
static void *tee_loop(void *arg)
{
    Tee *t = arg;
    char buf[65536];
    for (int open = 2; open > 0;) {
        struct pollfd p[2] = { { t->from[0], POLLIN, 0 }, { t->from[1], POLLIN, 0 } };
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int s = 0; s < 2; s++) {
            if (t->from[s] < 0 || !(p[s].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = read(t->from[s], buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                close(t->from[s]);
                t->from[s] = -1;   /* poll skips a negative descriptor */
                open--;
                continue;
            }
            for (ssize_t put = 0, w; put < n; put += w > 0 ? w : 0)
                if ((w = write(t->to[s], buf + put, (size_t)(n - put))) < 0 && errno != EINTR) break;
            t->ok = sb_append(&t->got[s], buf, (size_t)n) && t->ok;
        }
    }
    return NULL;
}

/* Sends fds 1 and 2 through the tee; false (nothing changed) when it cannot. */
static bool tee_start(Tee *t)
{
    *t = (Tee){ .from = { -1, -1 }, .to = { -1, -1 }, .ok = true };
    int po[2], pe[2];
    if (pipe(po) != 0) return false;
    if (pipe(pe) != 0) { close(po[0]); close(po[1]); return false; }
    fflush(stdout);
    fflush(stderr);
    t->to[0] = dup(1);
    t->to[1] = dup(2);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);   /* Ctrl-C reaches the statement, not the copier */
    bool ok = t->to[0] >= 0 && t->to[1] >= 0 && dup2(po[1], 1) >= 0 && dup2(pe[1], 2) >= 0;
    t->from[0] = po[0];
    t->from[1] = pe[0];
    ok = ok && pthread_create(&t->thread, NULL, tee_loop, t) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(po[1]);
    close(pe[1]);
    if (ok) return true;
    if (t->to[0] >= 0) dup2(t->to[0], 1);
    if (t->to[1] >= 0) dup2(t->to[1], 2);
    for (int s = 0; s < 2; s++) {
        if (t->to[s] >= 0) close(t->to[s]);
        close(t->from[s]);
    }
    return false;
}

/* Puts fds 1 and 2 back and waits for the copier to finish what came through. */
static void tee_stop(Tee *t)
{
    fflush(stdout);
    fflush(stderr);
    dup2(t->to[0], 1);   /* the pipes' last write ends close: the copier sees their end */
    dup2(t->to[1], 2);
    pthread_join(t->thread, NULL);
    close(t->to[0]);
    close(t->to[1]);
}

/* ---- the file ---------------------------------------------------------------- */

/* Appends text to the file, counting its lines; false (said) when it cannot be written. */
static bool record_append(const char *text, size_t len)
{
    FILE *f = fopen(rec.path, "ab");
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) {
        fprintf(stderr, ":record: cannot write %s: %s (recording stopped)\n", rec.path, strerror(errno));
        record_stop();
        return false;
    }
    for (size_t i = 0; i < len; i++) rec.lines += text[i] == '\n';
    return true;
}

bool record_start(const char *path)
{
    record_stop();
    FILE *f = fopen(path, "wb");
    if (!f || fputs(RECORD_HEADER, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, ":record: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    rec.path = strdup(path);
    if (!rec.path) return false;
    const char *slash = strrchr(rec.path, '/');
    rec.base = slash ? slash + 1 : rec.path;
    rec.lines = 1;   /* RECORD_HEADER */
    tl_seed(GOLDEN_SEED);   /* the random numbers tl --test draws from */
    return true;
}

void record_stop(void)
{
    free(rec.path);
    rec = (struct Recording){ 0 };
}

const char *record_path(void) { return rec.path; }

bool record_run(Interp *I, const char *entry, size_t len, bool *interrupted)
{
    /* The entry runs as line rec.lines + 1 of the file, named as tl --test names it: its
       messages then quote the places the test's will. */
    StrBuf text = { 0 };
    for (int i = 0; i < rec.lines; i++) sb_append(&text, "\n", 1);
    Source *src = sb_append(&text, entry, len) ? source_new(rec.base, text.data, text.len) : NULL;
    sb_free(&text);
    if (!src) {
        fputs("tl: out of memory\n", stderr);
        return false;
    }
    Tee tee;
    bool teed = tee_start(&tee);
    bool ok = shell_run_statement(I, src, true);
    *interrupted = !ok && shell_was_interrupted(I);
    if (teed) tee_stop(&tee);
    source_release(src);
    StrBuf out = { 0 };
    bool written = teed && tee.ok && !*interrupted && sb_append(&out, entry, len) && sb_append(&out, "\n", 1) &&
                   golden_emit_expectations(&out, "#>", tee.got[0].data, tee.got[0].len, "\n") &&
                   golden_emit_expectations(&out, "#!", tee.got[1].data, tee.got[1].len, "\n");
    if (written) record_append(out.data, out.len);
    else if (!*interrupted) fprintf(stderr, ":record: this entry was not recorded (out of memory)\n");
    sb_free(&out);
    if (teed) {
        sb_free(&tee.got[0]);
        sb_free(&tee.got[1]);
    }
    return ok;
}

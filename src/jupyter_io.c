/* jupyter_io.c — the kernel's two threads: the heartbeat, and stdout and stderr published as stream messages */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jupyter_int.h"

/* Output waits at most this long before it is published, so a loop that prints many lines
   sends a few messages, not one per line. */
#define STREAM_FLUSH_MS 50
/* Output past this many bytes is published at once. */
#define STREAM_CHUNK_BYTES ((size_t)64 << 10)
/* The pipes' capacity (Linux's default 64 KiB makes a cell that prints much wait on the reader). */
#define PIPE_BYTES (1 << 20)

/* The monotonic clock in milliseconds. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Starts a thread with SIGINT blocked in it, so Ctrl-C (Jupyter's interrupt) reaches the thread
   that runs the cells. */
static bool start_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    bool ok = pthread_create(t, NULL, fn, arg) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok;
}

/* ---- the heartbeat ---------------------------------------------------------- */

/* Echoes every ping (a ROUTER socket proxied onto itself) until the context shuts down, so
   the kernel answers its heartbeat while a cell runs. */
static void *heart_main(void *arg)
{
    Kernel *K = arg;
    jl.zmq_proxy(K->hb, K->hb, NULL);
    return NULL;
}

bool jio_start_heartbeat(Kernel *K)
{
    K->heart_started = start_thread(&K->heart, heart_main, K);
    return K->heart_started;
}

/* ---- stdout and stderr ------------------------------------------------------ */

static const char *const stream_names[2] = { "stdout", "stderr" };

/* Reads what the pipes hold into the pending buffers (iopub_lock held). */
static void drain_locked(Kernel *K)
{
    int fds[2] = { K->out_r, K->err_r };
    char buf[65536];
    for (int i = 0; i < 2; i++) {
        ssize_t got;
        while ((got = read(fds[i], buf, sizeof buf)) > 0 || (got < 0 && errno == EINTR)) {
            if (got <= 0) continue;
            if (K->pend[0].len + K->pend[1].len == 0) K->pend_since = now_ms();
            if (!sb_append(&K->pend[i], buf, (size_t)got)) break;   /* out of memory: this output is lost */
        }
    }
}

/* The length of s's text up to its last whole UTF-8 character (a read may end inside one). */
static size_t whole_chars(const char *s, size_t n)
{
    size_t back = 0;
    while (back < n && back < 3 && ((unsigned char)s[n - 1 - back] & 0xC0) == 0x80) back++;
    if (back == n) return n;
    unsigned char lead = (unsigned char)s[n - 1 - back];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return need > back + 1 ? n - 1 - back : n;
}

/* Publishes the pending output as stream messages (iopub_lock held); all of it when all,
   else up to the last whole character. */
static void publish_locked(Kernel *K, bool all)
{
    for (int i = 0; i < 2; i++) {
        StrBuf *p = &K->pend[i];
        size_t n = all ? p->len : whole_chars(p->data ? p->data : "", p->len);
        if (n == 0) continue;
        StrBuf c = { 0 };
        bool ok = jj_lit(&c, "{\"name\":\"") && sb_append(&c, stream_names[i], strlen(stream_names[i])) && jj_lit(&c, "\",\"text\":") &&
                  jj_str(&c, p->data, n) && jj_lit(&c, "}");
        if (ok) jk_publish_locked(K, "stream", c.data, c.len);
        sb_free(&c);
        memmove(p->data, p->data + n, p->len - n);
        p->len -= n;
    }
    K->pend_since = now_ms();
}

/* Reads the pipes and publishes what they hold every STREAM_FLUSH_MS, until woken to stop. */
static void *reader_main(void *arg)
{
    Kernel *K = arg;
    struct pollfd p[3] = { { K->out_r, POLLIN, 0 }, { K->err_r, POLLIN, 0 }, { K->wake_r, POLLIN, 0 } };
    for (;;) {
        pthread_mutex_lock(&K->iopub_lock);
        int timeout = -1;
        if (K->pend[0].len + K->pend[1].len) {
            double left = K->pend_since + STREAM_FLUSH_MS - now_ms();
            timeout = left > 0 ? (int)left + 1 : 0;
        }
        pthread_mutex_unlock(&K->iopub_lock);
        if (poll(p, 3, timeout) < 0 && errno != EINTR) break;
        if (p[2].revents) break;
        pthread_mutex_lock(&K->iopub_lock);
        drain_locked(K);
        size_t n = K->pend[0].len + K->pend[1].len;
        if (n && (n >= STREAM_CHUNK_BYTES || now_ms() - K->pend_since >= STREAM_FLUSH_MS)) publish_locked(K, false);
        pthread_mutex_unlock(&K->iopub_lock);
    }
    return NULL;
}

/* A pipe whose read end does not block; false on failure. */
static bool make_pipe(int *r, int *w)
{
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) < 0) return false;
    fcntl(fd[0], F_SETPIPE_SZ, PIPE_BYTES);   /* best effort: the default size works too */
    fcntl(fd[0], F_SETFL, O_NONBLOCK);
    *r = fd[0];
    *w = fd[1];
    return true;
}

bool jio_capture_start(Kernel *K)
{
    int out_w, err_w, null = open("/dev/null", O_RDWR | O_CLOEXEC);
    K->out_r = K->err_r = K->wake_r = K->wake_w = -1;
    if (null < 0 || !make_pipe(&K->out_r, &out_w) || !make_pipe(&K->err_r, &err_w) || !make_pipe(&K->wake_r, &K->wake_w)) {
        fprintf(K->log, "tl: the Jupyter kernel cannot start: %s\n", strerror(errno));
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    bool ok = dup2(null, 0) >= 0 && dup2(out_w, 1) >= 0 && dup2(err_w, 2) >= 0;
    close(null);
    close(out_w);
    close(err_w);
    /* whole lines reach the reader as they are printed (a pipe would otherwise hold 4 KiB) */
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (ok) ok = K->reader_started = start_thread(&K->reader, reader_main, K);
    if (!ok) fprintf(K->log, "tl: the Jupyter kernel cannot start: %s\n", strerror(errno));
    return ok;
}

void jio_capture_sync(Kernel *K)
{
    fflush(stdout);
    fflush(stderr);
    pthread_mutex_lock(&K->iopub_lock);
    drain_locked(K);
    publish_locked(K, true);
    pthread_mutex_unlock(&K->iopub_lock);
}

void jio_stop(Kernel *K)
{
    if (K->reader_started) {
        jio_capture_sync(K);
        if (write(K->wake_w, "", 1) < 0) {}   /* the reader wakes and ends */
        pthread_join(K->reader, NULL);
        K->reader_started = false;
    }
    /* later writes must not meet a closed pipe: stdout goes nowhere, stderr to the kernel's log
       (where a sanitizer's report at exit is read) */
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) dup2(null, 1), close(null);
    dup2(fileno(K->log), 2);
    int fds[] = { K->out_r, K->err_r, K->wake_r, K->wake_w };
    for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
        if (fds[i] >= 0) close(fds[i]);
    sb_free(&K->pend[0]);
    sb_free(&K->pend[1]);
    if (K->ctx) jl.zmq_ctx_shutdown(K->ctx);   /* the heartbeat's proxy returns */
    if (K->heart_started) pthread_join(K->heart, NULL);
    K->heart_started = false;
}

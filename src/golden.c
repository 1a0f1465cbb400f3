/* golden.c — `tl --test`: options, finding tests, running them on parallel worker processes, the summary */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "golden.h"
#include "golden_int.h"

/* Defaults and limits of the options (docs/testing.md). */
#define DEFAULT_TIMEOUT_SEC 60.0
#define MAX_JOBS 256
#define DEFAULT_DURATIONS 10
/* Most runs of one test under --update (each rewrite of inline expectations runs it again). */
#define MAX_ROUNDS 3
/* Exit statuses: as tl's (docs/language.md §1), 130 when Ctrl-C stopped the run. */
enum { GOLDEN_OK = 0, GOLDEN_FAILED = 1, GOLDEN_USAGE = 2, GOLDEN_INTERRUPTED = 130 };

typedef struct Options {
    bool update;
    int jobs;
    const char *filter, *junit;
    int durations;             /* how many of the slowest to list; 0: none, -1: all */
    double timeout;
    char **paths;
    int npaths;
} Options;

typedef struct PathList { char **v; int n, cap; } PathList;

static bool list_add(PathList *l, const char *p)
{
    if (l->n == l->cap) {
        int ncap = l->cap ? l->cap * 2 : 64;
        char **nv = realloc(l->v, (size_t)ncap * sizeof *nv);
        if (!nv) return false;
        l->v = nv;
        l->cap = ncap;
    }
    return (l->v[l->n++] = strdup(p)) != NULL;
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* The folders already searched, by device and inode: a symlink may lead back into the tree
   (`self -> .`, `up -> ..`), and each folder is searched once. */
typedef struct Visited { dev_t *dev; ino_t *ino; int n, cap; } Visited;

/* True the first time a folder is seen (and records it); false after, or when out of memory. */
static bool first_visit(Visited *seen, const struct stat *st)
{
    for (int i = 0; i < seen->n; i++)
        if (seen->dev[i] == st->st_dev && seen->ino[i] == st->st_ino) return false;
    if (seen->n == seen->cap) {
        int ncap = seen->cap ? seen->cap * 2 : 64;
        dev_t *nd = realloc(seen->dev, (size_t)ncap * sizeof *nd);
        if (nd) seen->dev = nd;
        ino_t *ni = nd ? realloc(seen->ino, (size_t)ncap * sizeof *ni) : NULL;
        if (!ni) return false;
        seen->ino = ni;
        seen->cap = ncap;
    }
    seen->dev[seen->n] = st->st_dev;
    seen->ino[seen->n++] = st->st_ino;
    return true;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Collects every .tl file under path (or path itself) whose path contains filter; a folder's
   entries are taken in name order, so which path reaches a folder seen twice does not vary. */
static void collect(const char *path, const char *filter, PathList *out, Visited *seen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "tl --test: cannot open %s: %s\n", path, strerror(errno));
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        if (!filter || strstr(path, filter)) list_add(out, path);
        return;
    }
    if (!first_visit(seen, &st)) return;
    DIR *d = opendir(path);
    if (!d) return;
    PathList names = { 0 };
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && e->d_name[0] != '_') list_add(&names, e->d_name);   /* _helper.tl: included, not a test */
    closedir(d);
    if (names.n > 1) qsort(names.v, (size_t)names.n, sizeof(char *), cmp_str);   /* (none: names.v is NULL) */
    for (int i = 0; i < names.n; i++) {
        char sub[4096];
        struct stat s2;
        if (snprintf(sub, sizeof sub, "%s/%s", path, names.v[i]) >= (int)sizeof sub || stat(sub, &s2) != 0) continue;
        if (S_ISDIR(s2.st_mode)) collect(sub, filter, out, seen);
        else if (ends_with(names.v[i], ".tl") && (!filter || strstr(sub, filter))) list_add(out, sub);
    }
    for (int i = 0; i < names.n; i++) free(names.v[i]);
    free(names.v);
}

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- options ------------------------------------------------------------- */

/* The value of option `name` at argv[*i]: "--name=V", "-jV" or the next argument. NULL when not this option. */
static const char *option_value(char **argv, int argc, int *i, const char *name, bool *missing)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return NULL;
    if (a[n] == '=' ) return a + n + 1;
    if (a[n] && name[1] != '-') return a + n;   /* -j4 */
    if (a[n]) return NULL;
    if (*i + 1 >= argc) { *missing = true; return NULL; }
    return argv[++*i];
}

static bool parse_number(const char *s, double lo, double hi, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && !*end && *v >= lo && *v <= hi;
}

/* Reads the options after --test; false (with a message) on bad usage. */
static bool parse_options(int argc, char **argv, Options *o)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    *o = (Options){ .jobs = cpus > 0 ? (cpus > MAX_JOBS ? MAX_JOBS : (int)cpus) : 1, .timeout = DEFAULT_TIMEOUT_SEC };
    o->paths = argv;
    bool options_done = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        bool missing = false;
        double num;
        if (options_done || a[0] != '-' || !a[1]) { o->paths[o->npaths++] = argv[i]; continue; }
        if (strcmp(a, "--") == 0) options_done = true;
        else if (strcmp(a, "--update") == 0) o->update = true;
        else if (strcmp(a, "--durations") == 0) o->durations = DEFAULT_DURATIONS;
        else if ((v = option_value(argv, argc, &i, "--durations", &missing))) {
            if (!parse_number(v, 0, INT_MAX, &num) || num != floor(num)) goto bad;
            o->durations = num == 0 ? -1 : (int)num;
        } else if ((v = option_value(argv, argc, &i, "-j", &missing)) || (v = option_value(argv, argc, &i, "--jobs", &missing))) {
            if (!parse_number(v, 1, MAX_JOBS, &num) || num != floor(num)) goto bad;
            o->jobs = (int)num;
        } else if ((v = option_value(argv, argc, &i, "--timeout", &missing))) {
            if (!parse_number(v, 0.001, 1e6, &num)) goto bad;
            o->timeout = num;
        } else if ((v = option_value(argv, argc, &i, "--filter", &missing))) {
            o->filter = v;
        } else if ((v = option_value(argv, argc, &i, "--junit", &missing))) {
            if (!*v) goto bad;
            o->junit = v;
        } else {
            fprintf(stderr, "tl --test: %s option %s\n", missing ? "missing value for" : "unknown", a);
            return false;
        }
        continue;
    bad:
        fprintf(stderr, "tl --test: bad value for %s (see docs/testing.md)\n", a);
        return false;
    }
    if (o->npaths == 0) fprintf(stderr, "tl --test: no test paths given\n");
    return o->npaths > 0;
}

/* ---- workers ------------------------------------------------------------- */

/* A worker is a fork of the runner that runs tests one after another, each in a fresh interpreter,
   so a test pays for neither a fork nor an exit (on a small virtual machine two processes forking
   at once are slower in total than one after the other, and -j could gain little). A test that
   crashes, exits or times out takes its worker with it; the next test starts a new one. The runner
   writes a test's path to `cmd` (a length, then the bytes); the worker answers on `ctl` with the
   test's exit status once its output is flushed into fd[0] (stdout) and fd[1] (stderr). */
typedef struct Worker { pid_t pid; int cmd, ctl, fd[2]; int test; double start; bool killed; } Worker;

static volatile sig_atomic_t golden_interrupted = 0;

static void on_stop_signal(int sig)
{
    (void)sig;
    golden_interrupted = 1;
}

/* Reads exactly n bytes; false at end of file or on an error. */
static bool read_full(int fd, void *buf, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        got += (size_t)r;
    }
    return true;
}

/* Writes exactly n bytes; false on an error (a worker that died: EPIPE, SIGPIPE being ignored). */
static bool write_full(int fd, const void *buf, size_t n)
{
    for (size_t put = 0; put < n;) {
        ssize_t r = write(fd, (const char *)buf + put, n - put);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        put += (size_t)r;
    }
    return true;
}

/* The worker's life: runs each test it is sent in the test's folder and reports its status. */
static _Noreturn void worker_loop(GoldenRun run, int cmd, int ctl)
{
    /* Memory a test frees stays in this process for the next test: a fresh page costs a page
       fault, and on small virtual machines two processes' faults run one after the other, which
       is what bounds -j (docs/testing.md). */
    tl_heap_keep_freed((size_t)256 << 20);
    /* stderr is buffered like stdout (a pipe) and flushed when the test ends: unbuffered, each
       statement's marker was a write that woke the runner, and with two workers those wake-ups
       were much of -j 2's time. A crashing test loses what it had not flushed; the report still
       names the signal, and sanitizers write their reports to the descriptor directly. */
    static char err_buffer[1 << 16];
    setvbuf(stderr, err_buffer, _IOFBF, sizeof err_buffer);
    int home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    static char path[PATH_MAX + 1];
    static char message[sizeof(uint32_t) + PATH_MAX];
    for (;;) {
        /* A command is the path's length and the path, written at once: one read takes it whole
           (a path longer than a pipe's atomic write may come in pieces). */
        ssize_t got;
        while ((got = read(cmd, message, sizeof message)) < 0 && errno == EINTR) {}
        uint32_t len;
        if (got < (ssize_t)sizeof len) _exit(0);
        memcpy(&len, message, sizeof len);
        size_t have = (size_t)got - sizeof len;
        if (len > PATH_MAX || have > len || !read_full(cmd, message + sizeof len + have, len - have)) _exit(0);
        memcpy(path, message + sizeof len, len);
        path[len] = 0;
        char *slash = strrchr(path, '/');
        const char *dir = ".", *base = path;
        if (slash == path) dir = "/", base = path + 1;
        else if (slash) *slash = 0, dir = path, base = slash + 1;
        int32_t status = home >= 0 && fchdir(home) == 0 && chdir(dir) == 0 ? run(base) : 126;
        fflush(NULL);
        if (!write_full(ctl, &status, sizeof status)) _exit(0);
    }
}

/* Closes a worker's ends of its pipes (in the runner, or in another worker that inherited them). */
static void worker_close(Worker *w)
{
    int *fds[] = { &w->cmd, &w->ctl, &w->fd[0], &w->fd[1] };
    for (int i = 0; i < 4; i++)
        if (*fds[i] >= 0) { close(*fds[i]); *fds[i] = -1; }
}

/* In a new worker: unless TL_THREADS says otherwise, its tests' kernels default to the online CPUs
   divided among the workers (at least 1), so that N tests at once do not each start a thread per
   core: oversubscribed, two workers ran the golden suite no faster than one. OpenBLAS gets the
   same share unless OPENBLAS_NUM_THREADS is set: it starts its threads when a test first loads
   it, and each spins (sched_yield) for about 0.1 s before sleeping, which with -j 2 took CPU
   time from the other worker's tests. */
static void share_cores(int nworkers)
{
    const char *env = getenv("TL_THREADS");
    char buf[24];
    if (env && *env) {
        snprintf(buf, sizeof buf, "%s", env);
    } else {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        long share = cpus / (nworkers > 0 ? nworkers : 1);
        snprintf(buf, sizeof buf, "%ld", share > 1 ? share : 1);
        setenv("TL_THREADS", buf, 1);
    }
    setenv("OPENBLAS_NUM_THREADS", buf, 0);
}

/* Starts worker k; false when it cannot. */
static bool worker_start(GoldenRun run, Worker *ws, int nworkers, int k)
{
    int po[2], pe[2], pc[2], ps[2];   /* stdout, stderr, commands, statuses: [0] reads, [1] writes */
    int *pipes[] = { po, pe, pc, ps }, made = 0;
    for (; made < 4; made++)
        if (pipe2(pipes[made], O_CLOEXEC)) break;
    pid_t pid = made == 4 ? (fflush(NULL), fork()) : -1;   /* flushed: else the child writes our buffer again */
    if (pid == 0) {
        setpgid(0, 0);   /* a timeout kills the whole group, whatever the test started */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        for (int i = 0; i < nworkers; i++) worker_close(&ws[i]);   /* the other workers' pipes end with them */
        dup2(po[1], 1);
        dup2(pe[1], 2);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        share_cores(nworkers);
        int keep[] = { pc[0], ps[1] }, drop[] = { po[0], po[1], pe[0], pe[1], pc[1], ps[0] };
        for (int i = 0; i < 6; i++) close(drop[i]);   /* no exec follows, so O_CLOEXEC closes nothing */
        worker_loop(run, keep[0], keep[1]);
    }
    int runner_end[] = { po[0], pe[0], pc[1], ps[0] }, worker_end[] = { po[1], pe[1], pc[0], ps[1] };
    for (int i = 0; i < made; i++) {
        close(worker_end[i]);
        if (pid < 0) close(runner_end[i]);
    }
    if (pid < 0) return false;
    setpgid(pid, pid);   /* also here, so a kill right after fork finds the group */
    Worker *w = &ws[k];
    *w = (Worker){ .pid = pid, .cmd = pc[1], .ctl = ps[0], .fd = { po[0], pe[0] }, .test = -1 };
    fcntl(w->fd[0], F_SETFL, O_NONBLOCK);   /* drained to the end when the test's status arrives */
    fcntl(w->fd[1], F_SETFL, O_NONBLOCK);
    return true;
}

/* Sends test `ti` to worker k, starting the worker first if it has none; false when it cannot. */
static bool worker_assign(GoldenRun run, Worker *ws, int nworkers, int k, int ti, const char *path)
{
    Worker *w = &ws[k];
    uint32_t len = (uint32_t)strlen(path);
    if (len > PATH_MAX) return false;
    char message[sizeof len + PATH_MAX];   /* one write: the worker takes it with one read */
    memcpy(message, &len, sizeof len);
    memcpy(message + sizeof len, path, len);
    for (int attempt = 0; attempt < 2; attempt++) {   /* an idle worker may have died since its last test */
        if (!w->pid && !worker_start(run, ws, nworkers, k)) return false;
        if (write_full(w->cmd, message, sizeof len + len)) {
            w->test = ti;
            w->start = now_sec();
            w->killed = false;
            return true;
        }
        kill(-w->pid, SIGKILL);
        waitpid(w->pid, NULL, 0);
        worker_close(w);
        w->pid = 0;
    }
    return false;
}

/* Reads a worker's output pipes into its test: with `all`, everything (the worker has written
   it all: a read shorter than the buffer found the pipe empty); else one read of each pipe
   that `ready` (poll's revents, NULL: both) says has data. */
static void drain(Worker *w, Test *t, bool all, const struct pollfd *ready)
{
    char buf[65536];
    for (int i = 0; i < 2; i++) {
        if (ready && !(ready[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        while (w->fd[i] >= 0) {
            ssize_t got = read(w->fd[i], buf, sizeof buf);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0 && errno == EAGAIN) break;
            if (got <= 0 || !sb_append(i ? &t->raw_err : &t->raw_out, buf, (size_t)got)) {
                close(w->fd[i]);
                w->fd[i] = -1;
                break;
            }
            if (!all || (size_t)got < sizeof buf) break;
        }
    }
}

/* Ends worker k after its test crashed, exited, timed out or was interrupted: the test's wait
   status is the worker's. */
static int worker_bury(Worker *w, Test *t)
{
    if (w->killed) kill(-w->pid, SIGKILL);   /* the group too: whatever the test started */
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {}
    if (!w->killed) drain(w, t, true, NULL);   /* what it wrote before it died is all in the pipes */
    worker_close(w);
    w->pid = 0;
    return status;
}

/* The run's queue of tests and its workers (run_all). */
typedef struct Schedule {
    GoldenRun run;
    Test *tests;
    Worker *ws;
    int nw, *queue, next, queued, capacity, running, finished;
    int *judge;                /* tests finished since the last judging, by index */
    bool (*done)(Test *, void *);
    void *ctx;
} Schedule;

/* Judges test t; when done() asks for another round, it goes back in the queue. */
static void schedule_judge(Schedule *s, Test *t)
{
    if (s->done(t, s->ctx) && s->queued < s->capacity) s->queue[s->queued++] = (int)(t - s->tests);
}

/* Gives the next queued tests to idle workers. */
static void schedule_assign(Schedule *s)
{
    for (int k = 0; k < s->nw && s->next < s->queued && !golden_interrupted; k++) {
        if (s->ws[k].test >= 0) continue;
        int ti = s->queue[s->next++];
        if (worker_assign(s->run, s->ws, s->nw, k, ti, s->tests[ti].path)) { s->running++; continue; }
        s->tests[ti].status = -1;   /* could not start: judged at once */
        schedule_judge(s, &s->tests[ti]);
    }
}

/* Runs every test, at most o->jobs at once, calling done(test) as each one finishes (it returns true
   to have the test run once more); false when interrupted. */
static bool run_all(GoldenRun run, Test *tests, int n, const Options *o, bool (*done)(Test *, void *), void *ctx)
{
    int nw = o->jobs < n ? o->jobs : n;
    Worker *ws = calloc((size_t)nw, sizeof(Worker));
    struct pollfd *pfd = calloc(3 * (size_t)nw, sizeof(struct pollfd));
    int *queue = malloc(sizeof(int) * (size_t)n * (MAX_ROUNDS + 1));
    int *judge = malloc(sizeof(int) * (size_t)nw);
    Schedule s = { .run = run, .tests = tests, .ws = ws, .nw = nw, .queue = queue, .queued = n,
                   .capacity = n * (MAX_ROUNDS + 1), .judge = judge,
                   .done = done, .ctx = ctx };
    for (int i = 0; ws && i < nw; i++) ws[i] = (Worker){ .cmd = -1, .ctl = -1, .fd = { -1, -1 }, .test = -1 };
    for (int i = 0; queue && i < n; i++) queue[i] = i;
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);   /* a dead worker's pipe is an error, not a signal */
    while (ws && pfd && queue && judge && (s.next < s.queued || s.running > 0)) {
        schedule_assign(&s);
        double now = now_sec(), wait = 1.0;
        for (int k = 0; k < nw; k++) {
            Worker *w = &ws[k];
            bool busy = w->test >= 0;
            pfd[3 * k] = (struct pollfd){ .fd = busy ? w->fd[0] : -1, .events = POLLIN };
            pfd[3 * k + 1] = (struct pollfd){ .fd = busy ? w->fd[1] : -1, .events = POLLIN };
            pfd[3 * k + 2] = (struct pollfd){ .fd = busy ? w->ctl : -1, .events = POLLIN };
            double left = w->start + o->timeout - now;
            if (busy && left < wait) wait = left;
        }
        if (wait < 0) wait = 0;
        int r = poll(pfd, 3 * (nfds_t)nw, (int)(wait * 1000) + 1);
        if (r < 0 && errno != EINTR) break;
        now = now_sec();
        for (int k = 0; k < nw; k++) {
            Worker *w = &ws[k];
            if (w->test < 0) continue;
            Test *t = &tests[w->test];
            if (r > 0) drain(w, t, false, &pfd[3 * k]);
            int32_t code;
            if (!golden_interrupted && now - w->start <= o->timeout) {
                if (r <= 0 || !(pfd[3 * k + 2].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                if (read_full(w->ctl, &code, sizeof code)) {   /* finished, and the worker lives on */
                    drain(w, t, true, NULL);
                    t->status = (code & 0xff) << 8;   /* as waitpid reports an exit with this code */
                } else {
                    t->status = worker_bury(w, t);   /* it died with the test: a crash or an exit */
                }
            } else {
                w->killed = true;
                t->timed_out = !golden_interrupted;
                t->status = worker_bury(w, t);
            }
            t->seconds = now - w->start;
            w->test = -1;
            s.running--;
            if (!golden_interrupted) s.judge[s.finished++] = (int)(t - tests);
        }
        /* Idle workers get their next tests before the finished ones are judged (reading expected
           files, diffs), so no worker waits for the runner. */
        schedule_assign(&s);
        for (int i = 0; i < s.finished; i++) schedule_judge(&s, &tests[s.judge[i]]);
        s.finished = 0;
        if (golden_interrupted && s.running == 0) break;
    }
    for (int k = 0; ws && k < nw; k++) {   /* idle workers see their command pipe end and exit */
        if (!ws[k].pid) continue;
        worker_close(&ws[k]);
        while (waitpid(ws[k].pid, NULL, 0) < 0 && errno == EINTR) {}
    }
    signal(SIGPIPE, old_pipe);
    bool ok = ws && pfd && queue && judge && !golden_interrupted;
    if (!ws || !pfd || !queue || !judge) fprintf(stderr, "tl --test: out of memory\n");
    free(judge);
    free(queue);
    free(ws);
    free(pfd);
    return ok;
}

/* ---- results ------------------------------------------------------------- */

/* Printing in path order as results arrive: tests before `printed` are out. */
typedef struct Progress { Test *tests; int n, printed, passed, failed; bool *finished; bool update; } Progress;

/* Judges a finished test, then prints every report that is next in path order. Returns true when
   --update rewrote inline expectations and the test must run again: the rewrite moves lines, and
   its output may quote line numbers (error messages do). */
static bool on_done(Test *t, void *ctx)
{
    Progress *p = ctx;
    golden_check(t, p->update);
    if (t->run_again && ++t->rounds < MAX_ROUNDS) {
        t->raw_out.len = t->raw_err.len = 0;
        return true;
    }
    p->finished[t - p->tests] = true;
    while (p->printed < p->n && p->finished[p->printed]) {
        Test *q = &p->tests[p->printed++];
        if (q->report.len) fwrite(q->report.data, 1, q->report.len, stdout);
        if (q->verdict == VERDICT_PASS) p->passed++;
        else p->failed++;
        sb_free(&q->raw_out);
        sb_free(&q->raw_err);
    }
    fflush(stdout);
    return false;
}

static int cmp_slowest(const void *a, const void *b)
{
    const Test *x = *(Test *const *)a, *y = *(Test *const *)b;
    return x->seconds < y->seconds ? 1 : x->seconds > y->seconds ? -1 : strcmp(x->path, y->path);
}

/* Lists the slowest tests (count < 0: all). */
static void print_durations(Test *tests, int n, int count)
{
    Test **order = malloc(sizeof(Test *) * (size_t)n);
    if (!order) return;
    for (int i = 0; i < n; i++) order[i] = &tests[i];
    qsort(order, (size_t)n, sizeof *order, cmp_slowest);
    if (count < 0 || count > n) count = n;
    printf("slowest %d test%s:\n", count, count == 1 ? "" : "s");
    for (int i = 0; i < count; i++) printf("%9.3fs  %s\n", order[i]->seconds, order[i]->path);
    free(order);
}

int golden_main(GoldenRun run, int argc, char **argv)
{
    Options o;
    if (!parse_options(argc, argv, &o)) return GOLDEN_USAGE;
    PathList files = { 0 };
    Visited seen = { 0 };
    for (int i = 0; i < o.npaths; i++) collect(o.paths[i], o.filter, &files, &seen);
    free(seen.dev);
    free(seen.ino);
    if (files.n == 0) {   /* a mistyped path is a usage error, not an empty pass */
        fprintf(stderr, "tl --test: no tests found%s%s\n", o.filter ? " matching " : "", o.filter ? o.filter : "");
        free(files.v);
        return GOLDEN_USAGE;
    }
    qsort(files.v, (size_t)files.n, sizeof(char *), cmp_str);
    int n = 0;
    for (int i = 0; i < files.n; i++) {   /* a path given twice runs once */
        if (n && strcmp(files.v[n - 1], files.v[i]) == 0) free(files.v[i]);
        else files.v[n++] = files.v[i];
    }
    FILE *junit = o.junit ? fopen(o.junit, "w") : NULL;   /* opened first: a bad path is found before the run */
    if (o.junit && !junit) {
        fprintf(stderr, "tl --test: cannot write %s: %s\n", o.junit, strerror(errno));
        for (int i = 0; i < n; i++) free(files.v[i]);
        free(files.v);
        return GOLDEN_USAGE;
    }
    Test *tests = calloc((size_t)n, sizeof(Test));
    bool *finished = calloc((size_t)n, sizeof(bool));
    int status = GOLDEN_FAILED;
    if (tests && finished) {
        for (int i = 0; i < n; i++) tests[i].path = files.v[i];
        struct sigaction sa = { 0 }, old_int, old_term;
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &old_int);
        sigaction(SIGTERM, &sa, &old_term);
        Progress p = { tests, n, 0, 0, 0, finished, o.update };
        double start = now_sec();
        bool completed = run_all(run, tests, n, &o, on_done, &p);
        double seconds = now_sec() - start;
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        if (completed && o.durations) print_durations(tests, n, o.durations);
        if (completed && junit && !junit_write(junit, tests, n, seconds)) {
            fprintf(stderr, "tl --test: cannot write %s\n", o.junit);
            p.failed++;
        }
        if (completed) junit = NULL;   /* junit_write closed it */
        if (!completed) printf("interrupted after ");
        printf("%d passed, %d failed\n", p.passed, p.failed);
        status = !completed ? GOLDEN_INTERRUPTED : p.failed ? GOLDEN_FAILED : GOLDEN_OK;
    } else {
        fprintf(stderr, "tl --test: out of memory\n");
    }
    if (junit) fclose(junit);
    for (int i = 0; tests && i < n; i++) {
        sb_free(&tests[i].raw_out);
        sb_free(&tests[i].raw_err);
        sb_free(&tests[i].report);
    }
    for (int i = 0; i < n; i++) free(files.v[i]);
    free(files.v);
    free(tests);
    free(finished);
    return status;
}

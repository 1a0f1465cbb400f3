/* golden.c — `tl --test`: options, finding tests, running them in parallel child processes, the summary */
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
#include <sys/syscall.h>
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

/* Collects every .tl file under path (or path itself) whose path contains filter. */
static void collect(const char *path, const char *filter, PathList *out)
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
    DIR *d = opendir(path);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || e->d_name[0] == '_') continue;   /* _helper.tl: included, not a test */
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        struct stat s2;
        if (stat(sub, &s2) != 0) continue;
        if (S_ISDIR(s2.st_mode)) collect(sub, filter, out);
        else if (ends_with(e->d_name, ".tl") && (!filter || strstr(sub, filter))) list_add(out, sub);
    }
    closedir(d);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

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

/* ---- child processes ----------------------------------------------------- */

/* A running test: its child (leader of its own process group), the read ends of its pipes, and a
   pidfd that becomes readable when the child exits (-1 where the kernel has none). */
typedef struct Slot { int test; pid_t pid; int fd[2]; int pidfd; double start; bool killed; } Slot;

/* A file descriptor that polls readable once `pid` has exited; -1 on kernels before 5.3. */
static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

static volatile sig_atomic_t golden_interrupted = 0;

static void on_stop_signal(int sig)
{
    (void)sig;
    golden_interrupted = 1;
}

/* Starts a child running the test in the script's folder; false when it cannot. The child is a
   fork of this process, not a new tl: loading tl's libraries again would cost more than most tests. */
static bool spawn(GoldenRun run, Test *t, Slot *s)
{
    int po[2], pe[2];
    if (pipe2(po, O_CLOEXEC)) return false;
    if (pipe2(pe, O_CLOEXEC)) { close(po[0]); close(po[1]); return false; }
    char dir[4096] = ".";
    const char *slash = strrchr(t->path, '/'), *base = slash ? slash + 1 : t->path;
    if (slash == t->path) strcpy(dir, "/");
    else if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - t->path), t->path);
    fflush(NULL);   /* else the child would write our buffered output again */
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);   /* a timeout kills the whole group, whatever the test started */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        dup2(po[1], 1);
        dup2(pe[1], 2);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        if (chdir(dir) != 0) _exit(126);
        int status = run(base);
        fflush(NULL);
        _exit(status);
    }
    close(po[1]);
    close(pe[1]);
    if (pid < 0) { close(po[0]); close(pe[0]); return false; }
    setpgid(pid, pid);   /* also here, so a kill right after fork finds the group */
    *s = (Slot){ .pid = pid, .fd = { po[0], pe[0] }, .pidfd = open_pidfd(pid), .start = now_sec() };
    return true;
}

/* Reads what is ready on a slot's pipes; closes a pipe at its end. */
static void drain(Slot *s, Test *t, const struct pollfd *p)
{
    char buf[65536];
    for (int i = 0; i < 2; i++) {
        if (s->fd[i] < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        ssize_t got = read(s->fd[i], buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0 || !sb_append(i ? &t->raw_err : &t->raw_out, buf, (size_t)got)) {
            close(s->fd[i]);
            s->fd[i] = -1;
        }
    }
}

/* Kills a slot's process group (timeout or Ctrl-C) and stops reading it. */
static void kill_slot(Slot *s)
{
    kill(-s->pid, SIGKILL);
    kill(s->pid, SIGKILL);
    s->killed = true;
    for (int i = 0; i < 2; i++)
        if (s->fd[i] >= 0) { close(s->fd[i]); s->fd[i] = -1; }
}

/* Runs every test, at most o->jobs at once, calling done(test) as each one finishes (it returns true
   to have the test run once more); false when interrupted. */
static bool run_all(GoldenRun run, Test *tests, int n, const Options *o, bool (*done)(Test *, void *), void *ctx)
{
    Slot *slots = calloc((size_t)o->jobs, sizeof(Slot));
    struct pollfd *pfd = calloc(3 * (size_t)o->jobs, sizeof(struct pollfd));
    int *queue = malloc(sizeof(int) * (size_t)n * (MAX_ROUNDS + 1));
    int next = 0, queued = n, running = 0;
    for (int i = 0; queue && i < n; i++) queue[i] = i;
    while (slots && pfd && queue && (next < queued || running > 0)) {
        for (int k = 0; k < o->jobs && next < queued && !golden_interrupted; k++) {
            if (slots[k].pid) continue;
            Test *t = &tests[queue[next]];
            if (spawn(run, t, &slots[k])) { slots[k].test = queue[next++]; running++; continue; }
            t->status = -1;   /* could not start: judged at once */
            next++;
            if (done(t, ctx)) queue[queued++] = (int)(t - tests);
        }
        double now = now_sec(), wait = 1.0;
        bool reaping = false;
        for (int k = 0; k < o->jobs; k++) {
            Slot *s = &slots[k];
            pfd[2 * k] = (struct pollfd){ .fd = s->pid ? s->fd[0] : -1, .events = POLLIN };
            pfd[2 * k + 1] = (struct pollfd){ .fd = s->pid ? s->fd[1] : -1, .events = POLLIN };
            /* the pidfd only once the pipes are done: it is readable from exit until the wait */
            bool piped = s->fd[0] >= 0 || s->fd[1] >= 0;
            pfd[2 * o->jobs + k] = (struct pollfd){ .fd = s->pid && !piped ? s->pidfd : -1, .events = POLLIN };
            if (!s->pid) continue;
            double left = s->start + o->timeout - now;
            if (left < wait) wait = left;
            if (!piped && s->pidfd < 0) reaping = true;
        }
        if (reaping) wait = 0.001;   /* its pipes are closed and there is no pidfd: poll for its exit */
        if (wait < 0) wait = 0;
        int r = poll(pfd, 3 * (nfds_t)o->jobs, (int)(wait * 1000) + 1);
        if (r < 0 && errno != EINTR) break;
        now = now_sec();
        for (int k = 0; k < o->jobs; k++) {
            Slot *s = &slots[k];
            if (!s->pid) continue;
            Test *t = &tests[s->test];
            if (r > 0) drain(s, t, &pfd[2 * k]);
            if (!s->killed && (golden_interrupted || now - s->start > o->timeout)) {
                kill_slot(s);
                t->timed_out = !golden_interrupted;
            }
            if (s->fd[0] >= 0 || s->fd[1] >= 0) continue;
            int status = 0;
            pid_t w = waitpid(s->pid, &status, s->killed ? 0 : WNOHANG);
            if (w == 0 || (w < 0 && errno == EINTR)) continue;
            t->status = w < 0 ? -1 : status;
            t->seconds = now - s->start;
            s->pid = 0;
            if (s->pidfd >= 0) close(s->pidfd);
            if (!golden_interrupted && done(t, ctx) && queued < n * (MAX_ROUNDS + 1)) queue[queued++] = (int)(t - tests);
            running--;
        }
        if (golden_interrupted && running == 0) break;
    }
    bool ok = slots && pfd && queue && !golden_interrupted;
    if (!slots || !pfd || !queue) fprintf(stderr, "tl --test: out of memory\n");
    free(queue);
    free(slots);
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
    for (int i = 0; i < o.npaths; i++) collect(o.paths[i], o.filter, &files);
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

/* main.c — the command line: scripts, -e, -i, stdin programs, --test, the shell */
#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "format.h"
#include "golden.h"
#include "interp.h"
#include "jupyter.h"
#include "ops.h"
#include "shell.h"


/* The interpreter runs on a stack with this much reserved (pages are touched only as used), so
   the call-depth limit, not the C stack, is what deep recursion hits, in every build. */
#define EVAL_STACK_BYTES ((size_t)1 << 30)
/* Room kept free below the evaluator's stack check for builtins and the runtime. */
#define EVAL_STACK_MARGIN ((size_t)64 << 20)

/* Exit statuses (docs/language.md §1); 130 is a script stopped by Ctrl-C. */
enum { EXIT_OK = 0, EXIT_ERROR = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

static const char usage[] =
    "usage: tl [FILE.tl [ARGS...]]       run a script (argv holds ARGS)\n"
    "       tl -e 'CODE'                 run CODE\n"
    "       tl -i FILE.tl                run FILE, then open the shell\n"
    "       tl --test [OPTIONS] PATH...  golden tests: compare X.tl's output with X.out/X.err or its\n"
    "                                    inline #> / #! / #~ lines (docs/testing.md). Options:\n"
    "           --update                 rewrite the expectations of failing tests from their output\n"
    "           --review                 show each failing test and ask: accept, reject, skip, quit\n"
    "           --prune                  delete expectation files whose test is gone (orphans)\n"
    "           -j N                     N tests at once (default: the CPU count)\n"
    "           --filter TEXT            only tests whose path contains TEXT\n"
    "           --junit FILE             write a JUnit XML report\n"
    "           --durations[=N]          list the N slowest tests (default 10; 0: all)\n"
    "           --timeout S              kill a test after S seconds (default 60)\n"
    "       tl --mark-statements FILE.tl run FILE, writing a marker before each top-level\n"
    "                                    statement's output (what --test runs)\n"
    "       tl --install-kernel [--user | --prefix DIR]\n"
    "                                    install tl's Jupyter kernel (for everyone, for you, or under\n"
    "                                    DIR/share/jupyter; docs/notebooks.md)\n"
    "       tl --jupyter CONNECTION_FILE serve as that kernel (what Jupyter starts)\n"
    "       tl --version | --help\n"
    "With no arguments tl opens the shell on a terminal, or runs the program on stdin.\n";

/* Every environment variable tl reads (tests/cli/test_cli.sh checks each getenv'd name is here). */
static const char environment_help[] =
    "\n"
    "Environment:\n"
    "  TL_THREADS=N       threads for the tensor kernels (default: the CPU count; results\n"
    "                     do not depend on it; threads(n) changes it at run time)\n"
    "  TL_SPIN_US=N       microseconds a kernel thread polls for the next job before it\n"
    "                     sleeps (default 500; 0: it sleeps at once)\n"
    "  TL_SIMD=0          turns off the hand-written AVX-512 and SLEEF loops\n"
    "  TL_POOL_MB=N       megabytes of freed large blocks kept for reuse (default 256;\n"
    "                     0: every freed block goes straight back to the system)\n"
    "  TL_GGUF_EAGER=1    dequantizes quantized GGUF tensors when loaded, not when touched\n"
    "  TL_SEED=N          seeds the random numbers for the whole run (default: a fresh seed\n"
    "                     from the system each run, as numpy; tl --test uses seed 0)\n"
    "  TL_HISTORY=FILE    the shell's history file (default ~/.tl_history; empty: no history)\n"
    "  HOME               the folder of the default history file\n"
    "  NO_COLOR=1         no color in the shell's error messages and in pictures (also TERM=dumb)\n"
    "  TERM               TERM=dumb turns color off, as NO_COLOR does; *256color: 256-color pictures\n"
    "  COLUMNS            picture width on a terminal that does not report its size (else 80)\n"
    "  LINES              picture height on such a terminal, plus one (else 24 lines)\n"
    "  COLORTERM          COLORTERM=truecolor or 24bit: pictures in 24-bit color\n"
    "  TL_BLAS_LIBRARY=F  the BLAS library opened on the first matrix product\n"
    "                     (default: the build's, libopenblas.so.0 on Debian)\n"
    "  TL_LAPACKE_LIBRARY=F  the LAPACKE library opened on the first decomposition\n"
    "                     (default: liblapacke.so.3)\n"
    "  TL_SLEEF_LIBRARY=F the SLEEF library opened for the first AVX-512 exp, log, sin, ...\n"
    "                     (default: libsleef.so.3; without it the portable loops run)\n"
    "  TL_CAIRO_LIBRARY=F the cairo library opened on the first image written\n"
    "                     (default: libcairo.so.2)\n"
    "  TL_ZMQ_LIBRARY=F   the libzmq opened when the Jupyter kernel starts (default: libzmq.so.5)\n"
    "  TL_SODIUM_LIBRARY=F  the libsodium opened then, for message signatures (default:\n"
    "                     libsodium.so.23)\n"
    "  JUPYTER_DATA_DIR   where --install-kernel --user puts the kernel (default:\n"
    "                     XDG_DATA_HOME/jupyter, else ~/.local/share/jupyter)\n"
    "  XDG_DATA_HOME      see JUPYTER_DATA_DIR\n"
    "  OPENBLAS_NUM_THREADS=N  OpenBLAS's thread count for decompositions; under a memory\n"
    "                     limit (ulimit -v, -d) tl opens OpenBLAS with 1 and adds those that fit\n"
    "OpenBLAS reads its own variables (such as OPENBLAS_NUM_THREADS) for matrix products.\n";

static void on_sigint(int sig)
{
    (void)sig;
    tl_interrupt_flag = 1;
}

/* Binds argv to a tuple of strings. */
static bool set_argv(Interp *I, int argc, char **argv)
{
    Value t = val_tuple_new(argc);
    if (t.kind != V_TUPLE) return false;
    for (int i = 0; i < argc; i++) t.as.tu->items[i] = val_cstr(argv[i]);
    return interp_set_global(I, "argv", t);
}

/* Runs a source as a script; prints an error and returns the exit status. */
static int run_script(Interp *I, Source *src)
{
    bool ok = interp_run_source(I, src, true);
    source_release(src);
    fflush(stdout);
    if (ok) return I->failed_statements ? EXIT_ERROR : EXIT_OK;   /* (`# tl-test: shell` printed them) */
    if (tl_interrupt_flag) {
        fprintf(stderr, "interrupted\n");
        return EXIT_INTERRUPTED;
    }
    diag_print(stderr, &I->err);
    return EXIT_ERROR;
}

static Source *read_stdin_source(void)
{
    StrBuf b = { 0 };
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, stdin)) > 0)
        if (!sb_append(&b, buf, got)) { sb_free(&b); return NULL; }
    Source *s = source_new("<stdin>", b.data ? b.data : "", b.len);
    sb_free(&b);
    return s;
}

static int finish(Interp *I, int status)
{
    interp_free(I);
    return status;
}

static bool on_big_stack = false;
static bool in_test_worker = false;   /* running one golden test: the fixed seed */
static int run_test_script(const char *script);

/* The seed every golden test starts from (tl --test): what the random numbers of a run started
   with before runs drew fresh seeds, so the expected outputs written then still hold. */
#define TEST_SEED GOLDEN_SEED

/* Seeds the random numbers for this run: the test seed under tl --test, TL_SEED=N when set,
   else a fresh seed from the system (as numpy), so each run draws new numbers unless seeded.
   False when TL_SEED is not a number. */
static bool seed_run(void)
{
    const char *s = getenv("TL_SEED");
    uint64_t seed = TEST_SEED;
    if (in_test_worker) {
        /* the fixed seed, whatever the environment says */
    } else if (s && *s) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (*end || errno || s[0] == '-') {
            fprintf(stderr, "tl: TL_SEED must be a non-negative integer, not \"%s\"\n", s);
            return false;
        }
        seed = v;
    } else if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != (ssize_t)sizeof seed) {
        struct timespec ts;   /* no entropy yet (early boot): the clock and the process id */
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_nsec * 6364136223846793005ull ^ (uint64_t)ts.tv_sec ^ (uint64_t)getpid() << 32;
    }
    tl_seed(seed);
    return true;
}

static int tl_main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) { printf("tl %s\n", TL_VERSION); return EXIT_OK; }
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        fputs(environment_help, stdout);
        return EXIT_OK;
    }
    if (argc >= 2 && strcmp(argv[1], "--test") == 0) {
        if (argc < 3) { fputs(usage, stderr); return EXIT_USAGE; }
        return golden_main(run_test_script, argc - 2, argv + 2);
    }
    if (argc >= 2 && strcmp(argv[1], "--install-kernel") == 0) return jupyter_install_main(argc - 2, argv + 2);

    tl_heap_keep_freed((size_t)32 << 20);
    struct sigaction sa = { 0 };
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);

    if (!seed_run()) return EXIT_USAGE;
    Interp *I = interp_new();
    if (!I) { fprintf(stderr, "tl: out of memory\n"); return EXIT_ERROR; }
    if (on_big_stack) I->stack_limit = EVAL_STACK_BYTES - EVAL_STACK_MARGIN;
    char errbuf[512];

    if (argc >= 2 && strcmp(argv[1], "-e") == 0) {
        if (argc < 3) { fputs(usage, stderr); return finish(I, EXIT_USAGE); }
        set_argv(I, argc - 3, argv + 3);
        Source *src = source_new("<-e>", argv[2], strlen(argv[2]));
        if (!src) return finish(I, EXIT_ERROR);
        return finish(I, run_script(I, src));
    }
    if (argc >= 2 && strcmp(argv[1], "-i") == 0) {
        if (argc < 3) { fputs(usage, stderr); return finish(I, EXIT_USAGE); }
        set_argv(I, argc - 3, argv + 3);
        Source *src = source_from_file(argv[2], errbuf, sizeof errbuf);
        if (!src) { fprintf(stderr, "tl: %s\n", errbuf); return finish(I, EXIT_ERROR); }
        int st = run_script(I, src);
        if (st == EXIT_INTERRUPTED) tl_interrupt_flag = 0;
        return finish(I, shell_run(I));
    }
    if (argc >= 2 && strcmp(argv[1], "--jupyter") == 0) {
        if (argc != 3) { fputs(usage, stderr); return finish(I, EXIT_USAGE); }
        set_argv(I, 0, NULL);
        return finish(I, jupyter_kernel_main(I, argv[2], TL_VERSION));
    }
    if (argc >= 2 && strcmp(argv[1], "--mark-statements") == 0) {   /* a script, as tl --test runs it */
        if (argc < 3) { fputs(usage, stderr); return finish(I, EXIT_USAGE); }
        I->mark_statements = true;
        argc--;
        argv++;
    }
    if (argc >= 2 && argv[1][0] == '-' && argv[1][1] != 0) {
        fprintf(stderr, "tl: unknown option %s\n", argv[1]);
        fputs(usage, stderr);
        return finish(I, EXIT_USAGE);
    }
    if (argc >= 2) {
        set_argv(I, argc - 2, argv + 2);
        I->script_path = argv[1];
        I->test_update = in_test_worker && golden_updating();
        Source *src = source_from_file(argv[1], errbuf, sizeof errbuf);
        if (!src) { fprintf(stderr, "tl: %s\n", errbuf); return finish(I, EXIT_ERROR); }
        I->as_shell = I->mark_statements && golden_runs_as_shell(src->text, src->len);
        return finish(I, run_script(I, src));
    }
    set_argv(I, 0, NULL);
    if (isatty(0)) return finish(I, shell_run(I));
    Source *src = read_stdin_source();
    if (!src) { fprintf(stderr, "tl: out of memory\n"); return finish(I, EXIT_ERROR); }
    return finish(I, run_script(I, src));
}

/* What a `tl --test` worker runs for each test: the script, as `tl --mark-statements SCRIPT` would
   in a new process. A worker runs many tests, so first the process-wide settings a previous test
   may have changed go back to their defaults: threads, the random seed (TEST_SEED, by tl_main),
   print options, Ctrl-C, storage numbers. */
static int run_test_script(const char *script)
{
    tl_set_threads(0);
    in_test_worker = true;   /* tl_main seeds with TEST_SEED */
    tl_printopts_default(&tl_print_options);
    tl_interrupt_flag = 0;
    tl_storage_restart_ids();
    char *args[] = { "tl", "--mark-statements", (char *)script, NULL };
    return tl_main(3, args);
}

typedef struct MainArgs { int argc; char **argv; int status; } MainArgs;

/* Sanitizer builds keep the big stack on a thread: AddressSanitizer does not fully follow
   swapcontext. */
#if defined(__SANITIZE_ADDRESS__)
#define BIG_STACK_ON_THREAD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BIG_STACK_ON_THREAD 1
#endif
#endif

#ifndef BIG_STACK_ON_THREAD
static MainArgs *context_args;
static ucontext_t main_context;

/* Runs tl on the big stack; returning resumes main_context. */
static void big_stack_entry(void) { context_args->status = tl_main(context_args->argc, context_args->argv); }

/* Runs tl on a mapped stack of EVAL_STACK_BYTES on this thread (a second thread cost about
   1 ms of every short run on the 2-core VM: its start and its join wake the other CPU).
   Returns false when the stack cannot be had. */
static bool run_on_big_stack(MainArgs *m)
{
    void *stack = mmap(NULL, EVAL_STACK_BYTES, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return false;
    ucontext_t big;
    if (getcontext(&big) != 0) { munmap(stack, EVAL_STACK_BYTES); return false; }
    big.uc_stack.ss_sp = stack;
    big.uc_stack.ss_size = EVAL_STACK_BYTES;
    big.uc_link = &main_context;
    context_args = m;
    makecontext(&big, big_stack_entry, 0);
    on_big_stack = true;
    if (swapcontext(&main_context, &big) != 0) { on_big_stack = false; munmap(stack, EVAL_STACK_BYTES); return false; }
    munmap(stack, EVAL_STACK_BYTES);
    return true;
}
#else
static void *main_thread(void *p)
{
    MainArgs *m = p;
    m->status = tl_main(m->argc, m->argv);
    return NULL;
}

/* Runs tl on a thread whose stack is EVAL_STACK_BYTES; false when no such thread can start. */
static bool run_on_big_stack(MainArgs *m)
{
    pthread_attr_t attr;
    pthread_t th;
    bool ran = false;
    if (pthread_attr_init(&attr) != 0) return false;
    on_big_stack = true;
    if (pthread_attr_setstacksize(&attr, EVAL_STACK_BYTES) == 0 && pthread_create(&th, &attr, main_thread, m) == 0) {
        pthread_join(th, NULL);
        ran = true;
    }
    pthread_attr_destroy(&attr);
    on_big_stack = ran;
    return ran;
}
#endif

int main(int argc, char **argv)
{
    MainArgs m = { argc, argv, EXIT_ERROR };
    if (run_on_big_stack(&m)) return m.status;
    return tl_main(argc, argv);   /* the ordinary stack, with the rlimit-based budget */
}

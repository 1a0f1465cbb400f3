/* fuzz_common.c — limits, watchdog, scratch files and the write sandbox shared by the fuzz targets */
#include "fuzz_common.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- the watchdog: a simulated Ctrl-C after FUZZ_WALL_MS ------------------------- */

static pthread_mutex_t watch_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_cv;
static bool watch_armed;
static struct timespec watch_deadline;

/* The watchdog thread: waits for an armed deadline to pass, then raises the interrupt flag. */
static void *watchdog(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&watch_mu);
    for (;;) {
        if (!watch_armed) {
            pthread_cond_wait(&watch_cv, &watch_mu);
            continue;
        }
        if (pthread_cond_timedwait(&watch_cv, &watch_mu, &watch_deadline) == ETIMEDOUT && watch_armed) {
            tl_interrupt_flag = 1;
            watch_armed = false;
        }
    }
    return NULL;
}

void fuzz_init_limits(void)
{
    tl_storage_max_bytes = FUZZ_STORAGE_MAX_BYTES;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);   /* deadlines are monotonic times */
    pthread_cond_init(&watch_cv, &attr);
    pthread_condattr_destroy(&attr);
    pthread_t th;
    if (pthread_create(&th, NULL, watchdog, NULL) == 0) pthread_detach(th);
}

void fuzz_begin_input(void)
{
    pthread_mutex_lock(&watch_mu);
    clock_gettime(CLOCK_MONOTONIC, &watch_deadline);
    watch_deadline.tv_sec += FUZZ_WALL_MS / 1000;
    watch_deadline.tv_nsec += (long)(FUZZ_WALL_MS % 1000) * 1000000L;
    if (watch_deadline.tv_nsec >= 1000000000L) {
        watch_deadline.tv_sec++;
        watch_deadline.tv_nsec -= 1000000000L;
    }
    watch_armed = true;
    pthread_cond_signal(&watch_cv);
    pthread_mutex_unlock(&watch_mu);
}

void fuzz_end_input(void)
{
    pthread_mutex_lock(&watch_mu);
    watch_armed = false;
    pthread_cond_signal(&watch_cv);
    pthread_mutex_unlock(&watch_mu);
    tl_interrupt_flag = 0;
}

int fuzz_discard(void *ctx, const char *s, size_t n)
{
    (void)ctx;
    (void)s;
    (void)n;
    return 0;
}

/* ---- scratch files -------------------------------------------------------------- */

static char scratch_dir[256];
static char scratch_path[300];

/* atexit: removes the scratch file and its folder. */
static void remove_scratch(void)
{
    if (scratch_path[0]) unlink(scratch_path);
    if (scratch_dir[0]) rmdir(scratch_dir);
}

const char *fuzz_scratch_file(const char *ext, const uint8_t *data, size_t size)
{
    if (!scratch_dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(scratch_dir, sizeof scratch_dir, "%s/tl-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(scratch_dir)) {
            scratch_dir[0] = 0;
            return NULL;
        }
        atexit(remove_scratch);
    }
    snprintf(scratch_path, sizeof scratch_path, "%s/input%s", scratch_dir, ext);
    /* a fresh file each time: a loaded tensor may still map the old one */
    unlink(scratch_path);
    int fd = open(scratch_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return NULL;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0) {
            close(fd);
            return NULL;
        }
        done += (size_t)w;
    }
    close(fd);
    return scratch_path;
}

/* ---- the write sandbox ------------------------------------------------------------ */

/* Adds a rule letting `rights` apply beneath path; -1 when path cannot be opened. */
static int allow_beneath(int ruleset, const char *path, uint64_t rights)
{
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return -1;
    struct landlock_path_beneath_attr rule = { .allowed_access = rights, .parent_fd = fd };
    long rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    close(fd);
    return rc == 0 ? 0 : -1;
}

int fuzz_sandbox_writes(void)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return -1;
    uint64_t rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                      LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                      LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                      LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                      LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
#ifdef LANDLOCK_ACCESS_FS_REFER
    if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    if (abi >= 3) rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
    struct landlock_ruleset_attr attr = { .handled_access_fs = rights };
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0) return -1;
    const char *tmp = getenv("TMPDIR");
    int rc = allow_beneath(ruleset, ".", rights);
    if (rc == 0 && tmp && *tmp) rc = allow_beneath(ruleset, tmp, rights);   /* run.sh points it inside its work folder */
    if (rc == 0) rc = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? 0 : -1;
    if (rc == 0) rc = syscall(SYS_landlock_restrict_self, ruleset, 0) == 0 ? 0 : -1;
    close(ruleset);
    return rc;
}

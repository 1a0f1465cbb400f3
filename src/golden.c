/* golden.c — `tl --test`: run X.tl, compare stdout/stderr with X.out/X.err, print unified diffs */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
#include "value.h"

/* A test taking longer than this is killed and counted as failed. */
#define TEST_TIMEOUT_SEC 300
/* Lines of context around each change in a diff. */
#define DIFF_CONTEXT 3

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

/* Collects every .tl file under path (or path itself). */
static void collect(const char *path, PathList *out)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "tl --test: cannot open %s: %s\n", path, strerror(errno));
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        list_add(out, path);
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
        if (S_ISDIR(s2.st_mode)) collect(sub, out);
        else if (ends_with(e->d_name, ".tl")) list_add(out, sub);
    }
    closedir(d);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Reads a whole file; NULL when absent. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    StrBuf b = { 0 };
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) sb_append(&b, buf, got);
    fclose(f);
    if (!b.data) sb_append(&b, "", 0);
    *len = b.len;
    return b.data;
}

static bool write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* Runs `tl script` in the script's folder, capturing stdout and stderr; returns the wait status. */
static int run_child(const char *self, const char *script, StrBuf *out, StrBuf *err)
{
    int po[2], pe[2];
    if (pipe(po) || pipe(pe)) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        char *dir = strdup(script);
        char *slash = strrchr(dir, '/');
        const char *base = script;
        if (slash) {
            *slash = 0;
            base = slash + 1;
            if (chdir(dir[0] ? dir : "/") != 0) _exit(126);
        }
        execl(self, self, base, (char *)NULL);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
    int open_fds = 2;
    time_t start = time(NULL);
    char buf[65536];
    while (open_fds > 0) {
        int r = poll(fds, 2, 1000);
        if (r < 0 && errno != EINTR) break;
        if (time(NULL) - start > TEST_TIMEOUT_SEC) {
            kill(pid, SIGKILL);
            sb_append(err, "\n[tl --test: killed after timeout]\n", 35);
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t got = read(fds[i].fd, buf, sizeof buf);
            if (got <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            } else {
                sb_append(i == 0 ? out : err, buf, (size_t)got);
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0) close(fds[i].fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (!out->data) sb_append(out, "", 0);
    if (!err->data) sb_append(err, "", 0);
    return status;
}

/* Splits text at newlines into (pointer, length) pairs; -1 when out of memory. */
static int split_lines(const char *text, size_t len, const char ***lines, size_t **lens)
{
    int n = 0, cap = 64;
    *lines = malloc(sizeof(char *) * (size_t)cap);
    *lens = malloc(sizeof(size_t) * (size_t)cap);
    size_t i = 0;
    while (*lines && *lens && i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t l = nl ? (size_t)(nl - (text + i)) : len - i;
        if (n == cap) {
            if (cap > INT_MAX / 2) break;
            cap *= 2;
            const char **nlines = realloc(*lines, sizeof(char *) * (size_t)cap);
            if (nlines) *lines = nlines;
            size_t *nlens = nlines ? realloc(*lens, sizeof(size_t) * (size_t)cap) : NULL;
            if (nlens) *lens = nlens;
            if (!nlines || !nlens) break;
        }
        (*lines)[n] = text + i;
        (*lens)[n] = l;
        n++;
        i += l + 1;
    }
    if (*lines && *lens && i >= len) return n;
    free(*lines);
    free(*lens);
    *lines = NULL;
    *lens = NULL;
    return -1;
}

static bool line_eq(const char *a, size_t al, const char *b, size_t bl) { return al == bl && memcmp(a, b, al) == 0; }

/* Prints a unified diff of expected (a) against actual (b), via an LCS table (small) or whole-file hunks (large). */
static void print_diff(const char *name_a, const char *a, size_t alen, const char *name_b, const char *b, size_t blen)
{
    const char **la, **lb;
    size_t *na, *nb;
    int n = split_lines(a, alen, &la, &na), m = split_lines(b, blen, &lb, &nb);
    printf("--- %s\n+++ %s\n", name_a, name_b);
    /* ops: 0 same, 1 delete (from a), 2 insert (from b) */
    int nops = 0;
    size_t nmax = n >= 0 && m >= 0 ? (size_t)n + (size_t)m + 1 : 0;
    int *ops = malloc(sizeof(int) * nmax), *ia = malloc(sizeof(int) * nmax), *ib = malloc(sizeof(int) * nmax);
    int *L = nmax && (int64_t)(n + 1) * (m + 1) <= 4000000 ? calloc((size_t)(n + 1) * (size_t)(m + 1), sizeof(int))
                                                         : NULL;
    if (!nmax || !ops || !ia || !ib) {
        printf("(out of memory: no diff)\n");
        n = m = 0;   /* falls through to the frees */
    } else if (L) {
        for (int i = n - 1; i >= 0; i--)
            for (int j = m - 1; j >= 0; j--)
                L[i * (m + 1) + j] = line_eq(la[i], na[i], lb[j], nb[j]) ? L[(i + 1) * (m + 1) + j + 1] + 1
                                   : (L[(i + 1) * (m + 1) + j] >= L[i * (m + 1) + j + 1] ? L[(i + 1) * (m + 1) + j]
                                                                                       : L[i * (m + 1) + j + 1]);
        int i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && line_eq(la[i], na[i], lb[j], nb[j])) { ops[nops] = 0; ia[nops] = i++; ib[nops++] = j++; }
            else if (i < n && (j == m || L[(i + 1) * (m + 1) + j] >= L[i * (m + 1) + j + 1])) { ops[nops] = 1; ia[nops] = i++; ib[nops++] = j; }
            else { ops[nops] = 2; ia[nops] = i; ib[nops++] = j++; }
        }
    } else {   /* too big for the LCS table (or no memory for it): one hunk */
        for (int i = 0; i < n; i++) { ops[nops] = 1; ia[nops] = i; ib[nops++] = 0; }
        for (int j = 0; j < m; j++) { ops[nops] = 2; ia[nops] = n; ib[nops++] = j; }
    }
    for (int k = 0; k < nops;) {
        if (ops[k] == 0) { k++; continue; }
        int s = k - DIFF_CONTEXT < 0 ? 0 : k - DIFF_CONTEXT;
        while (s < k && ops[s] != 0) s++;
        int e = k;
        for (;;) {   /* extend the hunk while changes are within 2*context of each other */
            while (e < nops && ops[e] != 0) e++;
            int gap = e;
            while (gap < nops && ops[gap] == 0 && gap - e < 2 * DIFF_CONTEXT) gap++;
            if (gap < nops && ops[gap] != 0) e = gap;
            else break;
        }
        int stop = e + DIFF_CONTEXT < nops ? e + DIFF_CONTEXT : nops;
        int acount = 0, bcount = 0;
        for (int q = s; q < stop; q++) { if (ops[q] != 2) acount++; if (ops[q] != 1) bcount++; }
        printf("@@ -%d,%d +%d,%d @@\n", ia[s] + (acount ? 1 : 0), acount, ib[s] + (bcount ? 1 : 0), bcount);
        for (int q = s; q < stop; q++) {
            if (ops[q] == 0) printf(" %.*s\n", (int)na[ia[q]], la[ia[q]]);
            else if (ops[q] == 1) printf("-%.*s\n", (int)na[ia[q]], la[ia[q]]);
            else printf("+%.*s\n", (int)nb[ib[q]], lb[ib[q]]);
        }
        k = stop;
    }
    bool a_nl = alen == 0 || a[alen - 1] == '\n', b_nl = blen == 0 || b[blen - 1] == '\n';
    if (a_nl != b_nl) printf("\\ (the files differ in their final newline)\n");
    free(L); free(ops); free(ia); free(ib);
    free(la); free(lb); free(na); free(nb);
}

/* Swaps the .tl suffix for another. */
static char *sibling(const char *script, const char *suffix)
{
    size_t n = strlen(script) - 3;
    char *p = malloc(n + strlen(suffix) + 1);
    if (!p) return NULL;
    memcpy(p, script, n);
    strcpy(p + n, suffix);
    return p;
}

/* Compares one stream with its expected file; prints a diff on mismatch. */
static bool check_stream(const char *expected_path, const StrBuf *actual, bool must_exist, bool report)
{
    size_t elen = 0;
    char *exp = read_file(expected_path, &elen);
    if (!exp) {
        if (!must_exist && actual->len == 0) return true;
        if (must_exist && report) printf("missing %s\n", expected_path);
        exp = strdup("");
        elen = 0;
    }
    bool same = elen == actual->len && memcmp(exp, actual->data, elen) == 0;
    if (!same && report) print_diff(expected_path, exp, elen, "actual", actual->data, actual->len);
    free(exp);
    return same;
}

int golden_main(const char *self, int npaths, char **paths, bool update)
{
    PathList files = { 0 };
    for (int i = 0; i < npaths; i++) collect(paths[i], &files);
    if (files.n == 0) {   /* a mistyped path is a usage error, not an empty pass */
        fprintf(stderr, "tl --test: no tests found\n");
        return 2;
    }
    qsort(files.v, (size_t)files.n, sizeof(char *), cmp_str);
    int passed = 0, failed = 0;
    for (int i = 0; i < files.n; i++) {
        const char *script = files.v[i];
        StrBuf out = { 0 }, err = { 0 };
        int status = run_child(self, script, &out, &err);
        char *out_path = sibling(script, ".out"), *err_path = sibling(script, ".err");
        bool crashed = status < 0 || WIFSIGNALED(status);
        if (!out_path || !err_path) {
            printf("FAIL %s: out of memory\n", script);
            failed++;
        } else if (update && !crashed) {
            write_file(out_path, out.data, out.len);
            if (err.len) write_file(err_path, err.data, err.len);
            else unlink(err_path);
            passed++;
        } else {
            bool ok = !crashed;
            if (crashed) printf("FAIL %s: crashed (signal %d)\n", script, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
            if (ok) {
                bool o = check_stream(out_path, &out, true, false);
                bool e = check_stream(err_path, &err, false, false);
                ok = o && e;
                if (!ok) {
                    printf("FAIL %s\n", script);
                    if (!o) check_stream(out_path, &out, true, true);
                    if (!e) check_stream(err_path, &err, false, true);
                }
            }
            if (ok) passed++;
            else failed++;
        }
        free(out_path);
        free(err_path);
        sb_free(&out);
        sb_free(&err);
        free(files.v[i]);
    }
    free(files.v);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

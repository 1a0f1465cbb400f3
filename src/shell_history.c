/* shell_history.c — the history file: one entry per line, newlines inside an entry escaped */
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shell_int.h"

char *history_path(void)
{
    const char *env = getenv("TL_HISTORY");
    if (env) return *env ? strdup(env) : NULL;   /* TL_HISTORY= (empty) turns history off */
    const char *home = getenv("HOME");
    if (!home || !*home) {
        struct passwd *pw = getpwuid(getuid());
        home = pw ? pw->pw_dir : NULL;
    }
    if (!home) return NULL;
    size_t n = strlen(home) + sizeof "/.tl_history";
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/.tl_history", home);
    return p;
}

/* Writes entry as one line: "\\" for a backslash, "\n" for a newline. */
static void write_escaped(FILE *f, const char *entry)
{
    for (const char *s = entry; *s; s++) {
        if (*s == '\\') fputs("\\\\", f);
        else if (*s == '\n') fputs("\\n", f);
        else fputc(*s, f);
    }
    fputc('\n', f);
}

/* Undoes write_escaped in place (line without its newline). */
static void unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r == '\\' && r[1] == 'n') { *w++ = '\n'; r++; }
        else if (*r == '\\' && r[1] == '\\') { *w++ = '\\'; r++; }
        else *w++ = *r;
    }
    *w = 0;
}

/* Replaces the file by the given entries: written to a temporary file beside it, then renamed
   over it. Through a symlink it is the link's target that is replaced (the link stays, and
   keeps pointing at the file that gets the entries); only a regular file is replaced, and the
   new file keeps the old one's permissions. */
static void history_rewrite(const char *path, char **entries, int n)
{
    char *real = realpath(path, NULL);
    struct stat st;
    if (!real || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(real);
        return;
    }
    size_t len = strlen(real) + 24;
    char *tmp = malloc(len);
    if (!tmp) { free(real); return; }
    snprintf(tmp, len, "%s.%ld", real, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL, 0600);
    FILE *f = fd >= 0 && fchmod(fd, st.st_mode & 07777) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0) { close(fd); unlink(tmp); }
        free(tmp);
        free(real);
        return;
    }
    for (int i = 0; i < n; i++) write_escaped(f, entries[i]);
    bool ok = fflush(f) == 0 && !ferror(f);
    fclose(f);
    if (!ok || rename(tmp, real) != 0) unlink(tmp);
    free(tmp);
    free(real);
}

void history_load(const char *path, int max, void (*add)(const char *entry))
{
    FILE *f = fopen(path, "r");
    if (!f || max <= 0) {
        if (f) fclose(f);
        return;
    }
    char **ring = calloc((size_t)max, sizeof *ring);   /* the last `max` entries, circularly */
    if (!ring) { fclose(f); return; }
    long total = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, f)) >= 0) {
        if (got > 0 && line[got - 1] == '\n') line[--got] = 0;
        if (got == 0) continue;
        unescape(line);
        char *copy = strdup(line);
        if (!copy) break;
        free(ring[total % max]);
        ring[total % max] = copy;
        total++;
    }
    free(line);
    fclose(f);
    int kept = total < max ? (int)total : max;
    long first = total - kept;
    char **ordered = malloc(sizeof(char *) * (size_t)(kept ? kept : 1));
    for (int i = 0; i < kept; i++) {
        char *e = ring[(first + i) % max];
        add(e);
        if (ordered) ordered[i] = e;
    }
    if (total > max && ordered) history_rewrite(path, ordered, kept);
    free(ordered);
    for (int i = 0; i < max; i++) free(ring[i]);
    free(ring);
}

void history_append(const char *path, const char *entry)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0) return;
    FILE *f = fdopen(fd, "a");
    if (!f) { close(fd); return; }
    write_escaped(f, entry);   /* one short write with O_APPEND: concurrent sessions interleave whole lines */
    fclose(f);
}

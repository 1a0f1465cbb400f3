/* test_shell_complete.c — Tab completion contexts and the history file format, without a terminal */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shell_int.h"

static Interp *I;

static void setup(void)
{
    I = interp_new();
    cr_assert_not_null(I);
    const char *prog =
        "fn scale_by(a, k = 2) = a * k\n"
        "fn no_args() = 1\n"
        "cfg = {\"alpha\": 1, \"alpine\": 2, \"beta\": 3}\n"
        "values = [1, 2, 3]\n"
        "value_count = 3\n";
    Source *src = source_new("<test>", prog, strlen(prog));
    cr_assert(interp_run_source(I, src, false), "%s", I->err.msg);
    source_release(src);
}

static void teardown(void) { interp_free(I); }

TestSuite(complete, .init = setup, .fini = teardown);

/* Completes at the end of line; returns the candidates joined by spaces. */
static char *complete(const char *pending, const char *line, int *start, char *append)
{
    Completions c;
    cr_assert(shell_complete(I, pending, line, (int)strlen(line), &c));
    size_t n = 1;
    for (int i = 0; i < c.n; i++) n += strlen(c.items[i]) + 1;
    char *s = calloc(1, n);
    for (int i = 0; i < c.n; i++) {
        if (i) strcat(s, " ");
        strcat(s, c.items[i]);
    }
    if (start) *start = c.start;
    if (append) *append = c.append;
    completions_free(&c);
    return s;
}

static void expect(const char *pending, const char *line, const char *want, int want_start)
{
    int start;
    char *got = complete(pending, line, &start, NULL);
    cr_expect_str_eq(got, want, "completing %s", line);
    cr_expect_eq(start, want_start, "completing %s: start %d, want %d", line, start, want_start);
    free(got);
}

Test(complete, names_include_globals_builtins_and_keywords)
{
    expect("", "x = valu", "value_count values", 4);
    expect("", "whi", "while", 0);
    expect("", "print(scal", "scale_by", 6);   /* "sc" would offer the builtin scatter too */
    char *got = complete("", "pri", NULL, NULL);
    cr_expect(strstr(got, "print") != NULL && strstr(got, "printopts") != NULL, "got %s", got);
    free(got);
}

Test(complete, undefined_names_are_not_offered)
{
    /* `later` is interned by the resolver but never assigned */
    Source *src = source_new("<test>", "if false { later = 1 }", 22);
    cr_assert(interp_run_source(I, src, false));
    source_release(src);
    expect("", "late", "", 0);
}

Test(complete, keyword_gets_a_space_and_names_do_not)
{
    char append;
    free(complete("", "whil", NULL, &append));
    cr_expect_eq(append, ' ');
    free(complete("", "value_c", NULL, &append));
    cr_expect_eq(append, 0);
}

Test(complete, after_dot_offers_functions_taking_an_argument)
{
    expect("", "values.scale", "scale_by", 7);
    expect("", "values.no_", "", 7);             /* no_args() takes nothing */
    expect("", "(values + 1).scal", "scale_by", 13);
    char *got = complete("", "values.sh", NULL, NULL);
    cr_expect_str_eq(got, "shape shares_memory shuffle");   /* builtins taking an argument */
    free(got);
}

Test(complete, number_dot_is_not_a_method)
{
    expect("", "x = 1.", "", 6);
    expect("", "x = 12", "", 4);
}

Test(complete, keyword_arguments_inside_a_call)
{
    expect(NULL, "sum(values, ax", "axis=", 12);                 /* from the builtin's signature */
    expect(NULL, "x = sort(values, desc", "descending=", 17);
    expect(NULL, "scale_by(values, k", "k= keys kron", 17);     /* a function's parameters, and names */
    expect(NULL, "scale_by(k", "k= keys kron", 9);
    expect(NULL, "sum(f(1), ax", "axis=", 10);                  /* the innermost open call */
    expect(NULL, "sum(values[ax", "", 11);                       /* inside an index: no keywords */
    expect(NULL, "sum(values) + ax", "", 14);                    /* the call is closed */
    expect(NULL, "sum(values, \"(\", ax", "axis=", 17);        /* brackets in strings do not count */
    expect(NULL, "scale_by(value", "value_count values", 9);     /* names still come too */
}

Test(complete, dict_keys_after_bracket_quote)
{
    expect("", "cfg[\"al", "alpha alpine", 5);
    expect("", "cfg['b", "beta']", 5);            /* a unique key closes the string and bracket */
    expect("", "cfg[\"", "alpha alpine beta", 5);
    expect("", "nothere[\"a", "", 9);             /* not a dict: paths (none start with a) */
}

Test(complete, paths_inside_strings)
{
    char dir[] = "/tmp/tl-complete-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/data_one.npy", dir);
    fclose(fopen(path, "w"));
    snprintf(path, sizeof path, "%s/data_dir", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/.hidden", dir);
    fclose(fopen(path, "w"));

    char line[600];
    char append;
    int start;
    snprintf(line, sizeof line, "a = load(\"%s/data_", dir);
    char *got = complete("", line, &start, &append);
    char want[600];
    snprintf(want, sizeof want, "%s/data_dir/ %s/data_one.npy", dir, dir);
    cr_expect_str_eq(got, want);
    cr_expect_eq(start, 10);
    free(got);

    snprintf(line, sizeof line, "load(\"%s/data_o", dir);
    free(complete("", line, NULL, &append));
    cr_expect_eq(append, '"', "a unique file gets the closing quote");
    snprintf(line, sizeof line, "load('%s/data_d", dir);
    free(complete("", line, NULL, &append));
    cr_expect_eq(append, 0, "a folder does not");
    snprintf(line, sizeof line, "load(\"%s/", dir);
    got = complete("", line, NULL, NULL);
    cr_expect(strstr(got, ".hidden") == NULL, "hidden files only when asked for: %s", got);
    free(got);
    snprintf(line, sizeof line, "load(\"%s/.h", dir);
    got = complete("", line, NULL, NULL);
    cr_expect(strstr(got, ".hidden") != NULL, "%s", got);
    free(got);

    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    cr_expect_eq(system(path), 0);
}

Test(complete, strings_and_comments_from_earlier_lines)
{
    /* a string opened on an earlier line: the cursor is still inside it */
    cr_expect_str_eq(shell_break_chars("s = \"first", "secon", 5), "\"'");
    cr_expect_str_neq(shell_break_chars("s = \"first\"", "secon", 5), "\"'");
    /* an escaped quote does not end the string */
    cr_expect_str_eq(shell_break_chars("", "s = \"a\\\"b", 9), "\"'");
    /* inside a comment nothing is offered; a comment ends with its line */
    expect("", "x = 1  # valu", "", 0);
    expect("# a comment", "valu", "value_count values", 0);
}

Test(complete, shell_commands)
{
    expect("", ":h", "help", 1);
    expect("", ":rec", "record", 1);
    expect("", ":apr", "apropos", 1);                    /* the commands come from shell_cmd.c's table */
    expect("", ":help scale", "scale_by", 6);
    expect("", ":time values.scal", "scale_by", 13);
    char *got = complete("fn f() {", ":va", NULL, NULL);   /* not at the start of an entry: names */
    cr_expect(strstr(got, "vars") == NULL && strstr(got, "values") != NULL, "got %s", got);
    free(got);
}

Test(complete, only_blanks_before_the_cursor_indents)
{
    expect("fn f() {", "", "    ", 0);
    expect("fn f() {", "    ", "    ", 4);
    expect("", "\t", "    ", 1);
    char *got = complete("", "  x", NULL, NULL);   /* a word after the blanks completes as usual */
    cr_expect(strstr(got, "    ") == NULL, "got %s", got);
    free(got);
}

/* ---- the history file ---- */

static char *loaded[8];
static int nloaded;

static void collect(const char *entry)
{
    if (nloaded < 8) loaded[nloaded++] = strdup(entry);
}

Test(history, multi_line_entries_and_backslashes_survive_a_round_trip)
{
    char path[] = "/tmp/tl-history-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    history_append(path, "fn f(x) {\n  return x\n}");
    history_append(path, "print(\"a\\nb\")");     /* a backslash-n typed by the user */
    history_append(path, "x = 1");
    nloaded = 0;
    history_load(path, 100, collect);
    cr_assert_eq(nloaded, 3);
    cr_expect_str_eq(loaded[0], "fn f(x) {\n  return x\n}");
    cr_expect_str_eq(loaded[1], "print(\"a\\nb\")");
    cr_expect_str_eq(loaded[2], "x = 1");
    for (int i = 0; i < nloaded; i++) free(loaded[i]);

    /* over the bound, loading keeps the newest and rewrites the file */
    nloaded = 0;
    history_load(path, 2, collect);
    cr_assert_eq(nloaded, 2);
    cr_expect_str_eq(loaded[0], "print(\"a\\nb\")");
    for (int i = 0; i < nloaded; i++) free(loaded[i]);
    FILE *f = fopen(path, "r");
    char buf[256] = { 0 };
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    cr_expect_eq(got, strlen("print(\"a\\\\nb\")\nx = 1\n"));
    cr_expect_str_eq(buf, "print(\"a\\\\nb\")\nx = 1\n");
    unlink(path);
}

Test(history, path_follows_tl_history_and_home)
{
    setenv("TL_HISTORY", "/some/where", 1);
    char *p = history_path();
    cr_expect_str_eq(p, "/some/where");
    free(p);
    setenv("TL_HISTORY", "", 1);
    cr_expect_null(history_path(), "an empty TL_HISTORY turns history off");
    unsetenv("TL_HISTORY");
    setenv("HOME", "/home/someone", 1);
    p = history_path();
    cr_expect_str_eq(p, "/home/someone/.tl_history");
    free(p);
}

/* Reads a small file whole (NUL-terminated). */
static void read_small(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    size_t got = fread(buf, 1, cap - 1, f);
    buf[got] = 0;
    fclose(f);
}

Test(history, trimming_a_symlinked_file_writes_through_the_link)
{
    char dir[] = "/tmp/tl-history-dir-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char target[128], link[128], buf[256];
    snprintf(target, sizeof target, "%s/dotfiles_tl_history", dir);
    snprintf(link, sizeof link, "%s/.tl_history", dir);
    cr_assert_eq(symlink("dotfiles_tl_history", link), 0);   /* relative, as dotfile managers make them */
    history_append(link, "a = 1");
    history_append(link, "b = 2");
    history_append(link, "c = 3");
    cr_assert_eq(chmod(target, 0644), 0);
    nloaded = 0;
    history_load(link, 2, collect);   /* over the bound: rewrites the file */
    cr_assert_eq(nloaded, 2);
    for (int i = 0; i < nloaded; i++) free(loaded[i]);
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_expect(S_ISLNK(st.st_mode), "the link was replaced by a regular file");
    read_small(target, buf, sizeof buf);
    cr_expect_str_eq(buf, "b = 2\nc = 3\n", "the target holds the trimmed entries");
    cr_assert_eq(stat(target, &st), 0);
    cr_expect_eq(st.st_mode & 07777, 0644, "the target keeps its mode: %o", (unsigned)(st.st_mode & 07777));
    history_append(link, "d = 4");   /* later entries still reach the target */
    read_small(target, buf, sizeof buf);
    cr_expect_str_eq(buf, "b = 2\nc = 3\nd = 4\n");
    unlink(link);
    unlink(target);
    rmdir(dir);
}

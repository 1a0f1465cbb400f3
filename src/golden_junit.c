/* golden_junit.c — tl --test --junit FILE: the JUnit XML report CI systems read */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "golden_int.h"
#include "utf8.h"

/* Length of the character at s (1 for a byte that starts no UTF-8 character); *allowed tells
   whether XML 1.0 may hold it (its Char production: tab, newline, return, U+0020-U+D7FF,
   U+E000-U+FFFD, U+10000-U+10FFFF; DEL is left out too). */
static size_t xml_char(const unsigned char *s, size_t n, bool *allowed)
{
    size_t k = tl_utf8_len(s, n);
    *allowed = k > 0;
    if (k == 1 && (s[0] < 0x20 || s[0] == 0x7F)) *allowed = s[0] == '\n' || s[0] == '\t' || s[0] == '\r';
    if (k == 3 && s[0] == 0xEF && s[1] == 0xBF && s[2] >= 0xBE) *allowed = false;   /* U+FFFE, U+FFFF */
    return k ? k : 1;
}

/* Writes text escaped for XML; each character XML 1.0 cannot hold (controls, U+FFFE, U+FFFF)
   and each byte of invalid UTF-8 becomes '?'. */
static void xml_text(FILE *f, const char *s, size_t n, bool attribute)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0, k; i < n; i += k) {
        unsigned char c = u[i];
        bool allowed;
        k = xml_char(u + i, n - i, &allowed);
        if (c == '&') fputs("&amp;", f);
        else if (c == '<') fputs("&lt;", f);
        else if (c == '>') fputs("&gt;", f);
        else if (c == '"' && attribute) fputs("&quot;", f);
        else if ((c == '\n' || c == '\t' || c == '\r') && attribute) fprintf(f, "&#%d;", c);
        else if (allowed) fwrite(u + i, 1, k, f);
        else fputc('?', f);
    }
}

static void xml_attr(FILE *f, const char *name, const char *value)
{
    fprintf(f, " %s=\"", name);
    xml_text(f, value, strlen(value), true);
    fputc('"', f);
}

/* The element and type a failed test is reported with. */
static const char *failure_type(const Test *t)
{
    if (t->verdict == VERDICT_FAIL) return "output mismatch";
    if (t->timed_out) return "timeout";
    if (t->status >= 0 && WIFSIGNALED(t->status)) return "crash";
    return "error";
}

bool junit_write(FILE *f, const Test *tests, int n, double seconds)
{
    int failures = 0, errors = 0;
    for (int i = 0; i < n; i++) {
        failures += tests[i].verdict == VERDICT_FAIL;
        errors += tests[i].verdict == VERDICT_ERROR;
    }
    char host[256] = "localhost", stamp[32] = "1970-01-01T00:00:00";
    if (gethostname(host, sizeof host) != 0) strcpy(host, "localhost");
    host[sizeof host - 1] = 0;
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"tl --test\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\" time=\"%.3f\">\n",
            n, failures, errors, seconds);
    fprintf(f, "  <testsuite name=\"tl --test\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\" time=\"%.3f\"",
            n, failures, errors, seconds);
    xml_attr(f, "timestamp", stamp);
    xml_attr(f, "hostname", host);
    fputs(">\n", f);
    for (int i = 0; i < n; i++) {
        const Test *t = &tests[i];
        const char *slash = strrchr(t->path, '/');
        char classname[4096];   /* the folder as a dotted name, as JUnit's package.Class */
        snprintf(classname, sizeof classname, "%.*s", slash ? (int)(slash - t->path) : 0, t->path);
        for (char *c = classname; *c; c++)
            if (*c == '/') *c = '.';
        fputs("    <testcase", f);
        xml_attr(f, "classname", classname[0] ? classname : "tl");
        xml_attr(f, "name", slash ? slash + 1 : t->path);
        xml_attr(f, "file", t->path);
        fprintf(f, " time=\"%.3f\"", t->seconds);
        if (t->verdict == VERDICT_PASS) { fputs("/>\n", f); continue; }
        fprintf(f, ">\n      <%s", t->verdict == VERDICT_FAIL ? "failure" : "error");
        xml_attr(f, "message", t->message);
        xml_attr(f, "type", failure_type(t));
        fputc('>', f);
        xml_text(f, t->report.data ? t->report.data : "", t->report.len, false);
        fprintf(f, "</%s>\n    </testcase>\n", t->verdict == VERDICT_FAIL ? "failure" : "error");
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    bool ok = !ferror(f);
    return fclose(f) == 0 && ok;
}

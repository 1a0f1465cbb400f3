/* golden_junit.c — tl --test --junit FILE: the JUnit XML report CI systems read */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "golden_int.h"
#include "utf8.h"

/* Writes text escaped for XML; bytes XML 1.0 cannot hold (controls, invalid UTF-8) become '?'. */
static void xml_text(FILE *f, const char *s, size_t n, bool attribute)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        size_t k = tl_utf8_len(u + i, n - i);
        if (c == '&') fputs("&amp;", f);
        else if (c == '<') fputs("&lt;", f);
        else if (c == '>') fputs("&gt;", f);
        else if (c == '"' && attribute) fputs("&quot;", f);
        else if ((c == '\n' || c == '\t' || c == '\r') && attribute) fprintf(f, "&#%d;", c);
        else if (c == '\n' || c == '\t' || c == '\r' || (c >= 0x20 && c != 0x7F && k)) {
            fwrite(u + i, 1, k ? k : 1, f);
            i += k ? k : 1;
            continue;
        } else fputc('?', f);
        i++;
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

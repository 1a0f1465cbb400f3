/* golden_units.c — tl --test's reading of output: statement, dtype and file markers into units */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_int.h"

void units_free(Units *u)
{
    for (int k = 0; k < u->n; k++) {   /* (a split that ran out of memory may lack any of them) */
        if (u->out) sb_free(&u->out[k]);
        if (u->err) sb_free(&u->err[k]);
        if (u->out_dt) sb_free(&u->out_dt[k]);
    }
    free(u->out_dt);
    sb_free(&u->all_out_dt);
    free(u->line);
    free(u->out);
    free(u->err);
    free(u->out_at);
    free(u->err_at);
    sb_free(&u->all_out);
    sb_free(&u->all_err);
    *u = (Units){ 0 };
}

/* Reads a marker "\x1eWORD ...\x1f" at s; returns its length (0 if s holds none) and where its numbers start. */
static size_t marker_at(const char *s, size_t n, const char *word, const char **args, size_t *nargs)
{
    size_t w = strlen(word);
    if (n < w + 2 || s[0] != MARK_OPEN || memcmp(s + 1, word, w) != 0) return 0;
    const char *close = memchr(s + 1 + w, MARK_CLOSE, n - 1 - w);
    if (!close) return 0;
    *args = s + 1 + w;
    *nargs = (size_t)(close - *args);
    return (size_t)(close - s) + 1;
}

/* The line number spelled by s[0..n): digits only, 1 to INT_MAX - 1 (so line + 1 is an int);
   0 when s spells none (markers are also bytes a test may print). */
static int line_number(const char *s, size_t n)
{
    if (n == 0 || n > 10) return 0;
    long long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i])) return 0;
        v = v * 10 + (s[i] - '0');
    }
    return v < INT_MAX ? (int)v : 0;
}

/* Adds the distinct lines listed in a plan marker as units. */
static bool add_plan(Units *u, const char *args, size_t n)
{
    int cap = 1;
    for (size_t i = 0; i < n; i++) cap += args[i] == ' ';
    int *line = realloc(u->line, sizeof(int) * (size_t)cap);
    if (!line) return false;
    u->line = line;
    for (size_t i = 0; i < n;) {
        while (i < n && args[i] == ' ') i++;
        size_t start = i;
        while (i < n && args[i] != ' ') i++;
        int v = line_number(args + start, i - start);
        if (v > u->line[u->n - 1] && u->n < cap) u->line[u->n++] = v;
    }
    u->planned = true;
    return true;
}

int units_owner(const Units *u, int line)
{
    int k = 0;
    while (k + 1 < u->n && u->line[k + 1] < line) k++;
    return k;
}

int units_at(const Units *u, bool is_err, size_t at)
{
    const size_t *start = is_err ? u->err_at : u->out_at;
    int best = 0;
    for (int k = 0; k < u->n; k++)
        if (start[k] != SIZE_MAX && start[k] <= at) best = k;
    return best;
}

/* The dtype code a dtype marker names (DT_NONE for none or one the tolerance does not know). */
static char dtype_code(const char *args, size_t n)
{
    static const char *const names[] = { [DT_F16] = " f16", [DT_BF16] = " bf16", [DT_F32] = " f32", [DT_F64] = " f64" };
    for (int d = DT_F16; d <= DT_F64; d++)
        if (strlen(names[d]) == n && memcmp(names[d], args, n) == 0) return (char)d;
    return DT_NONE;
}

/* Appends n bytes of output to unit cur and to the whole stream (with their dtype, for stdout). */
static bool put_output(Units *u, bool is_err, int cur, const char *s, size_t n, char dt)
{
    if (!sb_append(is_err ? &u->err[cur] : &u->out[cur], s, n) || !sb_append(is_err ? &u->all_err : &u->all_out, s, n))
        return false;
    char fill[256];
    memset(fill, dt, sizeof fill);
    for (size_t k = 0; !is_err && k < n; k += sizeof fill) {
        size_t m = n - k < sizeof fill ? n - k : sizeof fill;
        if (!sb_append(&u->out_dt[cur], fill, m) || !sb_append(&u->all_out_dt, fill, m)) return false;
    }
    return true;
}

/* Splits one stream at its statement markers into the units' buffers. */
static bool split_stream(Units *u, bool is_err, const char *s, size_t n)
{
    StrBuf *all = is_err ? &u->all_err : &u->all_out;
    size_t *start = is_err ? u->err_at : u->out_at;
    int cur = 0;
    char dt = DT_NONE;
    start[0] = 0;
    size_t i = 0;
    while (i < n) {
        const char *open = memchr(s + i, MARK_OPEN, n - i);
        size_t stop = open ? (size_t)(open - s) : n;
        if (!put_output(u, is_err, cur, s + i, stop - i, dt)) return false;
        i = stop;
        if (i >= n) break;
        const char *args;
        size_t nargs, m;
        int line = 0;
        if (!is_err && (m = marker_at(s + i, n - i, MARK_PLAN, &args, &nargs))) {
            i += m;   /* read before the split (units_split) */
        } else if ((m = marker_at(s + i, n - i, MARK_STMT, &args, &nargs)) && nargs && args[0] == ' ' &&
                   (line = line_number(args + 1, nargs - 1)) > 0) {
            cur = units_owner(u, line + 1);
            if (start[cur] == SIZE_MAX) start[cur] = all->len;
            i += m;
        } else if (!is_err && (m = marker_at(s + i, n - i, MARK_DTYPE, &args, &nargs))) {
            dt = dtype_code(args, nargs);
            i += m;
        } else if (!is_err && (m = marker_at(s + i, n - i, MARK_WROTE, &args, &nargs))) {
            u->wrote++;
            i += m;
        } else {   /* a stray separator byte (or a marker with no line number) is output like any other */
            if (!put_output(u, is_err, cur, s + i, 1, dt)) return false;
            i++;
        }
    }
    return true;
}

bool units_split(Units *u, const char *out, size_t outlen, const char *err, size_t errlen)
{
    *u = (Units){ 0 };
    if (!out) out = "";   /* a stream that stayed empty has no buffer */
    if (!err) err = "";
    u->line = calloc(1, sizeof(int));
    if (!u->line) return false;
    u->n = 1;
    const char *plan = memchr(out, MARK_OPEN, outlen);
    const char *args;
    size_t nargs;
    if (plan && marker_at(plan, outlen - (size_t)(plan - out), MARK_PLAN, &args, &nargs) && !add_plan(u, args, nargs))
        return false;
    u->out = calloc((size_t)u->n, sizeof(StrBuf));
    u->err = calloc((size_t)u->n, sizeof(StrBuf));
    u->out_dt = calloc((size_t)u->n, sizeof(StrBuf));
    u->out_at = malloc(sizeof(size_t) * (size_t)u->n);
    u->err_at = malloc(sizeof(size_t) * (size_t)u->n);
    if (!u->out || !u->err || !u->out_dt || !u->out_at || !u->err_at) return false;
    for (int k = 0; k < u->n; k++) {
        u->out_at[k] = u->err_at[k] = SIZE_MAX;
        if (!sb_append(&u->out[k], "", 0) || !sb_append(&u->err[k], "", 0) || !sb_append(&u->out_dt[k], "", 0))
            return false;
    }
    if (!split_stream(u, false, out, outlen) || !split_stream(u, true, err, errlen)) return false;
    return sb_append(&u->all_out, "", 0) && sb_append(&u->all_err, "", 0) && sb_append(&u->all_out_dt, "", 0);
}

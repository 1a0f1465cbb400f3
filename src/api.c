/* api.c — the parts of the builtin API (tlapi.h) that are not the evaluator's or interp.c's own */
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "stmt_marks.h"
#include "interp.h"

/* include() of a file that includes itself stops here rather than at the C stack's end. */
#define MAX_FILE_NESTING 64

FILE *interp_out(Interp *I) { return I->out; }

bool interp_shows_images(Interp *I) { return I->display && I->display->png; }

bool interp_show_png(Interp *I, const void *png, size_t n, int width, int height)
{
    if (interp_shows_images(I)) return I->display->png(I->display->ctx, png, n, width, height);
    tl_seterr(ValueError, "pictures are shown as images only in a notebook");
    return false;
}

const char *interp_script_path(Interp *I) { return I->script_path; }

bool interp_test_updating(Interp *I) { return I->test_update; }

void interp_note_written(Interp *I, const char *path)
{
    if (!I->mark_statements) return;
    const char *base = strrchr(path, '/');
    fprintf(I->out, "%c%s %s%c", MARK_OPEN, MARK_WROTE, base ? base + 1 : path, MARK_CLOSE);
}

int interp_print(Interp *I, Value v) { return val_write_file(v, I->out, false, I->mark_statements); }

bool interp_run_file(Interp *I, const char *path, Span at)
{
    if (I->include_depth >= MAX_FILE_NESTING)
        return interp_error(I, at, RecursionError, "include() nested too deeply (a file includes itself?)");
    const char *dir = at.src && at.src->dir && path[0] != '/' ? at.src->dir : "";
    size_t n = strlen(dir) + strlen(path) + 1;
    char *full = malloc(n);
    if (!full) return interp_error(I, at, MemoryError, "out of memory");
    snprintf(full, n, "%s%s", dir, path);
    char err[512];
    Source *src = source_from_file(full, err, sizeof err);
    free(full);
    if (!src) return interp_error(I, at, FileError, "include(): %s", err);
    I->include_depth++;
    bool ok = interp_run_source(I, src, I->echo_enabled);
    I->include_depth--;
    source_release(src);
    if (!ok) diag_add_trace(&I->err, at);
    return ok;
}

bool interp_describe_function(Value fn, StrBuf *b)
{
    if (fn.kind != V_FUNC) return false;
    const FnDef *d = fn.as.fn->def;
    bool ok = sb_printf(b, "%s(", d->name);
    for (int k = 0; ok && k < fndef_written_count(d); k++) {
        const char *stars;
        int i = fndef_written_param(d, k, &stars);
        ok = sb_printf(b, "%s%s%s%s", k ? ", " : "", stars, i < 0 ? "" : d->params[i], i >= 0 && d->defaults[i] ? "=..." : "");
    }
    return ok && sb_printf(b, "): a function defined in %s:%d", d->at.src ? d->at.src->name : "?", d->at.line);
}

bool interp_result_dtype(Interp *I, tl_binop op, Value a, Value b, Span at, tl_dtype *dt)
{
    return arith_result_dtype(I, op, a, b, at, dt);
}

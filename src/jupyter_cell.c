/* jupyter_cell.c — execute_request: a cell runs as shell statements; values, pictures and errors become messages */
#include <stdlib.h>
#include <string.h>

#include "jupyter_int.h"
#include "shell_int.h"

/* ---- values and pictures ------------------------------------------------------- */

/* The MIME bundle of a value: {"text/plain": the echo, "text/html": the tensor view}. */
static bool mime_bundle(Interp *I, Value v, StrBuf *b)
{
    char *text = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&text, &n);
    if (!mem) {
        tl_seterr(MemoryError, "out of memory");
        return false;
    }
    bool ok = interp_echo(I, v, mem);
    ok = fclose(mem) == 0 && ok;
    if (ok && n && text[n - 1] == '\n') n--;
    ok = ok && jj_lit(b, "{\"text/plain\":") && jj_str(b, text, n);
    free(text);
    if (ok && v.kind == V_TENSOR) {
        StrBuf html = { 0 };
        ok = jhtml_tensor(&html, v.as.t) && jj_lit(b, ",\"text/html\":") && jj_str(b, html.data, html.len);
        sb_free(&html);
    }
    return ok && jj_lit(b, "}");
}

/* The value of an expression statement: an execute_result (after the output printed before it),
   or, while user expressions are evaluated, their result. */
static bool show_value(void *ctx, Interp *I, Value v)
{
    Kernel *K = ctx;
    if (K->expression) {
        K->expression->len = 0;
        return mime_bundle(I, v, K->expression);
    }
    jio_capture_sync(K);
    StrBuf c = { 0 };
    bool ok = sb_printf(&c, "{\"execution_count\":%d,\"data\":", K->execution_count) && mime_bundle(I, v, &c) &&
              jj_lit(&c, ",\"metadata\":{}}");
    if (ok) jk_publish(K, "execute_result", &c);
    sb_free(&c);
    return ok;
}

/* A picture drawn without to=: display_data with the PNG inline. */
static bool show_png(void *ctx, const void *png, size_t n, int width, int height)
{
    Kernel *K = ctx;
    jio_capture_sync(K);
    StrBuf c = { 0 };
    bool ok = jj_lit(&c, "{\"data\":{\"image/png\":") && jj_base64(&c, png, n) &&
              sb_printf(&c, ",\"text/plain\":\"<picture, %dx%d>\"},\"metadata\":{\"image/png\":{\"width\":%d,\"height\":%d}},"
                            "\"transient\":{}}", width, height, width, height);
    if (ok) jk_publish(K, "display_data", &c);
    sb_free(&c);
    return ok;
}

void jcell_install_display(Kernel *K)
{
    static InterpDisplay display;
    display = (InterpDisplay){ K, show_value, show_png };
    K->I->display = &display;
}

/* ---- errors -------------------------------------------------------------------- */

/* "ename", "evalue" and "traceback" (the error as the shell prints it, line by line) of I->err. */
static bool error_fields(Interp *I, StrBuf *b)
{
    char *text = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&text, &n);
    if (!mem) return false;
    diag_print(mem, &I->err);
    bool ok = fclose(mem) == 0 && jj_key(b, "ename") && jj_cstr(b, tl_errkind_name(I->err.kind)) && jj_key(b, "evalue") &&
              jj_cstr(b, I->err.msg) && jj_key(b, "traceback") && jj_lit(b, "[");
    for (size_t i = 0; ok && i < n;) {
        const char *nl = memchr(text + i, '\n', n - i);
        size_t len = (size_t)((nl ? nl : text + n) - (text + i));
        ok = (i == 0 || jj_lit(b, ",")) && jj_str(b, text + i, len);
        i += len + 1;
    }
    free(text);
    return ok && jj_lit(b, "]");
}

/* Publishes the error of a cell that failed. */
static void publish_error(Kernel *K)
{
    StrBuf c = { 0 };
    if (jj_lit(&c, "{") && error_fields(K->I, &c) && jj_lit(&c, "}")) jk_publish(K, "error", &c);
    sb_free(&c);
}

/* ---- user expressions ------------------------------------------------------------ */

/* Evaluates one user expression into {"status": ..., "data": ..., "metadata": {}} or an error. */
static bool user_expression(Kernel *K, const json *expr, StrBuf *b)
{
    Interp *I = K->I;
    Source *src = expr->kind == JSON_STR ? source_new("<user expression>", expr->s, expr->len) : NULL;
    StrBuf bundle = { 0 };
    K->expression = &bundle;
    bool ran = src && interp_run_source(I, src, true);
    K->expression = NULL;
    bool ok;
    if (ran) {
        ok = jj_lit(b, "{\"status\":\"ok\",\"data\":") &&
             (bundle.len ? sb_append(b, bundle.data, bundle.len) : jj_lit(b, "{\"text/plain\":\"none\"}")) &&
             jj_lit(b, ",\"metadata\":{}}");
    } else {
        if (!src) diag_set(&I->err, (Span){ 0 }, TL_E_TypeError, "a user expression must be a string");
        ok = jj_lit(b, "{\"status\":\"error\"") && error_fields(I, b) && jj_lit(b, "}");
    }
    source_release(src);
    sb_free(&bundle);
    return ok;
}

/* "user_expressions": {name: result} for the request's user_expressions. */
static bool user_expressions(Kernel *K, StrBuf *b)
{
    const json *ue = jw_member(&K->request->content, "user_expressions");
    bool ok = jj_key(b, "user_expressions") && jj_lit(b, "{");
    for (int64_t i = 0; ok && ue && ue->kind == JSON_OBJ && i < ue->n; i++)
        ok = jj_key(b, ue->keys[i]) && user_expression(K, &ue->items[i], b);
    return ok && jj_lit(b, "}");
}

/* ---- running a cell ------------------------------------------------------------- */

/* A cell of one line starting with ':' is a shell command (:time, :vars, :help, :explain). */
static bool is_command(const char *code, size_t len)
{
    size_t i = 0;
    while (i < len && (code[i] == ' ' || code[i] == '\t' || code[i] == '\n')) i++;
    if (i == len || code[i] != ':') return false;
    const char *nl = memchr(code + i, '\n', len - i);
    for (size_t j = nl ? (size_t)(nl - code) : len; j < len; j++)
        if (code[j] != ' ' && code[j] != '\t' && code[j] != '\n') return false;
    return true;
}

/* Runs the cell's code; false with the error in I->err. */
static bool run_code(Kernel *K, const char *code, size_t len, bool silent)
{
    Interp *I = K->I;
    char name[48];
    snprintf(name, sizeof name, "<cell %d>", K->execution_count);
    if (is_command(code, len)) {
        while (len && (code[len - 1] == ' ' || code[len - 1] == '\t' || code[len - 1] == '\n')) len--;
        char *line = strndup(code, len);
        if (line) shell_command(I, line);   /* it prints its own output and errors */
        free(line);
        return line || interp_error(I, (Span){ 0 }, MemoryError, "out of memory");
    }
    Source *src = source_new(name, code, len);
    if (!src) return interp_error(I, (Span){ 0 }, MemoryError, "out of memory");
    bool ok = shell_exec(I, src, !silent);
    source_release(src);
    return ok;
}

bool jcell_execute(Kernel *K, void *sock)
{
    Interp *I = K->I;
    const json *content = &K->request->content, *jcode = jw_member(content, "code");
    const char *code = jcode && jcode->kind == JSON_STR ? jcode->s : "";
    size_t len = jcode && jcode->kind == JSON_STR ? jcode->len : 0;
    bool silent = jw_bool(content, "silent", false), store = !silent && jw_bool(content, "store_history", true);
    if (store) K->execution_count++;
    StrBuf c = { 0 };
    if (!silent && jj_lit(&c, "{") && jj_key(&c, "code") && jj_str(&c, code, len) &&
        sb_printf(&c, ",\"execution_count\":%d}", K->execution_count))
        jk_publish(K, "execute_input", &c);
    c.len = 0;
    tl_interrupt_flag = 0;   /* a Ctrl-C that came while the kernel waited stops nothing */
    bool ok = run_code(K, code, len, silent);
    tl_interrupt_flag = 0;
    if (!ok && jw_bool(content, "stop_on_error", true)) jk_hold_waiting(K);
    jio_capture_sync(K);
    if (!ok) publish_error(K);
    bool built = sb_printf(&c, "{\"status\":\"%s\",\"execution_count\":%d", ok ? "ok" : "error", K->execution_count) &&
                 (ok ? jj_lit(&c, ",\"payload\":[]") && user_expressions(K, &c) : error_fields(I, &c)) &&
                 jj_lit(&c, "}");
    jio_capture_sync(K);   /* what user expressions printed */
    if (built) jk_reply(K, sock, "execute_reply", &c);
    sb_free(&c);
    return ok;
}

void jcell_abort(Kernel *K, void *sock)
{
    StrBuf c = { 0 };
    if (sb_printf(&c, "{\"status\":\"aborted\",\"execution_count\":%d}", K->execution_count)) jk_reply(K, sock, "execute_reply", &c);
    sb_free(&c);
}

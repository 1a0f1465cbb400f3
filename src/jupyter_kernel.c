/* jupyter_kernel.c — the kernel: its sockets, the request loop, and every request but execute */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jupyter_int.h"
#include "shell_int.h"
#include "utf8.h"

/* The most bytes one incoming message may have: the kernel reads code and small requests. */
#define MAX_MESSAGE_BYTES ((int64_t)64 << 20)
/* How long closing a socket may wait to deliver what it still holds (the last replies). */
#define LINGER_MS 1000

/* ---- publishing and replying --------------------------------------------- */

bool jk_publish_locked(Kernel *K, const char *type, const char *content, size_t n)
{
    char *topic = (char *)type;
    size_t tlen = strlen(type);
    const char *parent = K->parent ? K->parent : "{}";
    size_t plen = K->parent ? K->parentlen : 2;
    return jw_send(K->iopub, &K->signer, K->session, &topic, &tlen, 1, type, parent, plen, content, n);
}

bool jk_publish(Kernel *K, const char *type, const StrBuf *content)
{
    pthread_mutex_lock(&K->iopub_lock);
    bool ok = jk_publish_locked(K, type, content->data ? content->data : "{}", content->data ? content->len : 2);
    pthread_mutex_unlock(&K->iopub_lock);
    return ok;
}

bool jk_reply(Kernel *K, void *sock, const char *type, const StrBuf *content)
{
    const JMsg *m = K->request;
    return jw_send(sock, &K->signer, K->session, m->ids, m->idlens, m->nids, type, m->part[PART_HEADER],
                   m->partlen[PART_HEADER], content->data ? content->data : "{}", content->data ? content->len : 2);
}

/* Publishes status busy or idle. */
static void publish_status(Kernel *K, const char *state)
{
    StrBuf c = { 0 };
    if (sb_printf(&c, "{\"execution_state\":\"%s\"}", state)) jk_publish(K, "status", &c);
    sb_free(&c);
}

/* Replies with content made from a fixed text. */
static void reply_text(Kernel *K, void *sock, const char *type, const char *content)
{
    StrBuf c = { 0 };
    if (sb_append(&c, content, strlen(content))) jk_reply(K, sock, type, &c);
    sb_free(&c);
}

/* ---- kernel_info, comm_info, history, shutdown, interrupt ----------------- */

static const char *tl_version = "";

/* kernel_info: the protocol, the implementation and the language. */
static void on_kernel_info(Kernel *K, void *sock)
{
    StrBuf c = { 0 };
    bool ok = sb_printf(&c,
                        "{\"status\":\"ok\",\"protocol_version\":\"5.3\",\"implementation\":\"tl\","
                        "\"implementation_version\":\"%s\",\"language_info\":{\"name\":\"tl\",\"version\":\"%s\","
                        "\"mimetype\":\"text/x-tl\",\"file_extension\":\".tl\"},\"banner\":\"tl %s: help() lists the "
                        "builtins, help(NAME) describes one; Tab completes, Shift-Tab shows help\",\"help_links\":[]}",
                        tl_version, tl_version, tl_version);
    if (ok) jk_reply(K, sock, "kernel_info_reply", &c);
    sb_free(&c);
}

/* comm_info: tl opens no comms. */
static void on_comm_info(Kernel *K, void *sock) { reply_text(K, sock, "comm_info_reply", "{\"status\":\"ok\",\"comms\":{}}"); }

/* tl keeps no history a notebook could ask for: an empty list. */
static void on_history(Kernel *K, void *sock) { reply_text(K, sock, "history_reply", "{\"status\":\"ok\",\"history\":[]}"); }

/* shutdown: replies, then the loop ends (Jupyter starts a new kernel for a restart). */
static void on_shutdown(Kernel *K, void *sock)
{
    bool restart = jw_bool(&K->request->content, "restart", false);
    reply_text(K, sock, "shutdown_reply", restart ? "{\"status\":\"ok\",\"restart\":true}" : "{\"status\":\"ok\",\"restart\":false}");
    K->quit = true;
}

/* interrupt_mode is signal: Jupyter sends SIGINT, which stops a running cell. A request comes
   only while no cell runs (requests are handled one at a time), so there is nothing to stop. */
static void on_interrupt(Kernel *K, void *sock) { reply_text(K, sock, "interrupt_reply", "{\"status\":\"ok\"}"); }

/* ---- complete, inspect, is_complete ------------------------------------------- */

/* The code and the cursor's byte offset in it (the protocol counts the cursor in code points). */
static const char *code_and_cursor(Kernel *K, size_t *len, size_t *cursor)
{
    const json *code = jw_member(&K->request->content, "code");
    const char *s = code && code->kind == JSON_STR ? code->s : "";
    *len = code && code->kind == JSON_STR ? code->len : 0;
    int64_t pos = jw_int(&K->request->content, "cursor_pos", (int64_t)tl_utf8_count(s, *len));
    *cursor = tl_utf8_prefix(s, *len, (size_t)pos);
    return s;
}

/* complete: the shell's Tab completion at the cursor, on the cursor's line. */
static void on_complete(Kernel *K, void *sock)
{
    size_t len, cur;
    const char *code = code_and_cursor(K, &len, &cur);
    size_t line_at = cur;
    while (line_at > 0 && code[line_at - 1] != '\n') line_at--;
    char *pending = strndup(code, line_at ? line_at - 1 : 0), *line = strndup(code + line_at, cur - line_at);
    Completions m = { 0 };
    StrBuf c = { 0 };
    bool ok = pending && line && shell_complete(K->I, pending, line, (int)(cur - line_at), &m) && jj_lit(&c, "{\"matches\":[");
    for (int i = 0; ok && i < m.n; i++) ok = (i == 0 || jj_lit(&c, ",")) && jj_cstr(&c, m.items[i]);
    size_t start = ok ? tl_utf8_count(code, line_at + (size_t)m.start) : 0;
    ok = ok && sb_printf(&c, "],\"cursor_start\":%zu,\"cursor_end\":%zu,\"metadata\":{},\"status\":\"ok\"}", start,
                         tl_utf8_count(code, cur));
    if (ok) jk_reply(K, sock, "complete_reply", &c);
    else reply_text(K, sock, "complete_reply", "{\"status\":\"error\",\"ename\":\"MemoryError\",\"evalue\":\"out of memory\",\"traceback\":[]}");
    completions_free(&m);
    sb_free(&c);
    free(pending);
    free(line);
}

/* Whether c can be part of a name. */
static bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* The name at the cursor, or else the function whose call the cursor is in (`sum(x, |`). */
static void name_at(const char *code, size_t len, size_t cur, size_t *from, size_t *to)
{
    size_t a = cur, b = cur;
    while (a > 0 && is_name_char(code[a - 1])) a--;
    while (b < len && is_name_char(code[b])) b++;
    if (a == b) {   /* not on a name: the callee of the innermost open call before the cursor */
        int depth = 0;
        for (size_t i = cur; i > 0; i--) {
            char ch = code[i - 1];
            if (ch == ')') depth++;
            else if (ch == '(' && depth > 0) depth--;
            else if (ch == '(') {
                b = a = i - 1;
                while (a > 0 && is_name_char(code[a - 1])) a--;
                break;
            }
        }
    }
    *from = a;
    *to = b;
}

/* Help for the name, as :help prints it, into text; false when there is none. */
static bool help_text(Kernel *K, const char *name, size_t n, StrBuf *text)
{
    Interp *I = K->I;
    char *buf = NULL;
    size_t blen = 0;
    FILE *mem = open_memstream(&buf, &blen);
    if (!mem) return false;
    FILE *saved = I->out;
    I->out = mem;
    bool ok = shell_help(I, name, n);
    if (!ok) {   /* not something help() knows: a variable, shown as the shell echoes it */
        char *s = strndup(name, n);
        int slot = s ? symtab_find(&I->gsyms, s) : -1;
        Value *v = slot >= 0 && slot < I->globals->nslots ? &I->globals->slots[slot] : NULL;
        ok = v && v->kind != V_UNDEF && fprintf(mem, "%s = ", s) > 0 && interp_echo(I, *v, mem);
        free(s);
    }
    I->out = saved;
    fclose(mem);
    ok = ok && blen > 0 && sb_append(text, buf, blen);
    free(buf);
    return ok;
}

/* inspect (Shift-Tab): help for the name at the cursor, or the variable's value. */
static void on_inspect(Kernel *K, void *sock)
{
    size_t len, cur, a, b;
    const char *code = code_and_cursor(K, &len, &cur);
    name_at(code, len, cur, &a, &b);
    StrBuf text = { 0 }, c = { 0 };
    bool found = a < b && !(code[a] >= '0' && code[a] <= '9') && help_text(K, code + a, b - a, &text);
    bool ok = sb_printf(&c, "{\"status\":\"ok\",\"found\":%s,\"data\":{", found ? "true" : "false");
    if (found) ok = ok && jj_lit(&c, "\"text/plain\":") && jj_str(&c, text.data, text.len);
    ok = ok && jj_lit(&c, "},\"metadata\":{}}");
    if (ok) jk_reply(K, sock, "inspect_reply", &c);
    sb_free(&text);
    sb_free(&c);
}

/* The indent a line after the code should get: the last line's, four spaces more after an opener. */
static void next_indent(const char *code, size_t len, char *out, size_t n)
{
    size_t end = len;
    while (end > 0 && (code[end - 1] == ' ' || code[end - 1] == '\t' || code[end - 1] == '\n')) end--;
    size_t start = end;
    while (start > 0 && code[start - 1] != '\n') start--;
    size_t lead = 0;
    while (start + lead < end && (code[start + lead] == ' ' || code[start + lead] == '\t')) lead++;
    bool opens = end > 0 && (code[end - 1] == '{' || code[end - 1] == '(' || code[end - 1] == '[');
    size_t k = lead + (opens ? 4 : 0);
    if (k >= n) k = n - 1;
    for (size_t i = 0; i < k; i++) out[i] = i < lead ? code[start + i] : ' ';
    out[k] = 0;
}

/* The shell's continuation rule: the code runs when it parses, waits for more when it ends inside a
   bracket, block or string, and is invalid otherwise. */
static void on_is_complete(Kernel *K, void *sock)
{
    size_t len, cur;
    const char *code = code_and_cursor(K, &len, &cur);
    Source *src = source_new("<cell>", code, len);
    ParseResult pr = { 0 };
    bool parsed = src && interp_parse(K->I, src, &pr), incomplete = !parsed && pr.incomplete;
    source_release(src);
    K->I->err.at.src = NULL;   /* a syntax error's span pointed into src */
    K->I->err.ntrace = 0;
    char indent[64] = "";
    if (!parsed && incomplete) next_indent(code, len, indent, sizeof indent);
    StrBuf c = { 0 };
    const char *status = !src ? "unknown" : parsed ? "complete" : incomplete ? "incomplete" : "invalid";
    if (sb_printf(&c, "{\"status\":\"%s\"", status) && (!incomplete || (jj_key(&c, "indent") && jj_cstr(&c, indent))) &&
        jj_lit(&c, "}"))
        jk_reply(K, sock, "is_complete_reply", &c);
    sb_free(&c);
}

/* ---- the loop --------------------------------------------------------------- */

typedef void (*Handler)(Kernel *K, void *sock);

/* execute: runs the cell, or aborts it while an earlier error stops the queue. */
static void on_execute(Kernel *K, void *sock)
{
    if (K->aborting) {
        jcell_abort(K, sock);
        return;
    }
    jcell_execute(K, sock);   /* a failure with stop_on_error holds the waiting requests, to be aborted */
}

/* Messages that need no answer: comms (tl has no comm targets) and input replies outside input. */
static void on_ignored(Kernel *K, void *sock) { (void)K, (void)sock; }

static const struct { const char *type; Handler fn; } handlers[] = {
    { "execute_request", on_execute },
    { "kernel_info_request", on_kernel_info },
    { "complete_request", on_complete },
    { "inspect_request", on_inspect },
    { "is_complete_request", on_is_complete },
    { "comm_info_request", on_comm_info },
    { "history_request", on_history },
    { "shutdown_request", on_shutdown },
    { "interrupt_request", on_interrupt },
    { "comm_open", on_ignored },
    { "comm_msg", on_ignored },
    { "comm_close", on_ignored },
    { "input_reply", on_ignored },
};

/* Handles one request: status busy, the handler, status idle. */
static void handle(Kernel *K, void *sock, JMsg *m)
{
    K->request = m;
    pthread_mutex_lock(&K->iopub_lock);
    free(K->parent);
    K->parent = malloc(m->partlen[PART_HEADER] + 1);
    if (K->parent) memcpy(K->parent, m->part[PART_HEADER], m->partlen[PART_HEADER] + 1);
    K->parentlen = K->parent ? m->partlen[PART_HEADER] : 0;
    pthread_mutex_unlock(&K->iopub_lock);
    publish_status(K, "busy");
    Handler fn = NULL;
    for (size_t i = 0; i < sizeof handlers / sizeof *handlers && !fn; i++)
        if (strcmp(handlers[i].type, m->type) == 0) fn = handlers[i].fn;
    if (fn) fn(K, sock);
    else fprintf(K->log, "tl kernel: ignored a message of unknown type %s\n", m->type);
    publish_status(K, "idle");
    K->request = NULL;
}

/* After a cell failed with stop_on_error, before anything about the failure is sent: reads every
   request already waiting on the shell socket into K->held, to be answered (execute requests
   aborted) once the cell's reply is out. Reading them first means a request the client sends after
   it saw the error, or the last "aborted" reply, is never among them: reading after the reply let
   such a request be aborted too (CI's jupyter_kernel failed on it twice). */
void jk_hold_waiting(Kernel *K)
{
    K->aborting = true;
    zmq_pollitem_t item = { K->shell, 0, ZMQ_POLLIN, 0 };
    while (jl.zmq_poll(&item, 1, 0) > 0 && (item.revents & ZMQ_POLLIN)) {
        if (K->nheld == K->held_cap) {
            int cap = K->held_cap ? 2 * K->held_cap : 16;
            JMsg *grown = realloc(K->held, (size_t)cap * sizeof *grown);
            if (!grown) return;   /* out of memory: the rest stay waiting and run */
            K->held = grown;
            K->held_cap = cap;
        }
        RecvResult r = jw_recv(K->shell, &K->signer, &K->held[K->nheld], K->log, "shell");
        if (r == RECV_NONE) return;
        K->nheld += r == RECV_OK;
    }
}

/* Answers the requests held after a failed cell (its execute requests aborted), then lets cells run. */
static void answer_held(Kernel *K)
{
    for (int i = 0; i < K->nheld; i++) {
        handle(K, K->shell, &K->held[i]);
        jw_msg_free(&K->held[i]);
    }
    K->nheld = 0;
    K->aborting = false;
}

/* Waits for a request and handles it (control first: it may ask to shut down). */
static void serve_one(Kernel *K)
{
    zmq_pollitem_t items[3] = { { K->control, 0, ZMQ_POLLIN, 0 }, { K->shell, 0, ZMQ_POLLIN, 0 }, { K->stdin_sock, 0, ZMQ_POLLIN, 0 } };
    int rc = jl.zmq_poll(items, 3, -1);
    if (rc <= 0) return;   /* EINTR: Ctrl-C while waiting (the next cell clears the flag) */
    static const char *const channels[3] = { "control", "shell", "stdin" };
    for (int i = 0; i < 3; i++) {
        if (!(items[i].revents & ZMQ_POLLIN)) continue;
        JMsg m;
        if (jw_recv(items[i].socket, &K->signer, &m, K->log, channels[i]) != RECV_OK) return;
        if (i < 2) handle(K, items[i].socket, &m);   /* stdin carries only replies to input requests */
        jw_msg_free(&m);
        answer_held(K);
        return;
    }
}

/* ---- start and stop ---------------------------------------------------------- */

/* Makes and binds one socket; NULL with the reason logged. */
static void *bind_socket(Kernel *K, int type, int port)
{
    char ep[300];
    jw_endpoint(&K->conn, port, ep, sizeof ep);
    void *s = jl.zmq_socket(K->ctx, type);
    int linger = LINGER_MS;
    int64_t max = MAX_MESSAGE_BYTES;
    if (s) jl.zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    if (s && type == ZMQ_ROUTER) jl.zmq_setsockopt(s, ZMQ_MAXMSGSIZE, &max, sizeof max);
    if (s && jl.zmq_bind(s, ep) == 0) return s;
    fprintf(K->log, "tl: the Jupyter kernel cannot listen on %s: %s\n", ep, jl.zmq_strerror(jl.zmq_errno()));
    if (s) jl.zmq_close(s);
    return NULL;
}

/* Opens the libraries and binds the five sockets; false with the reason logged. */
static bool kernel_open(Kernel *K, const char *path)
{
    char err[600];
    if (!jw_read_connection(path, &K->conn, err, sizeof err)) {
        fprintf(K->log, "tl: %s\n", err);
        return false;
    }
    if (!jw_open_libraries(K->log)) return false;
    K->signer.key = (const unsigned char *)K->conn.key;
    K->signer.keylen = K->conn.keylen;
    jw_uuid(K->session);
    if (!(K->ctx = jl.zmq_ctx_new())) {
        fprintf(K->log, "tl: the Jupyter kernel cannot start: %s\n", jl.zmq_strerror(jl.zmq_errno()));
        return false;
    }
    return (K->shell = bind_socket(K, ZMQ_ROUTER, K->conn.shell_port)) &&
           (K->control = bind_socket(K, ZMQ_ROUTER, K->conn.control_port)) &&
           (K->stdin_sock = bind_socket(K, ZMQ_ROUTER, K->conn.stdin_port)) &&
           (K->iopub = bind_socket(K, ZMQ_PUB, K->conn.iopub_port)) && (K->hb = bind_socket(K, ZMQ_ROUTER, K->conn.hb_port));
}

/* Stops the threads, closes the sockets and frees what the kernel holds. */
static void kernel_close(Kernel *K)
{
    jio_stop(K);
    void *socks[] = { K->shell, K->control, K->stdin_sock, K->iopub, K->hb };
    for (size_t i = 0; i < sizeof socks / sizeof *socks; i++)
        if (socks[i]) jl.zmq_close(socks[i]);
    if (K->ctx) jl.zmq_ctx_term(K->ctx);
    free(K->conn.key);
    free(K->signer.seen);
    free(K->parent);
    for (int i = 0; i < K->nheld; i++) jw_msg_free(&K->held[i]);
    free(K->held);
    pthread_mutex_destroy(&K->iopub_lock);
    if (K->log) fclose(K->log);
}

int jupyter_kernel_main(Interp *I, const char *connection_file, const char *version)
{
    Kernel K = { .I = I };
    tl_version = version;
    pthread_mutex_init(&K.iopub_lock, NULL);
    int logfd = dup(2);
    K.log = logfd >= 0 ? fdopen(logfd, "w") : NULL;
    if (!K.log) {
        fprintf(stderr, "tl: the Jupyter kernel cannot start: %s\n", strerror(errno));
        return 1;
    }
    setvbuf(K.log, NULL, _IOLBF, 0);
    bool ok = kernel_open(&K, connection_file) && jio_start_heartbeat(&K) && jio_capture_start(&K);
    if (ok) jcell_install_display(&K);
    while (ok && !K.quit) serve_one(&K);
    I->display = NULL;
    kernel_close(&K);
    return ok ? 0 : 1;
}

/* jupyter_wire.c — the Jupyter wire protocol: libzmq and libsodium, the connection file, signed multipart messages */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "dynlib.h"
#include "jupyter_int.h"

#ifndef TL_ZMQ_LIBRARY_DEFAULT
#define TL_ZMQ_LIBRARY_DEFAULT "libzmq.so.5"
#endif
#ifndef TL_SODIUM_LIBRARY_DEFAULT
#define TL_SODIUM_LIBRARY_DEFAULT "libsodium.so.23"
#endif

/* The protocol version this kernel speaks (kernel_info_reply says it too). */
#define PROTOCOL_VERSION "5.3"
/* Signatures remembered to refuse a replayed message. */
#define SEEN_MAX 1024

JupyterLibs jl;
static tl_dynlib zmq_lib = TL_DYNLIB_INIT, sodium_lib = TL_DYNLIB_INIT;

/* Loads libzmq's entry points into jl (run once). */
static void load_zmq(void)
{
#define JL_NAME(name) #name,
#define JL_SLOT(name) (void **)&jl.name,
    static const char *const names[] = { JUPYTER_ZMQ_FNS(JL_NAME) NULL };
    static void **const slots[] = { JUPYTER_ZMQ_FNS(JL_SLOT) NULL };
    if (tl_dynlib_open(&zmq_lib, "libzmq", "TL_ZMQ_LIBRARY", TL_ZMQ_LIBRARY_DEFAULT, names, slots)) zmq_lib.status = 0;
}

/* Loads libsodium's entry points into jl (run once). */
static void load_sodium(void)
{
    static const char *const names[] = { JUPYTER_SODIUM_FNS(JL_NAME) NULL };
    static void **const slots[] = { JUPYTER_SODIUM_FNS(JL_SLOT) NULL };
    if (tl_dynlib_open(&sodium_lib, "libsodium", "TL_SODIUM_LIBRARY", TL_SODIUM_LIBRARY_DEFAULT, names, slots)) sodium_lib.status = 0;
}

bool jw_open_libraries(FILE *log)
{
    if (tl_dynlib_load(&zmq_lib, load_zmq) < 0 || tl_dynlib_load(&sodium_lib, load_sodium) < 0) {
        fprintf(log, "tl: the Jupyter kernel cannot start: %s\n", tl_errmsg());
        return false;
    }
    if (jl.sodium_init() < 0) {
        fprintf(log, "tl: the Jupyter kernel cannot start: libsodium failed to initialize\n");
        return false;
    }
    return true;
}

/* ---- the connection file ---------------------------------------------------- */

const json *jw_member(const json *obj, const char *key)
{
    if (!obj || obj->kind != JSON_OBJ) return NULL;
    for (int64_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0) return &obj->items[i];
    return NULL;
}

const char *jw_string(const json *obj, const char *key)
{
    const json *v = jw_member(obj, key);
    return v && v->kind == JSON_STR ? v->s : NULL;
}

int64_t jw_int(const json *obj, const char *key, int64_t def)
{
    const json *v = jw_member(obj, key);
    if (!v || v->kind != JSON_NUM || !v->is_uint || v->u > INT64_MAX) return def;
    return (int64_t)v->u;
}

bool jw_bool(const json *obj, const char *key, bool def)
{
    const json *v = jw_member(obj, key);
    return v && v->kind == JSON_BOOL ? v->b : def;
}

/* Reads a whole small file into a malloc'd buffer; NULL with errno set. */
static char *read_small_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(65537);
    *n = buf ? fread(buf, 1, 65537, f) : 0;
    bool bad = !buf || ferror(f) || *n > 65536;
    fclose(f);
    if (bad) {
        free(buf);
        errno = buf ? EFBIG : ENOMEM;
        return NULL;
    }
    return buf;
}

/* Copies a string member into out; false when it is missing or too long. */
static bool copy_member(const json *root, const char *key, const char *def, char *out, size_t n)
{
    const char *s = jw_string(root, key);
    if (!s) s = def;
    if (!s || strlen(s) >= n) return false;
    strcpy(out, s);
    return true;
}

bool jw_read_connection(const char *path, Connection *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    size_t n;
    char *text = read_small_file(path, &n);
    if (!text) {
        snprintf(err, errlen, "cannot read the connection file %s: %s", path, strerror(errno));
        return false;
    }
    json root;
    int rc = io_json_parse(path, text, n, &root);
    free(text);
    if (rc < 0) {
        snprintf(err, errlen, "%s", tl_errmsg());
        return false;
    }
    const char *scheme = jw_string(&root, "signature_scheme"), *key = jw_string(&root, "key");
    int *ports[] = { &c->shell_port, &c->iopub_port, &c->stdin_port, &c->control_port, &c->hb_port };
    const char *port_names[] = { "shell_port", "iopub_port", "stdin_port", "control_port", "hb_port" };
    bool ok = copy_member(&root, "transport", "tcp", c->transport, sizeof c->transport) &&
              copy_member(&root, "ip", "127.0.0.1", c->ip, sizeof c->ip);
    if (!ok) snprintf(err, errlen, "%s: the transport or ip is too long", path);
    if (ok && strcmp(c->transport, "tcp") != 0 && strcmp(c->transport, "ipc") != 0) {
        snprintf(err, errlen, "%s: unknown transport \"%s\" (tcp or ipc)", path, c->transport);
        ok = false;
    }
    for (int i = 0; ok && i < 5; i++) {
        int64_t p = jw_int(&root, port_names[i], 0);
        if (p < 1 || p > 65535) {
            snprintf(err, errlen, "%s: %s must be a port number from 1 to 65535", path, port_names[i]);
            ok = false;
        }
        *ports[i] = (int)p;
    }
    if (ok && key && *key && scheme && strcmp(scheme, "hmac-sha256") != 0) {
        snprintf(err, errlen, "%s: signature scheme \"%s\" is not supported (hmac-sha256 is)", path, scheme);
        ok = false;
    }
    if (ok) {
        c->keylen = key ? strlen(key) : 0;
        c->key = strdup(key ? key : "");
        if (!c->key) snprintf(err, errlen, "out of memory"), ok = false;
    }
    io_json_free(&root);
    return ok;
}

void jw_endpoint(const Connection *c, int port, char *out, size_t n)
{
    if (strcmp(c->transport, "ipc") == 0) snprintf(out, n, "ipc://%s-%d", c->ip, port);
    else snprintf(out, n, "tcp://%s:%d", c->ip, port);
}

/* ---- signatures ------------------------------------------------------------- */

/* The HMAC-SHA256 of the four parts, as 32 bytes. */
static void digest(const Signer *s, const char *const part[4], const size_t len[4], unsigned char out[32])
{
    crypto_auth_hmacsha256_state st;
    jl.crypto_auth_hmacsha256_init(&st, s->key, s->keylen);
    for (int i = 0; i < 4; i++) jl.crypto_auth_hmacsha256_update(&st, (const unsigned char *)part[i], len[i]);
    jl.crypto_auth_hmacsha256_final(&st, out);
}

/* Writes n bytes as 2n lowercase hex digits and a NUL into out. */
static void to_hex(const unsigned char *p, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) out[2 * i] = hex[p[i] >> 4], out[2 * i + 1] = hex[p[i] & 15];
    out[2 * n] = 0;
}

/* Whether sig (len bytes of hex) signs the parts and was not seen before; remembers it. */
static bool signature_good(Signer *s, const char *sig, size_t len, const char *const part[4], const size_t plen[4])
{
    if (s->keylen == 0) return true;   /* an empty key: messages are not signed */
    unsigned char d[32];
    char hex[65];
    digest(s, part, plen, d);
    to_hex(d, 32, hex);
    if (len != 64 || jl.sodium_memcmp(hex, sig, 64) != 0) return false;
    if (!s->seen && !(s->seen = calloc(SEEN_MAX, sizeof *s->seen))) return false;
    for (int i = 0; i < s->nseen; i++)
        if (memcmp(s->seen[i], d, 32) == 0) return false;   /* a replay */
    memcpy(s->seen[s->next], d, 32);
    s->next = (s->next + 1) % SEEN_MAX;
    if (s->nseen < SEEN_MAX) s->nseen++;
    return true;
}

/* ---- receiving -------------------------------------------------------------- */

/* Reads the frames of one multipart message into a malloc'd array of zmq messages. */
static int recv_frames(void *sock, zmq_msg_t **out)
{
    int n = 0, cap = 0;
    zmq_msg_t *f = NULL;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            zmq_msg_t *nf = realloc(f, (size_t)cap * sizeof *nf);
            if (!nf) break;
            f = nf;
        }
        jl.zmq_msg_init(&f[n]);
        int rc;
        while ((rc = jl.zmq_msg_recv(&f[n], sock, n ? 0 : ZMQ_DONTWAIT)) < 0 && jl.zmq_errno() == EINTR) {}
        if (rc < 0) {
            jl.zmq_msg_close(&f[n]);
            break;
        }
        n++;
        if (!jl.zmq_msg_more(&f[n - 1])) {
            *out = f;
            return n;
        }
    }
    for (int i = 0; i < n; i++) jl.zmq_msg_close(&f[i]);
    free(f);
    *out = NULL;
    return n ? -1 : 0;
}

/* A NUL-terminated malloc'd copy of a frame's bytes (their count in *len); NULL when out of memory. */
static char *frame_copy(zmq_msg_t *f, size_t *len)
{
    *len = jl.zmq_msg_size(f);
    char *p = malloc(*len + 1);
    if (!p) return NULL;
    memcpy(p, jl.zmq_msg_data(f), *len);
    p[*len] = 0;
    return p;
}

/* Fills m from the frames; a reason when they are not a well-formed message. */
static const char *take_frames(JMsg *m, zmq_msg_t *f, int n, Signer *s)
{
    int delim = -1;
    for (int i = 0; i < n && delim < 0; i++)
        if (jl.zmq_msg_size(&f[i]) == 9 && memcmp(jl.zmq_msg_data(&f[i]), "<IDS|MSG>", 9) == 0) delim = i;
    if (delim < 0 || n < delim + 6) return "no <IDS|MSG> delimiter followed by five frames";
    m->nids = delim;
    m->ids = calloc((size_t)delim + 1, sizeof *m->ids);
    m->idlens = calloc((size_t)delim + 1, sizeof *m->idlens);
    if (!m->ids || !m->idlens) return "out of memory";
    for (int i = 0; i < delim; i++)
        if (!(m->ids[i] = frame_copy(&f[i], &m->idlens[i]))) return "out of memory";
    for (int k = 0; k < 4; k++)
        if (!(m->part[k] = frame_copy(&f[delim + 2 + k], &m->partlen[k]))) return "out of memory";
    if (!signature_good(s, jl.zmq_msg_data(&f[delim + 1]), jl.zmq_msg_size(&f[delim + 1]), (const char *const *)m->part, m->partlen))
        return "bad signature";
    if (io_json_parse("header", m->part[PART_HEADER], m->partlen[PART_HEADER], &m->header) < 0) return tl_errmsg();
    if (io_json_parse("content", m->part[PART_CONTENT], m->partlen[PART_CONTENT], &m->content) < 0) return tl_errmsg();
    m->type = jw_string(&m->header, "msg_type");
    return m->type ? NULL : "no msg_type in the header";
}

RecvResult jw_recv(void *sock, Signer *s, JMsg *m, FILE *log, const char *channel)
{
    memset(m, 0, sizeof *m);
    m->header.kind = m->content.kind = JSON_NULL;
    zmq_msg_t *f;
    int n = recv_frames(sock, &f);
    if (n == 0) return RECV_NONE;
    const char *why = n < 0 ? "cannot read its frames" : take_frames(m, f, n, s);
    for (int i = 0; i < n; i++) jl.zmq_msg_close(&f[i]);
    free(f);
    if (!why) return RECV_OK;
    fprintf(log, "tl kernel: dropped a message on the %s channel: %s\n", channel, why);
    fflush(log);
    jw_msg_free(m);
    return RECV_DROPPED;
}

void jw_msg_free(JMsg *m)
{
    for (int i = 0; m->ids && i < m->nids; i++) free(m->ids[i]);
    free(m->ids);
    free(m->idlens);
    for (int k = 0; k < 4; k++) free(m->part[k]);
    io_json_free(&m->header);
    io_json_free(&m->content);
    memset(m, 0, sizeof *m);
}

/* ---- sending ---------------------------------------------------------------- */

void jw_uuid(char out[37])
{
    unsigned char b[16];
    char hex[33];
    jl.randombytes_buf(b, sizeof b);
    b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);   /* version 4 */
    b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);   /* the RFC 4122 variant */
    to_hex(b, 16, hex);
    snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20);
}

/* The time now as ISO 8601 in UTC with microseconds. */
static void iso_now(char out[40])
{
    struct timeval tv;
    struct tm tm;
    gettimeofday(&tv, NULL);
    gmtime_r(&tv.tv_sec, &tm);
    size_t k = strftime(out, 40, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + k, 40 - k, ".%06ldZ", (long)tv.tv_usec);
}

/* Sends one frame, more of the message following it when more. A signal (Jupyter's interrupt) that
   lands while libzmq reads its command mailbox fails the call with EINTR before the frame is queued:
   it is sent again, or the reply would be lost. */
static bool send_frame(void *sock, const void *p, size_t n, bool more)
{
    int rc;
    while ((rc = jl.zmq_send(sock, p, n, more ? ZMQ_SNDMORE : 0)) < 0 && jl.zmq_errno() == EINTR) {}
    return rc >= 0;
}

bool jw_send(void *sock, const Signer *s, const char *session, char *const *ids, const size_t *idlens, int nids,
             const char *type, const char *parent, size_t parentlen, const char *content, size_t contentlen)
{
    char id[37], date[40], header[400], sig[65] = "";
    jw_uuid(id);
    iso_now(date);
    int hn = snprintf(header, sizeof header,
                      "{\"msg_id\":\"%s\",\"session\":\"%s\",\"username\":\"tl\",\"date\":\"%s\",\"msg_type\":\"%s\",\"version\":\"%s\"}",
                      id, session, date, type, PROTOCOL_VERSION);
    if (hn < 0 || (size_t)hn >= sizeof header) return false;
    const char *part[4] = { header, parent, "{}", content };
    size_t len[4] = { (size_t)hn, parentlen, 2, contentlen };
    if (s->keylen) {
        unsigned char d[32];
        digest(s, part, len, d);
        to_hex(d, 32, sig);
    }
    for (int i = 0; i < nids; i++)
        if (!send_frame(sock, ids[i], idlens[i], true)) return false;
    if (!send_frame(sock, "<IDS|MSG>", 9, true) || !send_frame(sock, sig, strlen(sig), true)) return false;
    for (int k = 0; k < 4; k++)
        if (!send_frame(sock, part[k], len[k], k < 3)) return false;
    return true;
}

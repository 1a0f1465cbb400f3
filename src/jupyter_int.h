/* jupyter_int.h — what the Jupyter kernel's files share: libzmq and libsodium, the wire, the kernel's state */
#ifndef TL_JUPYTER_INT_H
#define TL_JUPYTER_INT_H

#include <pthread.h>
#include <sodium.h>
#include <stdbool.h>
#include <stdio.h>
#include <zmq.h>

#include "interp.h"
#include "io/json.h"
#include "jupyter.h"

/* ---- jupyter_wire.c: the libraries, the connection file, signed messages ---- */

/* libzmq (LGPL-3.0+ with a linking exception; MPL-2.0 from 4.3.5) and libsodium (ISC) are opened
   when the kernel starts (dlopen, as cairo is): linked, libzmq and the nineteen libraries it
   brings would slow every tl start-up. Each call goes through jl.NAME, a pointer of the
   library's own type for NAME. */
#define JUPYTER_ZMQ_FNS(X) \
    X(zmq_ctx_new) X(zmq_ctx_shutdown) X(zmq_ctx_term) X(zmq_socket) X(zmq_close) X(zmq_bind) X(zmq_setsockopt) \
    X(zmq_msg_init) X(zmq_msg_recv) X(zmq_msg_data) X(zmq_msg_size) X(zmq_msg_more) X(zmq_msg_close) X(zmq_send) \
    X(zmq_poll) X(zmq_proxy) X(zmq_errno) X(zmq_strerror)
#define JUPYTER_SODIUM_FNS(X) \
    X(sodium_init) X(crypto_auth_hmacsha256_init) X(crypto_auth_hmacsha256_update) X(crypto_auth_hmacsha256_final) \
    X(sodium_memcmp) X(randombytes_buf)
#define JUPYTER_POINTER(name) __typeof__(name) *name;
typedef struct JupyterLibs { JUPYTER_ZMQ_FNS(JUPYTER_POINTER) JUPYTER_SODIUM_FNS(JUPYTER_POINTER) } JupyterLibs;
extern JupyterLibs jl;

/* Opens both libraries; false with the reason written to log. */
bool jw_open_libraries(FILE *log);

/* What the connection file says. */
typedef struct Connection {
    char transport[16], ip[256];
    int shell_port, iopub_port, stdin_port, control_port, hb_port;
    char *key;        /* the signing key ("": messages are not signed) */
    size_t keylen;
} Connection;

/* Reads a connection file; false with the reason in err. */
bool jw_read_connection(const char *path, Connection *c, char *err, size_t errlen);
/* An endpoint for port on the connection's transport ("tcp://127.0.0.1:5555", "ipc://path-5555"). */
void jw_endpoint(const Connection *c, int port, char *out, size_t n);

/* One message as it came off a socket: its routing frames and its four signed parts. */
typedef struct JMsg {
    int nids;
    char **ids;             /* routing identities (sent back with the reply) */
    size_t *idlens;
    char *part[4];          /* header, parent_header, metadata, content: the raw JSON, NUL-terminated */
    size_t partlen[4];
    json header, content;   /* parsed */
    const char *type;       /* header.msg_type */
} JMsg;
enum { PART_HEADER, PART_PARENT, PART_METADATA, PART_CONTENT };

/* Signs and checks messages; remembers recent signatures so a replayed message is refused. */
typedef struct Signer {
    const unsigned char *key;
    size_t keylen;
    unsigned char (*seen)[32];   /* a ring of the last SEEN_MAX signatures */
    int nseen, next;
} Signer;

/* What jw_recv found. */
typedef enum RecvResult { RECV_OK, RECV_NONE, RECV_DROPPED } RecvResult;

/* Receives one message from a socket that has one waiting. RECV_DROPPED (logged) for a message
   that is malformed or badly signed; RECV_NONE when nothing could be read. */
RecvResult jw_recv(void *sock, Signer *s, JMsg *m, FILE *log, const char *channel);
void jw_msg_free(JMsg *m);
/* A member of a JSON object, or NULL. */
const json *jw_member(const json *obj, const char *key);
/* A string member (NULL when absent or not a string). */
const char *jw_string(const json *obj, const char *key);
/* An integer member, or def. */
int64_t jw_int(const json *obj, const char *key, int64_t def);
/* A boolean member, or def. */
bool jw_bool(const json *obj, const char *key, bool def);

/* Sends a message of type type with content (JSON text) on sock: after the routing frames ids
   (nids of them; for iopub, one topic), signed, with parent as the parent header (raw JSON, or
   "{}"). false when the socket refused it. */
bool jw_send(void *sock, const Signer *s, const char *session, char *const *ids, const size_t *idlens, int nids,
             const char *type, const char *parent, size_t parentlen, const char *content, size_t contentlen);
/* A new random UUID (version 4) in out[37]. */
void jw_uuid(char out[37]);

/* ---- jupyter_json.c: writing JSON into a StrBuf -------------------------- */

/* Appends a string literal (its length known at compile time). */
#define jj_lit(b, s) sb_append((b), "" s, sizeof(s) - 1)

/* A JSON string of n bytes of text; invalid UTF-8 becomes U+FFFD, so a client can always decode it. */
bool jj_str(StrBuf *b, const char *s, size_t n);
bool jj_cstr(StrBuf *b, const char *s);
/* "key": (with a comma before it unless it is the object's first member). */
bool jj_key(StrBuf *b, const char *key);
/* A JSON string of n bytes in base64 (how a notebook carries an image). */
bool jj_base64(StrBuf *b, const unsigned char *p, size_t n);

/* ---- jupyter_io.c: the heartbeat, and stdout and stderr as stream messages ---- */

typedef struct Kernel Kernel;

/* Starts the heartbeat thread on sock (it echoes every ping until the context is shut down). */
bool jio_start_heartbeat(Kernel *K);
/* Sends fd 1 and 2 into pipes that a thread reads and publishes as stream messages; stdin
   reads nothing. The kernel's own log keeps the old stderr. */
bool jio_capture_start(Kernel *K);
/* Publishes every byte written to stdout and stderr so far (after fflush), before what follows. */
void jio_capture_sync(Kernel *K);
/* Stops the capture and the heartbeat threads. */
void jio_stop(Kernel *K);

/* ---- jupyter_kernel.c: the kernel ------------------------------------------ */

struct Kernel {
    Interp *I;
    FILE *log;                      /* the kernel's own messages (the stderr Jupyter gave it) */
    Connection conn;
    Signer signer;
    char session[37];
    void *ctx, *shell, *control, *stdin_sock, *iopub, *hb;
    pthread_mutex_t iopub_lock;     /* iopub is written by the main thread and the stream reader */
    const JMsg *request;            /* the request being handled: the parent of what is published */
    char *parent;                   /* its header, kept for the stream reader (under iopub_lock) */
    size_t parentlen;
    int execution_count;
    bool quit;
    bool aborting;                  /* after an error that stops the queue: execute requests waiting are aborted */
    JMsg *held;                     /* the requests that were waiting when that error came (jk_hold_waiting) */
    int nheld, held_cap;
    StrBuf *expression;             /* while a user expression runs: where its value's bundle goes */
    /* jupyter_io.c's */
    pthread_t heart, reader;
    bool heart_started, reader_started;
    int out_r, err_r, wake_w, wake_r;
    StrBuf pend[2];                 /* stdout and stderr read but not yet published */
    double pend_since;
};

/* Publishes a message of type type with content on iopub, its parent the current request. */
bool jk_publish(Kernel *K, const char *type, const StrBuf *content);
/* The same with iopub_lock already held (the stream reader). */
bool jk_publish_locked(Kernel *K, const char *type, const char *content, size_t n);
/* Replies to the current request on sock. */
bool jk_reply(Kernel *K, void *sock, const char *type, const StrBuf *content);
/* After a cell failed with stop_on_error, before its error and reply go out: holds the requests
   already waiting, so that its execute requests are aborted and no later one. */
void jk_hold_waiting(Kernel *K);

/* ---- jupyter_cell.c: execute_request ---------------------------------------- */

/* Makes the interpreter show values and pictures as messages of this kernel. */
void jcell_install_display(Kernel *K);
/* Runs one execute_request: streams, results, pictures and errors on iopub, then the reply.
   Returns false when the cell failed (its error already published). */
bool jcell_execute(Kernel *K, void *sock);
/* Replies to an execute_request that came while an earlier cell's error stops the queue. */
void jcell_abort(Kernel *K, void *sock);

/* ---- jupyter_html.c: the HTML view of a tensor ----------------------------- */

/* Appends an HTML view of t: a table (1-d and 2-d) or the printed text, with its shape and
   dtype as the caption; the values as the printer writes them. false on failure. */
bool jhtml_tensor(StrBuf *b, const tl_tensor *t);

#endif

/* Internal structures shared by the server, connection and response code. */
#ifndef UVHTTP_INTERNAL_H
#define UVHTTP_INTERNAL_H

#include <uv.h>

#include "uvhttp/uvhttp.h"

/* -- response bytes waiting for the socket ---------------------------------------------- */

typedef struct out_seg {
    const char *ref; /* NULL: bytes of the buffer at `off` */
    uint32_t off;
    uint32_t len;
} out_seg;

typedef struct outbuf {
    char *buf;
    uint32_t len, cap;
    out_seg *segs;
    uint32_t n, segcap;
} outbuf;

void out_free(outbuf *o);
void out_reset(outbuf *o);
/* Room for `max` more bytes at o->buf + o->len (NULL without memory). */
char *out_begin(outbuf *o, size_t max);
/* Keep `used` bytes written after out_begin and send them (as a segment). */
int out_end(outbuf *o, size_t used);
/* Copy bytes and send them. */
int out_append(outbuf *o, const void *data, size_t n);
/* Send bytes that live elsewhere (not copied). */
int out_seg_ref(outbuf *o, const char *p, uint32_t n);

/* -- request, response, prebuilt -------------------------------------------------------- */

struct uvhttp_conn;

struct uvhttp_request {
    struct uvhttp_conn *conn;
    const char *base; /* start of the message in the read buffer */
};

enum { BODY_NONE, BODY_OWN, BODY_REF };

struct uvhttp_response {
    struct uvhttp_conn *conn;
    int status;
    uint8_t sent;
    uint8_t body_kind;
    uint8_t force_close;
    uint32_t body_len;
    const char *body_ref; /* BODY_REF */
    char *body_buf;       /* BODY_OWN: a copy, serialised into the response buffer on send */
    uint32_t body_cap;
    char *fields; /* "Name: value\r\n"... */
    uint32_t fields_len, fields_cap;
};

struct uvhttp_prebuilt {
    char *head; /* status line + fields + Content-Length line */
    uint32_t head_len;
    const char *body;
    uint32_t body_len;
    uint8_t own_body;
    uint8_t bodiless; /* 204 / 304 */
};

/* -- connection ------------------------------------------------------------------------- */

struct uvhttp_tls_conn;

typedef struct uvhttp_conn {
    uv_tcp_t tcp;
    uv_write_t wreq;
    uv_shutdown_t sreq;
    struct uvhttp_server *server;
    struct uvhttp_conn *prev, *next;
    char *rbuf;
    uint32_t rcap, rlen, rstart; /* bytes [rstart, rlen) are unparsed or in the current message */
    uvhttp_parser parser;
    struct uvhttp_request req;
    struct uvhttp_response res;
    outbuf out;  /* responses being queued */
    outbuf wout; /* responses a pending uv_write still reads (plain connections) */
    struct uvhttp_tls_conn *tls;
    uint64_t last_active, msg_start, linger_start;
    uint32_t requests;
    uint8_t reading, writing, in_flight, closing, lingering, closed, zombie, in_process;
} uvhttp_conn;

struct uvhttp_server {
    uv_loop_t *loop;
    uvhttp_config cfg;
    uvhttp_parser_limits limits;
    uv_tcp_t listener;
    uv_timer_t sweep;
    uvhttp_router *router;
    uvhttp_handler handler;
    void *handler_data;
    struct uvhttp_tls_context *tls;
    uvhttp_conn *conns;
    uint32_t handles_open;
    uint8_t listening, stopped, free_pending;
    char date[48]; /* "Date: ...\r\n" */
    uint32_t date_len;
    int64_t date_sec;
    uint32_t linger_ms;
    uvhttp_server_stats stats;
};

/* conn.c (what only the conn*.c files share is in conn_internal.h) */
void conn_accept(struct uvhttp_server *s);
void conn_close(uvhttp_conn *c);
/* Release a connection's memory (after its handle closed). */
void conn_free(uvhttp_conn *c);
void conn_sweep(uvhttp_conn *c, uint64_t now);

/* conn_dispatch.c */
/* The response of the current request was queued: consume the request, go on. */
void conn_response_done(uvhttp_conn *c, int close_after);
/* Answer the current (or a broken) request with an error status and close. */
void conn_send_error(uvhttp_conn *c, int status, unsigned allowed);

/* server.c */
void server_handle_closed(struct uvhttp_server *s);
void server_refresh_date(struct uvhttp_server *s);

/* response.c */
void response_reset(struct uvhttp_response *res);
/* Whether the connection closes after the current response. */
int response_closes(const uvhttp_conn *c);

/* tls.c (only with UVHTTP_WITH_TLS) */
struct uvhttp_tls_conn *tls_conn_new(struct uvhttp_tls_context *ctx);
void tls_conn_free(struct uvhttp_tls_conn *t);
uv_buf_t tls_rx_space(struct uvhttp_tls_conn *t);
void tls_rx_commit(struct uvhttp_tls_conn *t, size_t n);
/* > 0 plaintext bytes, 0 wants more ciphertext, < 0 closed or failed. */
int tls_read(struct uvhttp_tls_conn *t, char *dst, size_t cap);
int tls_write(struct uvhttp_tls_conn *t, const char *src, size_t n);
char *tls_tx(struct uvhttp_tls_conn *t, size_t *len);
void tls_tx_clear(struct uvhttp_tls_conn *t);

#endif

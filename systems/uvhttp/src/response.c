/* Responses: the status, fields and body a handler sets, serialised into the connection's
 * response buffer on send (status line, fields, Content-Length, Date, Connection), and the
 * sending of prebuilt responses. Request accessors: request.c; building prebuilt responses:
 * prebuilt.c. */
#include <stdlib.h>
#include <string.h>

#include "response_internal.h"

#define COPY_MAX 4096u /* bodies up to this size are copied next to the head (one segment) */

/* -- field validation ------------------------------------------------------------------- */

static int tchar(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

int response_valid_field(const char *name, const char *value) {
    static const char *const reserved[] = {"content-length", "transfer-encoding", "connection",
                                           "date"};
    if (name == NULL || value == NULL || name[0] == '\0') return 0;
    for (const char *c = name; *c; c++)
        if (!tchar((unsigned char)*c)) return 0;
    for (const unsigned char *c = (const unsigned char *)value; *c; c++)
        if (*c != '\t' && (*c < 0x20 || *c == 0x7f)) return 0;
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        if (strlen(reserved[i]) == strlen(name) && ieq(reserved[i], name, strlen(name))) return 0;
    return 1;
}

/* -- serialisation helpers -------------------------------------------------------------- */

/* Date, Connection (when needed) and the blank line. */
static char *tail(char *w, const uvhttp_conn *c, int close) {
    w = put(w, c->server->date, c->server->date_len);
    if (close) w = put(w, "Connection: close\r\n", 19);
    else if (c->parser.version_minor == 0) w = put(w, "Connection: keep-alive\r\n", 24);
    return put(w, "\r\n", 2);
}
#define TAIL_MAX (sizeof(((struct uvhttp_server *)0)->date) + 24 + 2)

int response_closes(const uvhttp_conn *c) {
    uint32_t max = c->server->cfg.max_requests_per_connection;
    return c->res.force_close || !(c->parser.flags & UVHTTP_F_KEEP_ALIVE) ||
           (max && c->requests + 1 >= max) || c->server->stopped;
}

void response_reset(struct uvhttp_response *res) {
    res->status = 200;
    res->sent = 0;
    res->body_kind = BODY_NONE;
    res->force_close = 0;
    res->body_len = 0;
    res->body_ref = NULL;
    res->fields_len = 0;
}

/* 0 when the response may be sent now; else why not (a closed connection is released). */
static int sendable(uvhttp_response *res) {
    uvhttp_conn *c = res->conn;
    if (res->sent) return UV_EALREADY;
    if (c->zombie) {
        conn_free(c);
        return UV_ECANCELED;
    }
    if (c->closed) {
        res->sent = 1;
        c->in_flight = 0; /* the pending close callback frees it */
        return UV_ECANCELED;
    }
    return 0;
}

/* -- response --------------------------------------------------------------------------- */

int uvhttp_response_set_status(uvhttp_response *res, int status) {
    if (res->sent) return UV_EALREADY;
    if (status < 200 || status > 599) return UV_EINVAL;
    res->status = status;
    return 0;
}

int uvhttp_response_set_header(uvhttp_response *res, const char *name, const char *value) {
    if (res->sent) return UV_EALREADY;
    if (!response_valid_field(name, value)) return UV_EINVAL;
    size_t nl = strlen(name), vl = strlen(value), need = res->fields_len + nl + vl + 4;
    if (need > UINT32_MAX / 2) return UV_ENOMEM;
    if (need > res->fields_cap) {
        size_t cap = res->fields_cap ? res->fields_cap : 256;
        while (cap < need) cap *= 2;
        char *f = realloc(res->fields, cap);
        if (f == NULL) return UV_ENOMEM;
        res->fields = f;
        res->fields_cap = (uint32_t)cap;
    }
    char *w = res->fields + res->fields_len;
    w = put(w, name, nl);
    w = put(w, ": ", 2);
    w = put(w, value, vl);
    put(w, "\r\n", 2);
    res->fields_len = (uint32_t)need;
    return 0;
}

int uvhttp_response_set_body(uvhttp_response *res, const void *data, size_t len) {
    if (res->sent) return UV_EALREADY;
    if (len > UINT32_MAX / 4 || (len && data == NULL)) return UV_EINVAL;
    if (len > res->body_cap) {
        char *b = realloc(res->body_buf, len);
        if (b == NULL) return UV_ENOMEM;
        res->body_buf = b;
        res->body_cap = (uint32_t)len;
    }
    if (len) memcpy(res->body_buf, data, len);
    res->body_kind = BODY_OWN;
    res->body_len = (uint32_t)len;
    return 0;
}

int uvhttp_response_set_body_static(uvhttp_response *res, const void *data, size_t len) {
    if (res->sent) return UV_EALREADY;
    if (len > UINT32_MAX / 4 || (len && data == NULL)) return UV_EINVAL;
    res->body_kind = BODY_REF;
    res->body_ref = data;
    res->body_len = (uint32_t)len;
    return 0;
}

int uvhttp_response_send(uvhttp_response *res) {
    int rc = sendable(res);
    if (rc != 0) return rc;
    uvhttp_conn *c = res->conn;
    int close = response_closes(c);
    int bodiless = res->status == 204 || res->status == 304;
    int head_only = bodiless || c->parser.method == UVHTTP_HEAD;
    const char *body = res->body_kind == BODY_REF ? res->body_ref : res->body_buf;
    uint32_t blen = res->body_kind == BODY_NONE ? 0 : res->body_len;
    int copy = !head_only && (res->body_kind == BODY_OWN || blen <= COPY_MAX);
    size_t max = 64 + strlen(uvhttp_status_reason(res->status)) + res->fields_len + TAIL_MAX +
                 (copy ? blen : 0);
    char *w0 = out_begin(&c->out, max), *w = w0;
    if (w == NULL) {
        conn_close(c);
        return UV_ENOMEM;
    }
    w = status_line(w, res->status);
    if (res->fields_len) w = put(w, res->fields, res->fields_len);
    if (!bodiless) {
        w = put(w, "Content-Length: ", 16);
        w = put_u(w, blen);
        w = put(w, "\r\n", 2);
    }
    w = tail(w, c, close);
    if (copy && blen) w = put(w, body, blen);
    rc = out_end(&c->out, (size_t)(w - w0));
    if (rc == 0 && !copy && !head_only) rc = out_seg_ref(&c->out, body, blen);
    if (rc != 0) {
        conn_close(c);
        return rc;
    }
    res->sent = 1;
    conn_response_done(c, close);
    return 0;
}

int uvhttp_response_send_prebuilt(uvhttp_response *res, const uvhttp_prebuilt *pre) {
    int rc = pre ? sendable(res) : UV_EINVAL;
    if (rc != 0) return rc;
    uvhttp_conn *c = res->conn;
    int close = response_closes(c);
    int head_only = pre->bodiless || c->parser.method == UVHTTP_HEAD;
    int copy = !head_only && pre->body_len <= COPY_MAX;
    char *w0 = out_begin(&c->out, pre->head_len + TAIL_MAX + (copy ? pre->body_len : 0)), *w = w0;
    if (w == NULL) {
        conn_close(c);
        return UV_ENOMEM;
    }
    w = put(w, pre->head, pre->head_len);
    w = tail(w, c, close);
    if (copy && pre->body_len) w = put(w, pre->body, pre->body_len);
    rc = out_end(&c->out, (size_t)(w - w0));
    if (rc == 0 && !copy && !head_only) rc = out_seg_ref(&c->out, pre->body, pre->body_len);
    if (rc != 0) {
        conn_close(c);
        return rc;
    }
    res->sent = 1;
    conn_response_done(c, close);
    return 0;
}


/* Request accessors, responses and prebuilt responses. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define COPY_MAX 4096u /* bodies up to this size are copied next to the head (one segment) */

/* -- request ---------------------------------------------------------------------------- */

static const uvhttp_parser *P(const uvhttp_request *req) { return &req->conn->parser; }

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int ieq(const char *a, const char *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i])) return 0;
    return 1;
}

uvhttp_method uvhttp_request_method(const uvhttp_request *req) { return P(req)->method; }

int uvhttp_request_version_minor(const uvhttp_request *req) { return P(req)->version_minor; }

const char *uvhttp_request_path(const uvhttp_request *req, size_t *len) {
    const uvhttp_parser *p = P(req);
    if (p->path.len == 0) {
        *len = 1;
        return "/";
    }
    *len = p->path.len;
    return req->base + p->path.off;
}

const char *uvhttp_request_query(const uvhttp_request *req, size_t *len) {
    *len = P(req)->query.len;
    return req->base + P(req)->query.off;
}

const char *uvhttp_request_header(const uvhttp_request *req, const char *name, size_t *len) {
    const uvhttp_parser *p = P(req);
    size_t n = strlen(name);
    for (uint32_t i = 0; i < p->nheaders; i++) {
        const uvhttp_header *h = &p->headers[i];
        if (h->name.len == n && ieq(req->base + h->name.off, name, n)) {
            if (len) *len = h->value.len;
            return req->base + h->value.off;
        }
    }
    return NULL;
}

size_t uvhttp_request_header_count(const uvhttp_request *req) { return P(req)->nheaders; }

int uvhttp_request_header_at(const uvhttp_request *req, size_t i, const char **name,
                             size_t *name_len, const char **value, size_t *value_len) {
    const uvhttp_parser *p = P(req);
    if (i >= p->nheaders) return UV_EINVAL;
    *name = req->base + p->headers[i].name.off;
    *name_len = p->headers[i].name.len;
    *value = req->base + p->headers[i].value.off;
    *value_len = p->headers[i].value.len;
    return 0;
}

const char *uvhttp_request_body(const uvhttp_request *req, size_t *len) {
    *len = P(req)->body_len;
    return req->base + P(req)->body_off;
}

int uvhttp_request_keep_alive(const uvhttp_request *req) { return !response_closes(req->conn); }

/* -- field validation ------------------------------------------------------------------- */

static int tchar(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static int valid_field(const char *name, const char *value) {
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

static char *put(char *w, const void *s, size_t n) {
    memcpy(w, s, n);
    return w + n;
}

static char *put_u(char *w, uint64_t v) {
    char tmp[20];
    int i = 0;
    do {
        tmp[i++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (i) *w++ = tmp[--i];
    return w;
}

static char *status_line(char *w, int status) {
    const char *reason = uvhttp_status_reason(status);
    w = put(w, "HTTP/1.1 ", 9);
    *w++ = (char)('0' + status / 100);
    *w++ = (char)('0' + status / 10 % 10);
    *w++ = (char)('0' + status % 10);
    *w++ = ' ';
    w = put(w, reason, strlen(reason));
    return put(w, "\r\n", 2);
}

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
    if (!valid_field(name, value)) return UV_EINVAL;
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

/* -- prebuilt --------------------------------------------------------------------------- */

uvhttp_prebuilt *uvhttp_prebuilt_new(int status, const char *const *fields, const void *body,
                                     size_t len, int flags) {
    int bodiless = status == 204 || status == 304;
    if (status < 200 || status > 599 || len > UINT32_MAX / 4 || (len && body == NULL) ||
        (bodiless && len))
        return NULL;
    size_t size = 64 + strlen(uvhttp_status_reason(status));
    for (size_t i = 0; fields && fields[i]; i += 2) {
        if (!valid_field(fields[i], fields[i + 1])) return NULL;
        size += strlen(fields[i]) + strlen(fields[i + 1]) + 4;
    }
    uvhttp_prebuilt *pre = calloc(1, sizeof *pre);
    char *head = malloc(size);
    char *copy = (flags & UVHTTP_PREBUILT_STATIC_BODY) || len == 0 ? NULL : malloc(len);
    if (pre == NULL || head == NULL || (len && !(flags & UVHTTP_PREBUILT_STATIC_BODY) && !copy)) {
        free(pre);
        free(head);
        free(copy);
        return NULL;
    }
    char *w = status_line(head, status);
    for (size_t i = 0; fields && fields[i]; i += 2) {
        w = put(w, fields[i], strlen(fields[i]));
        w = put(w, ": ", 2);
        w = put(w, fields[i + 1], strlen(fields[i + 1]));
        w = put(w, "\r\n", 2);
    }
    if (!bodiless) {
        w = put(w, "Content-Length: ", 16);
        w = put_u(w, len);
        w = put(w, "\r\n", 2);
    }
    pre->head = head;
    pre->head_len = (uint32_t)(w - head);
    if (copy) memcpy(copy, body, len);
    pre->body = copy ? copy : body;
    pre->own_body = copy != NULL;
    pre->body_len = (uint32_t)len;
    pre->bodiless = (uint8_t)bodiless;
    return pre;
}

void uvhttp_prebuilt_free(uvhttp_prebuilt *pre) {
    if (pre == NULL) return;
    if (pre->own_body) free((void *)pre->body);
    free(pre->head);
    free(pre);
}

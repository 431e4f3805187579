/* One client connection: read, parse, dispatch, write (plain or TLS), keep-alive, close.
 *
 * The hot path per request is one read(2), the parse, the handler and one writev(2) through
 * uv_try_write: responses of every request found in one read (pipelining) go out together.
 * Only a partial write falls back to uv_write; reading then pauses until it completes. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char CONTINUE_100[] = "HTTP/1.1 100 Continue\r\n\r\n";

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf);
static void process(uvhttp_conn *c);
static void flush(uvhttp_conn *c);

static uint64_t now_ms(const uvhttp_conn *c) { return uv_now(c->server->loop); }

static void start_reading(uvhttp_conn *c) {
    if (c->reading || c->closed) return;
    if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) != 0) {
        conn_close(c);
        return;
    }
    c->reading = 1;
}

static void stop_reading(uvhttp_conn *c) {
    if (!c->reading) return;
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = 0;
}

static void unlink_conn(uvhttp_conn *c) {
    uvhttp_server *s = c->server;
    if (c->prev) c->prev->next = c->next;
    else s->conns = c->next;
    if (c->next) c->next->prev = c->prev;
    c->prev = c->next = NULL;
    s->stats.active--;
}

void conn_free(uvhttp_conn *c) {
    free(c->rbuf);
    out_free(&c->out);
    out_free(&c->wout);
    free(c->res.fields);
    free(c->res.body_buf);
#ifdef UVHTTP_WITH_TLS
    if (c->tls) tls_conn_free(c->tls);
#endif
    free(c);
}

static void on_close(uv_handle_t *h) {
    uvhttp_conn *c = h->data;
    uvhttp_server *s = c->server;
    if (c->in_flight) c->zombie = 1; /* freed when its handler sends */
    else conn_free(c);
    server_handle_closed(s);
}

void conn_close(uvhttp_conn *c) {
    if (c->closed) return;
    c->closed = 1;
    c->reading = 0;
    unlink_conn(c);
    uv_close((uv_handle_t *)&c->tcp, on_close);
}

void conn_accept(uvhttp_server *s) {
    uvhttp_conn *c = calloc(1, sizeof *c);
    if (c == NULL) return;
    c->server = s;
    if (uv_tcp_init(s->loop, &c->tcp) != 0) {
        free(c);
        return;
    }
    c->tcp.data = c;
    s->handles_open++;
    c->next = s->conns;
    if (s->conns) s->conns->prev = c;
    s->conns = c;
    s->stats.active++;
    if (uv_accept((uv_stream_t *)&s->listener, (uv_stream_t *)&c->tcp) != 0) {
        conn_close(c);
        return;
    }
    s->stats.accepted++;
    if (s->stats.active > s->cfg.max_connections || s->stopped) {
        s->stats.rejected++;
        conn_close(c);
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1);
    uvhttp_parser_init(&c->parser, &s->limits);
    c->req.conn = c;
    c->res.conn = c;
    response_reset(&c->res);
    c->last_active = now_ms(c);
#ifdef UVHTTP_WITH_TLS
    if (s->tls && (c->tls = tls_conn_new(s->tls)) == NULL) {
        conn_close(c);
        return;
    }
#endif
    start_reading(c);
}

/* -- reading ---------------------------------------------------------------------------- */

static uint32_t read_limit(const uvhttp_server *s) {
    uint64_t n = (uint64_t)s->cfg.max_header_size + s->cfg.max_body_size + 65536;
    if (n < s->cfg.read_buffer_size) n = s->cfg.read_buffer_size;
    return n > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)n;
}

/* Free bytes at rbuf + rlen after compacting or growing the buffer (0: limit reached). */
static uint32_t read_space(uvhttp_conn *c) {
    if (c->rbuf == NULL) {
        c->rbuf = malloc(c->server->cfg.read_buffer_size);
        if (c->rbuf == NULL) return 0;
        c->rcap = c->server->cfg.read_buffer_size;
    }
    if (c->rstart == c->rlen) c->rstart = c->rlen = 0;
    uint32_t space = c->rcap - c->rlen;
    if (space < c->rcap / 4 && c->rstart > 0 && !c->in_flight) {
        memmove(c->rbuf, c->rbuf + c->rstart, c->rlen - c->rstart);
        c->rlen -= c->rstart;
        c->rstart = 0;
        space = c->rcap - c->rlen;
    }
    uint32_t limit = read_limit(c->server);
    if (space == 0 && c->rcap < limit && !c->in_flight) {
        uint32_t cap = c->rcap > limit / 2 ? limit : c->rcap * 2;
        char *b = realloc(c->rbuf, cap);
        if (b == NULL) return 0;
        c->rbuf = b;
        c->rcap = cap;
        space = cap - c->rlen;
    }
    return space;
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    uvhttp_conn *c = h->data;
    (void)suggested;
    if (c->lingering) { /* whatever arrives now is discarded */
        uint32_t space = read_space(c);
        *buf = uv_buf_init(space ? c->rbuf + c->rlen : NULL, space);
        return;
    }
#ifdef UVHTTP_WITH_TLS
    if (c->tls) {
        *buf = tls_rx_space(c->tls);
        return;
    }
#endif
    uint32_t space = read_space(c);
    *buf = uv_buf_init(space ? c->rbuf + c->rlen : NULL, space);
}

static int too_large_status(const uvhttp_conn *c) { return c->parser.head_len ? 413 : 431; }

static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf) {
    uvhttp_conn *c = st->data;
    (void)buf;
    if (nread == 0 || c->closed) return;
    if (nread == UV_ENOBUFS && !c->lingering) {
        conn_send_error(c, too_large_status(c), 0);
        return;
    }
    if (nread < 0) {
        conn_close(c);
        return;
    }
    c->last_active = now_ms(c);
    if (c->lingering) return;
#ifdef UVHTTP_WITH_TLS
    if (c->tls) {
        tls_rx_commit(c->tls, (size_t)nread);
        for (;;) {
            uint32_t space = read_space(c);
            if (space == 0) {
                conn_send_error(c, too_large_status(c), 0);
                return;
            }
            int r = tls_read(c->tls, c->rbuf + c->rlen, space);
            if (r < 0) {
                conn_close(c);
                return;
            }
            if (r == 0) break;
            c->rlen += (uint32_t)r;
        }
        process(c);
        return;
    }
#endif
    c->rlen += (uint32_t)nread;
    process(c);
}

/* -- dispatch --------------------------------------------------------------------------- */

/* A plain-text status response; 405 lists the allowed methods. */
static void respond_status(uvhttp_conn *c, int status, unsigned allowed, int close) {
    char allow[96] = "";
    response_reset(&c->res);
    c->res.force_close = (uint8_t)close;
    uvhttp_response_set_status(&c->res, status);
    uvhttp_response_set_header(&c->res, "Content-Type", "text/plain; charset=utf-8");
    for (int m = UVHTTP_GET; m < UVHTTP_METHOD_COUNT && status == 405; m++) {
        if (!(allowed & (1u << m))) continue;
        if (allow[0]) strcat(allow, ", ");
        strcat(allow, uvhttp_method_name((uvhttp_method)m));
    }
    if (allow[0]) uvhttp_response_set_header(&c->res, "Allow", allow);
    const char *reason = uvhttp_status_reason(status);
    char body[64];
    size_t n = strlen(reason);
    memcpy(body, reason, n);
    body[n] = '\n';
    uvhttp_response_set_body(&c->res, body, n + 1);
    uvhttp_response_send(&c->res);
}

void conn_send_error(uvhttp_conn *c, int status, unsigned allowed) {
    c->in_flight = 1;
    respond_status(c, status, allowed, 1);
}

static void dispatch(uvhttp_conn *c) {
    uvhttp_server *s = c->server;
    uvhttp_handler fn = s->handler;
    void *data = s->handler_data;
    c->req.base = c->rbuf + c->rstart;
    response_reset(&c->res);
    c->in_flight = 1;
    if (fn == NULL) {
        uvhttp_route_match m = {NULL, NULL, 404, 0};
        size_t len;
        const char *path = uvhttp_request_path(&c->req, &len);
        if (s->router == NULL || uvhttp_router_match(s->router, c->parser.method, path, len, &m)) {
            respond_status(c, m.status, m.allowed, 0);
            return;
        }
        fn = m.fn;
        data = m.data;
    }
    int rc = fn(&c->req, &c->res, data);
    if (c->closed) c->in_flight = 0; /* closed meanwhile (no memory): nothing to wait for */
    if (c->res.sent || c->closed) return;
    if (rc != 0) respond_status(c, 500, 0, 0);
    else stop_reading(c); /* the handler answers later */
}

void conn_response_done(uvhttp_conn *c, int close_after) {
    c->in_flight = 0;
    c->requests++;
    c->server->stats.requests++;
    c->rstart += c->parser.msg_len;
    uvhttp_parser_reset(&c->parser);
    if (close_after) c->closing = 1;
    if (c->in_process) return;
    /* Sent from outside a read callback (a handler that answered later). */
    if (!c->closing && !c->writing) start_reading(c);
    process(c);
}

static void process(uvhttp_conn *c) {
    if (c->in_process) return;
    c->in_process = 1;
    while (!c->in_flight && !c->closing && !c->closed && !c->writing) {
        uint32_t avail = c->rlen - c->rstart;
        if (avail == 0) break;
        if (uvhttp_parser_idle(&c->parser)) c->msg_start = now_ms(c);
        int r = uvhttp_parser_execute(&c->parser, c->rbuf + c->rstart, avail);
        if (r == UVHTTP_PARSE_AGAIN) break;
        if (r == UVHTTP_PARSE_HEAD) {
            if (out_append(&c->out, CONTINUE_100, sizeof CONTINUE_100 - 1) != 0) conn_close(c);
            continue;
        }
        if (r == UVHTTP_PARSE_ERROR) {
            c->server->stats.bad_requests++;
            conn_send_error(c, c->parser.error_status, 0);
            break;
        }
        dispatch(c);
    }
    if (c->rstart == c->rlen && !c->in_flight) c->rstart = c->rlen = 0;
    c->in_process = 0;
    flush(c);
}

/* -- writing and closing ---------------------------------------------------------------- */

static void on_shutdown(uv_shutdown_t *req, int status) {
    uvhttp_conn *c = req->handle->data;
    if (status < 0 && !c->closed) conn_close(c);
}

/* After the last response: send FIN, then read and discard until the peer closes (or the
 * linger time passes), so that unread request bytes do not turn our close into a reset that
 * could destroy the response in flight. */
static void begin_linger(uvhttp_conn *c) {
    c->lingering = 1;
    c->linger_start = now_ms(c);
    c->rstart = c->rlen = 0;
    if (uv_shutdown(&c->sreq, (uv_stream_t *)&c->tcp, on_shutdown) != 0) {
        conn_close(c);
        return;
    }
    start_reading(c);
}

static void on_write(uv_write_t *req, int status) {
    uvhttp_conn *c = req->handle->data;
    c->writing = 0;
#ifdef UVHTTP_WITH_TLS
    if (c->tls) tls_tx_clear(c->tls);
#endif
    out_reset(&c->wout);
    if (c->closed) return;
    if (status < 0) {
        conn_close(c);
        return;
    }
    c->last_active = now_ms(c);
    if (!c->in_flight && !c->closing) start_reading(c);
    process(c);
}

static void flush(uvhttp_conn *c) {
    uv_buf_t small[32], *bufs = small;
    unsigned n = 0, i = 0;
    size_t total = 0;
    if (c->writing || c->closed) return;
#ifdef UVHTTP_WITH_TLS
    if (c->tls) {
        for (uint32_t k = 0; k < c->out.n; k++) {
            const out_seg *s = &c->out.segs[k];
            if (tls_write(c->tls, s->ref ? s->ref : c->out.buf + s->off, s->len) != 0) {
                conn_close(c);
                return;
            }
        }
        out_reset(&c->out);
        char *tx = tls_tx(c->tls, &total);
        if (total) small[n++] = uv_buf_init(tx, (unsigned)total);
    } else
#endif
    {
        if (c->out.n > 32 && (bufs = malloc(c->out.n * sizeof *bufs)) == NULL) {
            conn_close(c);
            return;
        }
        for (; n < c->out.n; n++) {
            const out_seg *s = &c->out.segs[n];
            bufs[n] = uv_buf_init(s->ref ? (char *)s->ref : c->out.buf + s->off, s->len);
            total += s->len;
        }
    }
    if (n == 0) {
        if (c->closing && !c->lingering) begin_linger(c);
        return;
    }
    int r = uv_try_write((uv_stream_t *)&c->tcp, bufs, n);
    if (r >= 0 && (size_t)r == total) {
#ifdef UVHTTP_WITH_TLS
        if (c->tls) tls_tx_clear(c->tls);
#endif
        out_reset(&c->out);
        if (c->closing) begin_linger(c);
    } else if (r < 0 && r != UV_EAGAIN) {
        conn_close(c);
    } else {
        size_t skip = r > 0 ? (size_t)r : 0;
        while (skip >= bufs[i].len) skip -= bufs[i++].len;
        bufs[i].base += skip;
        bufs[i].len -= skip;
        if (!c->tls) { /* the pending write keeps reading these bytes: queue new ones apart */
            outbuf t = c->wout;
            c->wout = c->out;
            c->out = t;
            out_reset(&c->out);
        }
        if (uv_write(&c->wreq, (uv_stream_t *)&c->tcp, bufs + i, n - i, on_write) != 0) {
            conn_close(c);
        } else {
            c->writing = 1;
            stop_reading(c);
        }
    }
    if (bufs != small) free(bufs);
}

/* -- timeouts --------------------------------------------------------------------------- */

void conn_sweep(uvhttp_conn *c, uint64_t now) {
    const uvhttp_config *cfg = &c->server->cfg;
    if (c->closed || c->in_flight) return;
    if (c->lingering) {
        if (now - c->linger_start >= c->server->linger_ms) conn_close(c);
    } else if (c->writing) {
        if (now - c->last_active >= cfg->request_timeout_ms) {
            c->server->stats.timeouts++;
            conn_close(c);
        }
    } else if (!uvhttp_parser_idle(&c->parser) || c->rlen > c->rstart) {
        if (now - c->msg_start >= cfg->request_timeout_ms) {
            c->server->stats.timeouts++;
            conn_send_error(c, 408, 0);
        }
    } else if (now - c->last_active >= cfg->keepalive_timeout_ms) {
        conn_close(c);
    }
}

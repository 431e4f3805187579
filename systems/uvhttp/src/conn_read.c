/* A connection's read path: start and stop reading, the read buffer (compacted, or grown up
 * to the limits) and the read callback (plain or through TLS) that hands the bytes on to
 * conn_process(). */
#include <stdlib.h>
#include <string.h>

#include "conn_internal.h"

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf);

void conn_start_reading(uvhttp_conn *c) {
    if (c->reading || c->closed) return;
    if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) != 0) {
        conn_close(c);
        return;
    }
    c->reading = 1;
}

void conn_stop_reading(uvhttp_conn *c) {
    if (!c->reading) return;
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = 0;
}

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
        conn_process(c);
        return;
    }
#endif
    c->rlen += (uint32_t)nread;
    conn_process(c);
}

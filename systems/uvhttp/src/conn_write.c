/* A connection's write path: the queued responses go out with one uv_try_write (writev);
 * only a partial write falls back to uv_write. After the last response, the lingering close. */
#include <stdlib.h>

#include "conn_internal.h"

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
    conn_start_reading(c);
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
    if (!c->in_flight && !c->closing) conn_start_reading(c);
    conn_process(c);
}

void conn_flush(uvhttp_conn *c) {
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
            conn_stop_reading(c);
        }
    }
    if (bufs != small) free(bufs);
}

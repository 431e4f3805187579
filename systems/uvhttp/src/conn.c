/* One client connection: read, parse, dispatch, write (plain or TLS), keep-alive, close.
 *
 * The hot path per request is one read(2), the parse, the handler and one writev(2) through
 * uv_try_write: responses of every request found in one read (pipelining) go out together.
 * Only a partial write falls back to uv_write; reading then pauses until it completes.
 *
 * This file: accept, close, free and the timeouts. Reading is in conn_read.c, parsing and
 * dispatch in conn_dispatch.c, writing and the lingering close in conn_write.c. */
#include <stdlib.h>

#include "conn_internal.h"

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
    conn_start_reading(c);
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

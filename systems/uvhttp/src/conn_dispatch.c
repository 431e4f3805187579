/* A connection's dispatch: parse the buffered requests (pipelining), answer 100-continue,
 * route to the handler or answer with a status (errors, 404, 405), and go on to the next
 * request once a response was queued. */
#include <string.h>

#include "conn_internal.h"

static const char CONTINUE_100[] = "HTTP/1.1 100 Continue\r\n\r\n";

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
    else conn_stop_reading(c); /* the handler answers later */
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
    if (!c->closing && !c->writing) conn_start_reading(c);
    conn_process(c);
}

void conn_process(uvhttp_conn *c) {
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
    conn_flush(c);
}

/* The server: listener, connection list, the sweep timer (timeouts, Date), stop and free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

static void on_handle_close(uv_handle_t *h) { server_handle_closed(h->data); }

void server_handle_closed(uvhttp_server *s) {
    s->handles_open--;
    if (s->free_pending && s->handles_open == 0) free(s);
}

void server_refresh_date(uvhttp_server *s) {
    static const char days[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    time_t t = time(NULL);
    struct tm tm;
    if ((int64_t)t == s->date_sec || gmtime_r(&t, &tm) == NULL) return;
    s->date_sec = (int64_t)t;
    int n = snprintf(s->date, sizeof s->date, "Date: %s, %02d %s %04d %02d:%02d:%02d GMT\r\n",
                     days[tm.tm_wday % 7], tm.tm_mday, months[tm.tm_mon % 12], tm.tm_year + 1900,
                     tm.tm_hour, tm.tm_min, tm.tm_sec);
    s->date_len = n > 0 && (size_t)n < sizeof s->date ? (uint32_t)n : 0;
}

static void on_sweep(uv_timer_t *t) {
    uvhttp_server *s = t->data;
    uint64_t now = uv_now(s->loop);
    server_refresh_date(s);
    for (uvhttp_conn *c = s->conns, *next; c; c = next) {
        next = c->next;
        conn_sweep(c, now);
    }
}

uvhttp_server *uvhttp_server_new(uv_loop_t *loop, const uvhttp_config *cfg, int *err) {
    uvhttp_config conf;
    int rc = 0;
    if (cfg) conf = *cfg;
    else uvhttp_config_init(&conf);
    uvhttp_server *s = NULL;
    if (loop == NULL || (rc = uvhttp_config_validate(&conf, NULL, 0)) != 0) {
        rc = rc ? rc : UV_EINVAL;
    } else if ((s = calloc(1, sizeof *s)) == NULL) {
        rc = UV_ENOMEM;
    }
    if (err) *err = rc;
    if (s == NULL) return NULL;
    s->loop = loop;
    s->cfg = conf;
    s->limits = (uvhttp_parser_limits){conf.max_header_size, conf.max_headers,
                                       conf.max_body_size};
    s->linger_ms = conf.keepalive_timeout_ms < 2000 ? conf.keepalive_timeout_ms : 2000;
    uv_tcp_init(loop, &s->listener);
    s->listener.data = s;
    uv_timer_init(loop, &s->sweep);
    s->sweep.data = s;
    s->handles_open = 2;
    server_refresh_date(s);
    return s;
}

int uvhttp_server_set_router(uvhttp_server *s, uvhttp_router *router) {
    if (s == NULL || router == NULL) return UV_EINVAL;
    s->router = router;
    return 0;
}

int uvhttp_server_set_handler(uvhttp_server *s, uvhttp_handler fn, void *data) {
    if (s == NULL || fn == NULL) return UV_EINVAL;
    s->handler = fn;
    s->handler_data = data;
    return 0;
}

static void on_connection(uv_stream_t *listener, int status) {
    if (status == 0) conn_accept(listener->data);
}

int uvhttp_server_listen(uvhttp_server *s, const char *host, int port) {
    struct sockaddr_storage addr;
    int rc;
    if (s == NULL || host == NULL || port < 0 || port > 65535 || s->stopped) return UV_EINVAL;
    if (s->listening) return UV_EALREADY;
    if (uv_ip4_addr(host, port, (struct sockaddr_in *)&addr) != 0 &&
        uv_ip6_addr(host, port, (struct sockaddr_in6 *)&addr) != 0)
        return UV_EINVAL;
    if ((rc = uv_tcp_bind(&s->listener, (const struct sockaddr *)&addr, 0)) != 0) return rc;
    if ((rc = uv_listen((uv_stream_t *)&s->listener, s->cfg.backlog, on_connection)) != 0)
        return rc;
    s->listening = 1;
    uint64_t tick = s->cfg.keepalive_timeout_ms < s->cfg.request_timeout_ms
                        ? s->cfg.keepalive_timeout_ms
                        : s->cfg.request_timeout_ms;
    tick = tick / 4 < 10 ? 10 : tick / 4 > 1000 ? 1000 : tick / 4;
    return uv_timer_start(&s->sweep, on_sweep, tick, tick);
}

int uvhttp_server_port(const uvhttp_server *s) {
    struct sockaddr_storage addr;
    int len = sizeof addr;
    if (s == NULL || !s->listening) return UV_EINVAL;
    int rc = uv_tcp_getsockname(&s->listener, (struct sockaddr *)&addr, &len);
    if (rc != 0) return rc;
    if (addr.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&addr)->sin6_port);
    return ntohs(((struct sockaddr_in *)&addr)->sin_port);
}

void uvhttp_server_stop(uvhttp_server *s) {
    if (s == NULL || s->stopped) return;
    s->stopped = 1;
    uv_close((uv_handle_t *)&s->listener, on_handle_close);
    uv_timer_stop(&s->sweep);
    uv_close((uv_handle_t *)&s->sweep, on_handle_close);
    while (s->conns) conn_close(s->conns);
}

void uvhttp_server_free(uvhttp_server *s) {
    if (s == NULL) return;
    uvhttp_server_stop(s);
    s->free_pending = 1;
    if (s->handles_open == 0) free(s);
}

void uvhttp_server_get_stats(const uvhttp_server *s, uvhttp_server_stats *out) {
    if (s && out) *out = s->stats;
}

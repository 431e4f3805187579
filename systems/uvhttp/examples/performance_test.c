/* performance_test: the benchmark server of the uvhttp standard.
 *
 *   performance_test [--host 127.0.0.1] [--port 8080] [--max-requests 1000]
 *                    [--tls-port 8443 --cert cert.pem --key key.pem]
 *
 * Every response is prebuilt at startup (true Content-Length everywhere); nothing is logged
 * while serving. One line is printed once listening; SIGINT/SIGTERM stop it cleanly. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "uvhttp/uvhttp.h"

#ifdef UVHTTP_WITH_MIMALLOC
#include <mimalloc.h>
#endif

#define MAX_ROUTES 24
#define CORS_METHODS "GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS"

typedef struct app {
    uv_loop_t *loop;
    uvhttp_server *servers[2];
    uvhttp_router *router;
    uvhttp_tls_context *tls;
    uvhttp_prebuilt *pre[MAX_ROUTES];
    int npre;
    char *bodies[4];
    uv_signal_t sigint, sigterm;
} app;

static int send_prebuilt(uvhttp_request *req, uvhttp_response *res, void *data) {
    (void)req;
    return uvhttp_response_send_prebuilt(res, data);
}

/* POST /echo: the request body back (exercises the copying response path). */
static int echo(uvhttp_request *req, uvhttp_response *res, void *data) {
    size_t n;
    const char *body = uvhttp_request_body(req, &n);
    (void)data;
    uvhttp_response_set_header(res, "Content-Type", "application/octet-stream");
    uvhttp_response_set_body(res, body, n);
    return uvhttp_response_send(res);
}

static char *pattern(size_t n) {
    static const char text[] = "uvhttp performance_test payload 0123456789\n";
    char *b = malloc(n);
    for (size_t i = 0; b && i < n; i++) b[i] = text[i % (sizeof text - 1)];
    return b;
}

static int route(app *a, const char *path, int status, const char *const *fields, const void *body,
                 size_t len) {
    uvhttp_prebuilt *pre = uvhttp_prebuilt_new(status, fields, body, len, UVHTTP_PREBUILT_STATIC_BODY);
    if (pre == NULL || a->npre == MAX_ROUTES) return UV_ENOMEM;
    a->pre[a->npre++] = pre;
    return uvhttp_router_add_route(a->router, path, send_prebuilt, pre);
}

static int build_routes(app *a) {
    static const char *const text[] = {"Content-Type", "text/plain", NULL};
    static const char *const json[] = {"Content-Type", "application/json", NULL};
    static const char *const cors[] = {"Content-Type", "text/plain",
                                       "Access-Control-Allow-Origin", "*",
                                       "Access-Control-Allow-Methods", CORS_METHODS,
                                       "Access-Control-Allow-Headers", "Content-Type", NULL};
    static const char *const limited[] = {"Content-Type", "application/json", "Retry-After", "60",
                                          NULL};
    static const size_t sizes[4] = {1024, 10240, 102400, 1048576};
    static const struct { const char *path; int status; const char *body; } api[] = {
        {"/api", 200, "{\"status\":\"ok\"}"},
        {"/api/put", 200, "{\"status\":\"updated\"}"},
        {"/api/delete", 200, "{\"status\":\"deleted\"}"},
        {"/api/patch", 200, "{\"status\":\"patched\"}"},
        {"/error/notfound", 404, "{\"error\":\"Not Found\"}"},
        {"/error/badrequest", 400, "{\"error\":\"Bad Request\"}"},
        {"/error/server", 500, "{\"error\":\"Internal Server Error\"}"},
    };
    int rc = 0;
    for (int i = 0; i < 4; i++)
        if ((a->bodies[i] = pattern(sizes[i])) == NULL) return UV_ENOMEM;
    rc |= route(a, "/", 200, text, "OK", 2);
    rc |= route(a, "/small", 200, text, a->bodies[0], sizes[0]);
    rc |= route(a, "/medium", 200, text, a->bodies[1], sizes[1]);
    rc |= route(a, "/large", 200, text, a->bodies[2], sizes[2]);
    rc |= route(a, "/large/100kb", 200, text, a->bodies[2], sizes[2]);
    rc |= route(a, "/large/1mb", 200, text, a->bodies[3], sizes[3]);
    for (size_t i = 0; i < sizeof api / sizeof *api; i++)
        rc |= route(a, api[i].path, api[i].status, json, api[i].body, strlen(api[i].body));
    rc |= route(a, "/error/ratelimit", 429, limited, "{\"error\":\"Too Many Requests\"}", 29);
    /* wrk 4.1 waits for a body after HEAD when Content-Length > 0: this resource is empty. */
    rc |= route(a, "/api/head", 200, text, NULL, 0);
    rc |= route(a, "/api/options", 200, cors, NULL, 0);
    rc |= uvhttp_router_add_route_method(a->router, UVHTTP_POST, "/echo", echo, NULL);
    return rc ? UV_EINVAL : 0;
}

static void on_signal(uv_signal_t *sig, int signum) {
    app *a = sig->data;
    (void)signum;
    for (int i = 0; i < 2; i++) uvhttp_server_stop(a->servers[i]);
    uv_close((uv_handle_t *)&a->sigint, NULL);
    uv_close((uv_handle_t *)&a->sigterm, NULL);
}

static uvhttp_server *start(app *a, const char *host, int port, uvhttp_tls_context *tls,
                            uint32_t max_requests) {
    uvhttp_config cfg;
    int rc;
    uvhttp_config_init(&cfg);
    cfg.max_connections = 10000;
    cfg.max_requests_per_connection = max_requests;
    cfg.backlog = 8192;
    cfg.max_body_size = 10u << 20;
    cfg.read_buffer_size = 16384;
    cfg.write_buffer_size = 16384;
    cfg.keepalive_timeout_ms = 60000;
    cfg.request_timeout_ms = 120000;
    uvhttp_server *s = uvhttp_server_new(a->loop, &cfg, &rc);
    if (s == NULL || uvhttp_server_set_router(s, a->router) != 0 ||
        (tls && uvhttp_server_set_tls(s, tls) != 0) ||
        (rc = uvhttp_server_listen(s, host, port)) != 0) {
        fprintf(stderr, "performance_test: cannot listen on %s:%d: %s\n", host, port,
                uv_strerror(rc));
        uvhttp_server_free(s);
        return NULL;
    }
    return s;
}

static int usage(void) {
    fprintf(stderr, "usage: performance_test [--host H] [--port P] [--max-requests N] "
                    "[--tls-port P --cert FILE --key FILE]\n");
    return 2;
}

int main(int argc, char **argv) {
    const char *host = "127.0.0.1", *cert = NULL, *key = NULL;
    int port = 8080, tls_port = -1, status = 0;
    long max_requests = 1000;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v && !strcmp(argv[i], "--host")) host = argv[++i];
        else if (v && !strcmp(argv[i], "--port")) port = atoi(argv[++i]);
        else if (v && !strcmp(argv[i], "--tls-port")) tls_port = atoi(argv[++i]);
        else if (v && !strcmp(argv[i], "--cert")) cert = argv[++i];
        else if (v && !strcmp(argv[i], "--key")) key = argv[++i];
        else if (v && !strcmp(argv[i], "--max-requests")) max_requests = atol(argv[++i]);
        else return usage();
    }
    if (port < 0 || port > 65535 || tls_port > 65535 || max_requests < 0) return usage();
    signal(SIGPIPE, SIG_IGN);
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    app a = {.loop = uv_default_loop()};
    a.router = uvhttp_router_new();
    if (a.router == NULL || build_routes(&a) != 0) {
        fprintf(stderr, "performance_test: cannot build the routes\n");
        return 1;
    }
    if (tls_port >= 0) {
        char err[256];
        a.tls = uvhttp_tls_context_new(cert, key, err, sizeof err);
        if (a.tls == NULL) {
            fprintf(stderr, "performance_test: TLS: %s\n", err);
            status = 1;
        }
    }
    if (status == 0) a.servers[0] = start(&a, host, port, NULL, (uint32_t)max_requests);
    if (a.servers[0] && a.tls) a.servers[1] = start(&a, host, tls_port, a.tls, (uint32_t)max_requests);
    if (a.servers[0] == NULL || (a.tls && a.servers[1] == NULL)) status = 1;
    if (status == 0) {
        uv_signal_init(a.loop, &a.sigint);
        uv_signal_init(a.loop, &a.sigterm);
        a.sigint.data = a.sigterm.data = &a;
        uv_signal_start(&a.sigint, on_signal, SIGINT);
        uv_signal_start(&a.sigterm, on_signal, SIGTERM);
#ifdef UVHTTP_WITH_MIMALLOC
        const char *allocator = "mimalloc";
#else
        const char *allocator = "libc";
#endif
        printf("uvhttp performance_test listening on http://%s:%d", host,
               uvhttp_server_port(a.servers[0]));
        if (a.servers[1]) printf(" and https://%s:%d", host, uvhttp_server_port(a.servers[1]));
        printf(" (allocator %s, tls %s)\n", allocator, uvhttp_tls_available() ? "built" : "off");
        fflush(stdout);
        uv_run(a.loop, UV_RUN_DEFAULT);
    }
    for (int i = 0; i < 2; i++) uvhttp_server_free(a.servers[i]);
    uv_run(a.loop, UV_RUN_DEFAULT); /* let the close callbacks run */
    uvhttp_router_free(a.router);
    for (int i = 0; i < a.npre; i++) uvhttp_prebuilt_free(a.pre[i]);
    for (int i = 0; i < 4; i++) free(a.bodies[i]);
    uvhttp_tls_context_free(a.tls);
    uv_loop_close(a.loop);
#ifdef UVHTTP_WITH_MIMALLOC
    (void)mi_version(); /* keeps the mimalloc link (and its malloc override) */
#endif
    return status;
}

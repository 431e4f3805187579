/* The server: listens on one address of a libuv loop and answers HTTP/1.1 on it. */
#ifndef UVHTTP_SERVER_H
#define UVHTTP_SERVER_H

#include <uv.h>

#include "uvhttp/config.h"
#include "uvhttp/router.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uvhttp_server uvhttp_server;

typedef struct uvhttp_server_stats {
    uint64_t requests;      /* responses sent */
    uint64_t accepted;      /* connections accepted */
    uint64_t rejected;      /* closed at once: max_connections reached */
    uint64_t bad_requests;  /* answered 4xx/5xx by the parser's verdict */
    uint64_t timeouts;      /* answered 408 or closed for a stalled write */
    uint32_t active;        /* open connections now */
} uvhttp_server_stats;

/* A server on `loop` with a copy of `cfg` (NULL: defaults). NULL on error, with the reason in
 * *err (UV_EINVAL: invalid config, UV_ENOMEM). */
uvhttp_server *uvhttp_server_new(uv_loop_t *loop, const uvhttp_config *cfg, int *err);

/* Dispatch requests through `router` (not owned; it must outlive the server). */
int uvhttp_server_set_router(uvhttp_server *s, uvhttp_router *router);

/* Send every request to one handler instead of a router. */
int uvhttp_server_set_handler(uvhttp_server *s, uvhttp_handler fn, void *data);

/* Bind and listen on host:port (IPv4 or IPv6 literal; port 0 picks a free one). */
int uvhttp_server_listen(uvhttp_server *s, const char *host, int port);

/* The bound port, or a negative error before listen. */
int uvhttp_server_port(const uvhttp_server *s);

/* Stop listening and close every connection (in-flight responses are dropped). */
void uvhttp_server_stop(uvhttp_server *s);

/* Stop, then release the server once the loop has run its close callbacks: run the loop
 * (uv_run) after this call before closing the loop. */
void uvhttp_server_free(uvhttp_server *s);

void uvhttp_server_get_stats(const uvhttp_server *s, uvhttp_server_stats *out);

/* Writing to a socket the peer closed raises SIGPIPE: a program using uvhttp should ignore
 * it (signal(SIGPIPE, SIG_IGN)); libuv does not. */

#ifdef __cplusplus
}
#endif

#endif

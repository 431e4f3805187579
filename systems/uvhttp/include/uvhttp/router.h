/* Exact-path router: per-method routes, any-method routes and a fallback. */
#ifndef UVHTTP_ROUTER_H
#define UVHTTP_ROUTER_H

#include "uvhttp/http.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uvhttp_router uvhttp_router;

typedef struct uvhttp_route_match {
    uvhttp_handler fn;
    void *data;
    int status;       /* 0 found, 404 unknown path, 405 path known but not for this method */
    unsigned allowed; /* for 405: bit (1u << method) for each method the path has */
} uvhttp_route_match;

uvhttp_router *uvhttp_router_new(void);
void uvhttp_router_free(uvhttp_router *r);

/* Route `path` (must start with '/') for every method. UV_EEXIST when already routed. */
int uvhttp_router_add_route(uvhttp_router *r, const char *path, uvhttp_handler fn, void *data);
/* Route `path` for one method; HEAD falls back to the GET route when it has none. */
int uvhttp_router_add_route_method(uvhttp_router *r, uvhttp_method method, const char *path,
                                   uvhttp_handler fn, void *data);
/* The handler for paths no route names (instead of 404). */
int uvhttp_router_set_fallback(uvhttp_router *r, uvhttp_handler fn, void *data);
/* Find the handler of (method, path); fills `out` and returns out->status. */
int uvhttp_router_match(const uvhttp_router *r, uvhttp_method method, const char *path,
                        size_t len, uvhttp_route_match *out);
/* Number of distinct paths. */
size_t uvhttp_router_size(const uvhttp_router *r);

#ifdef __cplusplus
}
#endif

#endif

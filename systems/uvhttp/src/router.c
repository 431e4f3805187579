/* Exact-path router: an open-addressing hash table of paths, each with per-method slots. */
#include "uvhttp/router.h"

#include <stdlib.h>
#include <string.h>
#include <uv.h>

#define ANY UVHTTP_METHOD_UNKNOWN /* slot 0 holds the any-method route */
#define MAX_PATH 4096

typedef struct entry {
    char *path; /* NULL: empty slot */
    uint32_t len;
    uint32_t hash;
    uvhttp_handler fn[UVHTTP_METHOD_COUNT];
    void *data[UVHTTP_METHOD_COUNT];
} entry;

struct uvhttp_router {
    entry *slots;
    size_t cap; /* power of two */
    size_t count;
    uvhttp_handler fallback;
    void *fallback_data;
};

static uint32_t fnv1a(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

uvhttp_router *uvhttp_router_new(void) {
    uvhttp_router *r = calloc(1, sizeof *r);
    if (r == NULL) return NULL;
    r->cap = 16;
    r->slots = calloc(r->cap, sizeof *r->slots);
    if (r->slots == NULL) {
        free(r);
        return NULL;
    }
    return r;
}

void uvhttp_router_free(uvhttp_router *r) {
    if (r == NULL) return;
    for (size_t i = 0; i < r->cap; i++) free(r->slots[i].path);
    free(r->slots);
    free(r);
}

static entry *find(const uvhttp_router *r, const char *path, size_t len, uint32_t h) {
    for (size_t i = h & (r->cap - 1);; i = (i + 1) & (r->cap - 1)) {
        entry *e = &r->slots[i];
        if (e->path == NULL) return e;
        if (e->hash == h && e->len == len && memcmp(e->path, path, len) == 0) return e;
    }
}

static int grow(uvhttp_router *r) {
    entry *old = r->slots;
    size_t old_cap = r->cap;
    entry *slots = calloc(old_cap * 2, sizeof *slots);
    if (slots == NULL) return UV_ENOMEM;
    r->slots = slots;
    r->cap = old_cap * 2;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].path) *find(r, old[i].path, old[i].len, old[i].hash) = old[i];
    free(old);
    return 0;
}

static int valid_path(const char *path) {
    size_t n = path ? strlen(path) : 0;
    if (n == 0 || n > MAX_PATH || path[0] != '/') return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)path[i] <= ' ' || (unsigned char)path[i] >= 0x7f || path[i] == '?' ||
            path[i] == '#')
            return 0;
    return 1;
}

int uvhttp_router_add_route_method(uvhttp_router *r, uvhttp_method method, const char *path,
                                   uvhttp_handler fn, void *data) {
    if (r == NULL || fn == NULL || !valid_path(path) || (unsigned)method >= UVHTTP_METHOD_COUNT)
        return UV_EINVAL;
    if ((r->count + 1) * 2 > r->cap && grow(r) != 0) return UV_ENOMEM;
    size_t len = strlen(path);
    uint32_t h = fnv1a(path, len);
    entry *e = find(r, path, len, h);
    if (e->path == NULL) {
        e->path = malloc(len + 1);
        if (e->path == NULL) return UV_ENOMEM;
        memcpy(e->path, path, len + 1);
        e->len = (uint32_t)len;
        e->hash = h;
        r->count++;
    }
    if (e->fn[method] != NULL) return UV_EEXIST;
    e->fn[method] = fn;
    e->data[method] = data;
    return 0;
}

int uvhttp_router_add_route(uvhttp_router *r, const char *path, uvhttp_handler fn, void *data) {
    return uvhttp_router_add_route_method(r, ANY, path, fn, data);
}

int uvhttp_router_set_fallback(uvhttp_router *r, uvhttp_handler fn, void *data) {
    if (r == NULL || fn == NULL) return UV_EINVAL;
    r->fallback = fn;
    r->fallback_data = data;
    return 0;
}

int uvhttp_router_match(const uvhttp_router *r, uvhttp_method method, const char *path,
                        size_t len, uvhttp_route_match *out) {
    memset(out, 0, sizeof *out);
    const entry *e = find(r, path, len, fnv1a(path, len));
    if (e->path == NULL) {
        out->fn = r->fallback;
        out->data = r->fallback_data;
        out->status = r->fallback ? 0 : 404;
        return out->status;
    }
    int m = (unsigned)method < UVHTTP_METHOD_COUNT && e->fn[method] ? (int)method
            : method == UVHTTP_HEAD && e->fn[UVHTTP_GET]            ? UVHTTP_GET
            : e->fn[ANY]                                              ? ANY
                                                                      : -1;
    if (m < 0) {
        for (int i = 1; i < UVHTTP_METHOD_COUNT; i++)
            if (e->fn[i]) out->allowed |= 1u << i;
        if (out->allowed & (1u << UVHTTP_GET)) out->allowed |= 1u << UVHTTP_HEAD;
        out->status = 405;
        return 405;
    }
    out->fn = e->fn[m];
    out->data = e->data[m];
    return 0;
}

size_t uvhttp_router_size(const uvhttp_router *r) { return r ? r->count : 0; }

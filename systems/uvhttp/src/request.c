/* Request accessors: method, version, path, query, fields and body of the current request,
 * all pointing into the connection's read buffer. */
#include <string.h>

#include "response_internal.h"

static const uvhttp_parser *P(const uvhttp_request *req) { return &req->conn->parser; }

uvhttp_method uvhttp_request_method(const uvhttp_request *req) { return P(req)->method; }

int uvhttp_request_version_minor(const uvhttp_request *req) { return P(req)->version_minor; }

const char *uvhttp_request_path(const uvhttp_request *req, size_t *len) {
    const uvhttp_parser *p = P(req);
    if (p->path.len == 0) {
        *len = 1;
        return "/";
    }
    *len = p->path.len;
    return req->base + p->path.off;
}

const char *uvhttp_request_query(const uvhttp_request *req, size_t *len) {
    *len = P(req)->query.len;
    return req->base + P(req)->query.off;
}

const char *uvhttp_request_header(const uvhttp_request *req, const char *name, size_t *len) {
    const uvhttp_parser *p = P(req);
    size_t n = strlen(name);
    for (uint32_t i = 0; i < p->nheaders; i++) {
        const uvhttp_header *h = &p->headers[i];
        if (h->name.len == n && ieq(req->base + h->name.off, name, n)) {
            if (len) *len = h->value.len;
            return req->base + h->value.off;
        }
    }
    return NULL;
}

size_t uvhttp_request_header_count(const uvhttp_request *req) { return P(req)->nheaders; }

int uvhttp_request_header_at(const uvhttp_request *req, size_t i, const char **name,
                             size_t *name_len, const char **value, size_t *value_len) {
    const uvhttp_parser *p = P(req);
    if (i >= p->nheaders) return UV_EINVAL;
    *name = req->base + p->headers[i].name.off;
    *name_len = p->headers[i].name.len;
    *value = req->base + p->headers[i].value.off;
    *value_len = p->headers[i].value.len;
    return 0;
}

const char *uvhttp_request_body(const uvhttp_request *req, size_t *len) {
    *len = P(req)->body_len;
    return req->base + P(req)->body_off;
}

int uvhttp_request_keep_alive(const uvhttp_request *req) { return !response_closes(req->conn); }

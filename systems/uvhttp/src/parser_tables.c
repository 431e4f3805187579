/* The request parser's lookup tables (byte classes, method names) and its init and reset. */
#include <string.h>

#include "parser_internal.h"

const unsigned char parser_cls[256] = {
    0,  0,  0,  0,  0,  0,  0,  0,  0,  2,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    2,  7,  2,  3,  7,  7,  7,  7,  6,  6,  7,  7,  6,  7,  7,  6,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 6,  6,  2,  6,  2,  6,
    6,  15, 15, 15, 15, 15, 15, 7,  7,  7,  7,  7,  7,  7,  7,  7,
    7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  6,  2,  6,  3,  7,
    3,  15, 15, 15, 15, 15, 15, 7,  7,  7,  7,  7,  7,  7,  7,  7,
    7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  2,  3,  2,  7,  0,
    2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
    2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
    2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
    2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
    2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
    2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
    2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
    2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
};

static const char *const METHODS[UVHTTP_METHOD_COUNT] = {
    "UNKNOWN", "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE",
};

const char *uvhttp_method_name(uvhttp_method method) {
    return (unsigned)method < UVHTTP_METHOD_COUNT ? METHODS[method] : METHODS[0];
}

uvhttp_method parser_method_of(const char *s, uint32_t n) {
    for (int m = UVHTTP_GET; m < UVHTTP_METHOD_COUNT; m++)
        if (strlen(METHODS[m]) == n && memcmp(METHODS[m], s, n) == 0) return (uvhttp_method)m;
    return UVHTTP_METHOD_UNKNOWN;
}

void uvhttp_parser_init(uvhttp_parser *p, const uvhttp_parser_limits *limits) {
    memset(p, 0, sizeof *p);
    p->limits = *limits;
    if (p->limits.max_headers > UVHTTP_MAX_HEADERS) p->limits.max_headers = UVHTTP_MAX_HEADERS;
    if (p->limits.max_body > UVHTTP_BODY_LIMIT) p->limits.max_body = UVHTTP_BODY_LIMIT;
}

void uvhttp_parser_reset(uvhttp_parser *p) {
    /* Only the fields a message sets; the header array is overwritten as it fills. */
    p->method = UVHTTP_METHOD_UNKNOWN;
    p->version_minor = 0;
    p->flags = 0;
    p->target = p->path = p->query = (uvhttp_span){0, 0};
    p->nheaders = 0;
    p->content_length = 0;
    p->head_len = p->body_off = p->body_len = p->msg_len = 0;
    p->error_status = 0;
    p->error_reason = NULL;
    p->state = S_START;
    p->head_reported = 0;
    p->hosts = 0;
    p->pos = p->mark = p->mark2 = 0;
    p->chunk_left = 0;
}

int uvhttp_parser_idle(const uvhttp_parser *p) { return p->state == S_START && p->pos == 0; }

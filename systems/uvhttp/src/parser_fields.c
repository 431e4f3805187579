/* The request parser's field semantics: the request target split into path and query, the
 * header fields it acts on (Host, Expect, Connection, Content-Length, Transfer-Encoding) and
 * the checks at the end of the header section that choose the body framing. */
#include "parser_internal.h"

/* Case-insensitive comparison of `n` bytes with a lower-case literal. */
static int ieq(const char *a, const char *lit, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)a[i]) != lit[i]) return 0;
    return 1;
}

/* Split the request target into path and query; accepts origin-, absolute- and
 * asterisk-form (the latter for OPTIONS only). */
int parser_split_target(uvhttp_parser *p, const char *msg, uint32_t start, uint32_t end) {
    const char *t = msg + start;
    uint32_t len = end - start, path = start, q;
    p->target = (uvhttp_span){start, len};
    if (t[0] == '*' && len == 1) {
        if (p->method != UVHTTP_OPTIONS) return fail(p, 400, "'*' target outside OPTIONS");
        p->path = (uvhttp_span){start, 1};
        p->query = (uvhttp_span){end, 0};
        return 0;
    }
    if (t[0] != '/') {
        uint32_t scheme = len > 7 && ieq(t, "http://", 7) ? 7 : len > 8 && ieq(t, "https://", 8) ? 8 : 0;
        if (scheme == 0) return fail(p, 400, "bad request target");
        path = start + scheme;
        while (path < end && msg[path] != '/' && msg[path] != '?') path++;
        if (path == start + scheme) return fail(p, 400, "empty authority in request target");
    }
    for (q = path; q < end && msg[q] != '?'; q++) {
    }
    p->path = (uvhttp_span){path, q - path};
    p->query = q < end ? (uvhttp_span){q + 1, end - q - 1} : (uvhttp_span){end, 0};
    return 0;
}

static void connection_tokens(uvhttp_parser *p, const char *v, uint32_t n) {
    uint32_t i = 0;
    while (i < n) {
        while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ',')) i++;
        uint32_t s = i;
        while (i < n && v[i] != ',' && v[i] != ' ' && v[i] != '\t') i++;
        if (i - s == 5 && ieq(v + s, "close", 5)) p->flags |= UVHTTP_F_CONN_CLOSE;
        if (i - s == 10 && ieq(v + s, "keep-alive", 10)) p->flags |= UVHTTP_F_CONN_KEEP_ALIVE;
    }
}

static int content_length(uvhttp_parser *p, const char *v, uint32_t n) {
    uint64_t x = 0;
    if (n == 0) return fail(p, 400, "empty Content-Length");
    for (uint32_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9') return fail(p, 400, "bad Content-Length");
        x = x > UINT64_MAX / 20 ? UINT64_MAX / 2 : x * 10 + (uint64_t)(v[i] - '0');
    }
    if ((p->flags & UVHTTP_F_CONTENT_LENGTH) && x != p->content_length)
        return fail(p, 400, "conflicting Content-Length fields");
    p->flags |= UVHTTP_F_CONTENT_LENGTH;
    p->content_length = x;
    return 0;
}

/* Fields the parser acts on: Host, Expect, Connection, Content-Length, Transfer-Encoding. */
int parser_special_field(uvhttp_parser *p, const char *msg, const uvhttp_header *h) {
    const char *name = msg + h->name.off, *v = msg + h->value.off;
    uint32_t n = h->value.len;
    switch (h->name.len) {
    case 4:
        if (ieq(name, "host", 4) && ++p->hosts > 1) return fail(p, 400, "more than one Host");
        break;
    case 6:
        if (ieq(name, "expect", 6)) {
            if (n != 12 || !ieq(v, "100-continue", 12)) return fail(p, 417, "unsupported Expect");
            p->flags |= UVHTTP_F_EXPECT_CONTINUE;
        }
        break;
    case 10:
        if (ieq(name, "connection", 10)) connection_tokens(p, v, n);
        break;
    case 14:
        if (ieq(name, "content-length", 14)) return content_length(p, v, n);
        break;
    case 17:
        if (ieq(name, "transfer-encoding", 17)) {
            if ((p->flags & UVHTTP_F_CHUNKED) || n != 7 || !ieq(v, "chunked", 7))
                return fail(p, 501, "unsupported transfer coding");
            p->flags |= UVHTTP_F_CHUNKED;
        }
        break;
    default:
        break;
    }
    return 0;
}

/* The header section is complete: check it and choose how the body is framed. */
int parser_finish_head(uvhttp_parser *p) {
    uint32_t f = p->flags;
    if (p->version_minor == 1 && p->hosts != 1) return fail(p, 400, "HTTP/1.1 without Host");
    if ((f & UVHTTP_F_CHUNKED) && (f & UVHTTP_F_CONTENT_LENGTH))
        return fail(p, 400, "both Content-Length and Transfer-Encoding");
    if ((f & UVHTTP_F_CHUNKED) && p->version_minor == 0)
        return fail(p, 400, "Transfer-Encoding in HTTP/1.0");
    if (p->version_minor == 1 ? !(f & UVHTTP_F_CONN_CLOSE)
                              : (f & UVHTTP_F_CONN_KEEP_ALIVE) && !(f & UVHTTP_F_CONN_CLOSE))
        p->flags |= UVHTTP_F_KEEP_ALIVE;
    if (p->content_length > p->limits.max_body) return fail(p, 413, "body too large");
    if (p->version_minor == 0) p->flags &= ~UVHTTP_F_EXPECT_CONTINUE;
    if (f & UVHTTP_F_CHUNKED) {
        p->state = S_CHUNK_SIZE;
    } else if (p->content_length > 0) {
        p->state = S_BODY;
    } else {
        p->flags &= ~UVHTTP_F_EXPECT_CONTINUE;
        p->state = S_DONE;
    }
    return 0;
}

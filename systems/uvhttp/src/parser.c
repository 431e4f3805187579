/* The strict incremental request parser (see include/uvhttp/parser.h). */
#include "uvhttp/parser.h"

#include <string.h>

enum {
    /* header section: bounded by limits.max_header_bytes */
    S_START, S_START_LF, S_METHOD, S_TARGET, S_VERSION, S_LINE_LF,
    S_FIELD_START, S_FIELD_NAME, S_FIELD_OWS, S_FIELD_VALUE, S_FIELD_LF, S_HEAD_LF,
    /* body */
    S_BODY, S_CHUNK_SIZE, S_CHUNK_EXT, S_CHUNK_SIZE_LF, S_CHUNK_DATA, S_CHUNK_DATA_CR,
    S_CHUNK_DATA_LF,
    /* trailer section: bounded by limits.max_header_bytes as well */
    S_TRAILER_START, S_TRAILER_NAME, S_TRAILER_VALUE, S_TRAILER_LF, S_TRAILER_END_LF,
    S_DONE, S_ERROR
};

#define C_TOKEN 1u  /* tchar (RFC 9110 5.6.2) */
#define C_VALUE 2u  /* field-vchar, SP, HTAB, obs-text */
#define C_TARGET 4u /* RFC 3986 characters of a request target ('#' excluded) */
#define C_HEX 8u

static const unsigned char CLS[256] = {
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

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* Case-insensitive comparison of `n` bytes with a lower-case literal. */
static int ieq(const char *a, const char *lit, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)a[i]) != lit[i]) return 0;
    return 1;
}

static int fail(uvhttp_parser *p, uint16_t status, const char *reason) {
    p->state = S_ERROR;
    p->error_status = status;
    p->error_reason = reason;
    return UVHTTP_PARSE_ERROR;
}

static uvhttp_method method_of(const char *s, uint32_t n) {
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

/* Split the request target into path and query; accepts origin-, absolute- and
 * asterisk-form (the latter for OPTIONS only). */
static int split_target(uvhttp_parser *p, const char *msg, uint32_t start, uint32_t end) {
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
static int special_field(uvhttp_parser *p, const char *msg, const uvhttp_header *h) {
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
static int finish_head(uvhttp_parser *p) {
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

static int hexval(unsigned char c) { return c <= '9' ? c - '0' : lower(c) - 'a' + 10; }

static int done(uvhttp_parser *p, uint32_t pos) {
    p->pos = p->msg_len = pos;
    p->state = S_DONE;
    return UVHTTP_PARSE_DONE;
}

int uvhttp_parser_execute(uvhttp_parser *p, char *msg, size_t len) {
    const uint32_t n = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
    const uint32_t max_head = p->limits.max_header_bytes;
    const uint32_t stop = n < max_head ? n : max_head; /* inner scans of the header section */
    uint32_t pos = p->pos;
    if (p->state == S_DONE) return UVHTTP_PARSE_DONE;
    if (p->state == S_ERROR) return UVHTTP_PARSE_ERROR;
    while (pos < n) {
        unsigned char c = (unsigned char)msg[pos];
        if (p->state <= S_HEAD_LF && pos >= max_head)
            return p->state == S_TARGET ? fail(p, 414, "request target too long")
                                        : fail(p, 431, "header section too large");
        if (p->state >= S_TRAILER_START && pos - p->mark2 >= max_head)
            return fail(p, 431, "trailer section too large");
        switch (p->state) {
        case S_START:
            if (c == '\r') {
                p->state = S_START_LF;
            } else {
                if (!(CLS[c] & C_TOKEN)) return fail(p, 400, "bad method");
                p->mark = pos;
                p->state = S_METHOD;
            }
            pos++;
            break;
        case S_START_LF:
            if (c != '\n') return fail(p, 400, "bare CR");
            p->state = S_START;
            pos++;
            break;
        case S_METHOD:
            while (pos < stop && (CLS[(unsigned char)msg[pos]] & C_TOKEN)) pos++;
            if (pos == stop) break;
            if (msg[pos] != ' ') return fail(p, 400, "bad method");
            p->method = method_of(msg + p->mark, pos - p->mark);
            if (p->method == UVHTTP_METHOD_UNKNOWN || p->method == UVHTTP_CONNECT)
                return fail(p, 501, "method not implemented");
            p->mark = ++pos;
            p->state = S_TARGET;
            break;
        case S_TARGET:
            while (pos < stop && (CLS[(unsigned char)msg[pos]] & C_TARGET)) pos++;
            if (pos == stop) break;
            if (msg[pos] != ' ' || pos == p->mark) return fail(p, 400, "bad request target");
            if (split_target(p, msg, p->mark, pos) != 0) return UVHTTP_PARSE_ERROR;
            p->mark = ++pos;
            p->state = S_VERSION;
            break;
        case S_VERSION: {
            uint32_t i = pos - p->mark;
            if (i < 5 ? c != (unsigned char)"HTTP/"[i]
                : i == 6 ? c != '.'
                : i < 8 ? c < '0' || c > '9'
                        : c != '\r')
                return fail(p, 400, "bad HTTP version");
            if (i == 8) {
                if (msg[p->mark + 5] != '1' || msg[p->mark + 7] > '1')
                    return fail(p, 505, "HTTP version not supported");
                p->version_minor = (uint8_t)(msg[p->mark + 7] - '0');
                p->state = S_LINE_LF;
            }
            pos++;
            break;
        }
        case S_LINE_LF:
        case S_FIELD_LF:
        case S_HEAD_LF:
            if (c != '\n') return fail(p, 400, "bare CR");
            pos++;
            if (p->state == S_LINE_LF) {
                p->state = S_FIELD_START;
            } else if (p->state == S_FIELD_LF) {
                uvhttp_header *h = &p->headers[p->nheaders++];
                h->value = (uvhttp_span){p->mark, p->mark2 - p->mark};
                if (special_field(p, msg, h) != 0) return UVHTTP_PARSE_ERROR;
                p->state = S_FIELD_START;
            } else {
                p->head_len = p->body_off = pos;
                if (finish_head(p) != 0) return UVHTTP_PARSE_ERROR;
                if (p->state == S_DONE) return done(p, pos);
                p->mark2 = 0;
                if ((p->flags & UVHTTP_F_EXPECT_CONTINUE) && !p->head_reported) {
                    p->head_reported = 1;
                    p->pos = pos;
                    return UVHTTP_PARSE_HEAD;
                }
            }
            break;
        case S_FIELD_START:
            if (c == '\r') {
                p->state = S_HEAD_LF;
                pos++;
                break;
            }
            if (c == ' ' || c == '\t') return fail(p, 400, "obsolete line folding");
            if (!(CLS[c] & C_TOKEN)) return fail(p, 400, "bad field name");
            p->mark = pos++;
            p->state = S_FIELD_NAME;
            break;
        case S_FIELD_NAME:
            while (pos < stop && (CLS[(unsigned char)msg[pos]] & C_TOKEN)) pos++;
            if (pos == stop) break;
            if (msg[pos] != ':') return fail(p, 400, "bad field name");
            if (p->nheaders >= p->limits.max_headers) return fail(p, 431, "too many header fields");
            p->headers[p->nheaders].name = (uvhttp_span){p->mark, pos - p->mark};
            pos++;
            p->state = S_FIELD_OWS;
            break;
        case S_FIELD_OWS:
            if (c == ' ' || c == '\t') {
                pos++;
                break;
            }
            p->mark = p->mark2 = pos;
            p->state = S_FIELD_VALUE;
            break;
        case S_FIELD_VALUE:
            for (; pos < stop; pos++) {
                unsigned char v = (unsigned char)msg[pos];
                if (!(CLS[v] & C_VALUE)) break;
                if (v != ' ' && v != '\t') p->mark2 = pos + 1;
            }
            if (pos == stop) break;
            if (msg[pos] != '\r') return fail(p, 400, "bad field value");
            pos++;
            p->state = S_FIELD_LF;
            break;
        case S_BODY:
            if (n - p->body_off >= p->content_length) {
                p->body_len = (uint32_t)p->content_length;
                return done(p, p->body_off + p->body_len);
            }
            pos = n;
            break;
        case S_CHUNK_SIZE:
            if (CLS[c] & C_HEX) {
                p->chunk_left = p->chunk_left * 16 + (uint64_t)hexval(c);
                if (p->chunk_left > p->limits.max_body) return fail(p, 413, "body too large");
                if (++p->mark2 > 16) return fail(p, 400, "chunk size too long");
            } else if (p->mark2 == 0 || (c != ';' && c != '\r')) {
                return fail(p, 400, "bad chunk size");
            } else {
                p->state = c == ';' ? S_CHUNK_EXT : S_CHUNK_SIZE_LF;
                p->mark2 = pos;
            }
            pos++;
            break;
        case S_CHUNK_EXT:
            if (pos - p->mark2 > 1024) return fail(p, 400, "chunk extension too long");
            if (c == '\r') p->state = S_CHUNK_SIZE_LF;
            else if (!(CLS[c] & C_VALUE)) return fail(p, 400, "bad chunk extension");
            pos++;
            break;
        case S_CHUNK_SIZE_LF:
            if (c != '\n') return fail(p, 400, "bare CR");
            pos++;
            if (p->chunk_left == 0) {
                p->state = S_TRAILER_START;
                p->mark2 = pos;
            } else if (p->body_len + p->chunk_left > p->limits.max_body) {
                return fail(p, 413, "body too large");
            } else {
                p->state = S_CHUNK_DATA;
            }
            break;
        case S_CHUNK_DATA: {
            uint32_t take = n - pos < p->chunk_left ? n - pos : (uint32_t)p->chunk_left;
            char *to = msg + p->body_off + p->body_len;
            if (to != msg + pos) memmove(to, msg + pos, take);
            p->body_len += take;
            p->chunk_left -= take;
            pos += take;
            if (p->chunk_left == 0) p->state = S_CHUNK_DATA_CR;
            break;
        }
        case S_CHUNK_DATA_CR:
            if (c != '\r') return fail(p, 400, "chunk data longer than its size");
            p->state = S_CHUNK_DATA_LF;
            pos++;
            break;
        case S_CHUNK_DATA_LF:
            if (c != '\n') return fail(p, 400, "bare CR");
            p->state = S_CHUNK_SIZE;
            p->mark2 = 0;
            pos++;
            break;
        case S_TRAILER_START:
            if (c == '\r') p->state = S_TRAILER_END_LF;
            else if (CLS[c] & C_TOKEN) p->state = S_TRAILER_NAME;
            else return fail(p, 400, "bad trailer field");
            pos++;
            break;
        case S_TRAILER_NAME:
            if (c == ':') p->state = S_TRAILER_VALUE;
            else if (!(CLS[c] & C_TOKEN)) return fail(p, 400, "bad trailer field");
            pos++;
            break;
        case S_TRAILER_VALUE:
            if (c == '\r') p->state = S_TRAILER_LF;
            else if (!(CLS[c] & C_VALUE)) return fail(p, 400, "bad trailer field");
            pos++;
            break;
        case S_TRAILER_LF:
        case S_TRAILER_END_LF:
            if (c != '\n') return fail(p, 400, "bare CR");
            pos++;
            if (p->state == S_TRAILER_END_LF) return done(p, pos);
            p->state = S_TRAILER_START;
            break;
        default:
            return fail(p, 500, "parser in an impossible state");
        }
    }
    if (p->state == S_BODY && n - p->body_off >= p->content_length) {
        p->body_len = (uint32_t)p->content_length;
        return done(p, p->body_off + p->body_len);
    }
    p->pos = pos;
    return UVHTTP_PARSE_AGAIN;
}

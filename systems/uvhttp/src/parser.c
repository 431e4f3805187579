/* The strict incremental request parser (see include/uvhttp/parser.h): its state machine,
 * uvhttp_parser_execute(). The request target and the fields it acts on are in
 * parser_fields.c, the byte classes, method names, init and reset in parser_tables.c. */
#include <string.h>

#include "parser_internal.h"

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
                if (!(parser_cls[c] & C_TOKEN)) return fail(p, 400, "bad method");
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
            while (pos < stop && (parser_cls[(unsigned char)msg[pos]] & C_TOKEN)) pos++;
            if (pos == stop) break;
            if (msg[pos] != ' ') return fail(p, 400, "bad method");
            p->method = parser_method_of(msg + p->mark, pos - p->mark);
            if (p->method == UVHTTP_METHOD_UNKNOWN || p->method == UVHTTP_CONNECT)
                return fail(p, 501, "method not implemented");
            p->mark = ++pos;
            p->state = S_TARGET;
            break;
        case S_TARGET:
            while (pos < stop && (parser_cls[(unsigned char)msg[pos]] & C_TARGET)) pos++;
            if (pos == stop) break;
            if (msg[pos] != ' ' || pos == p->mark) return fail(p, 400, "bad request target");
            if (parser_split_target(p, msg, p->mark, pos) != 0) return UVHTTP_PARSE_ERROR;
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
                if (parser_special_field(p, msg, h) != 0) return UVHTTP_PARSE_ERROR;
                p->state = S_FIELD_START;
            } else {
                p->head_len = p->body_off = pos;
                if (parser_finish_head(p) != 0) return UVHTTP_PARSE_ERROR;
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
            if (!(parser_cls[c] & C_TOKEN)) return fail(p, 400, "bad field name");
            p->mark = pos++;
            p->state = S_FIELD_NAME;
            break;
        case S_FIELD_NAME:
            while (pos < stop && (parser_cls[(unsigned char)msg[pos]] & C_TOKEN)) pos++;
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
                if (!(parser_cls[v] & C_VALUE)) break;
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
            if (parser_cls[c] & C_HEX) {
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
            else if (!(parser_cls[c] & C_VALUE)) return fail(p, 400, "bad chunk extension");
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
            else if (parser_cls[c] & C_TOKEN) p->state = S_TRAILER_NAME;
            else return fail(p, 400, "bad trailer field");
            pos++;
            break;
        case S_TRAILER_NAME:
            if (c == ':') p->state = S_TRAILER_VALUE;
            else if (!(parser_cls[c] & C_TOKEN)) return fail(p, 400, "bad trailer field");
            pos++;
            break;
        case S_TRAILER_VALUE:
            if (c == '\r') p->state = S_TRAILER_LF;
            else if (!(parser_cls[c] & C_VALUE)) return fail(p, 400, "bad trailer field");
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

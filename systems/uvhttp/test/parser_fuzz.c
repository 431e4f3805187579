/* libFuzzer harness of the request parser: every input is parsed twice, in one call and
 * fed a few bytes at a time, message after message (pipelining); both runs must agree on
 * every result, and every result must stay inside the buffer and the limits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uvhttp/parser.h"

#define MAX_MESSAGES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const uvhttp_parser *p, size_t n) {
    const uvhttp_span spans[3] = {p->target, p->path, p->query};
    for (int i = 0; i < 3; i++)
        if ((size_t)spans[i].off + spans[i].len > n) abort();
    if (p->nheaders > p->limits.max_headers || p->body_len > p->limits.max_body) abort();
    if (p->msg_len > n || p->head_len > p->limits.max_header_bytes) abort();
    if ((size_t)p->body_off + p->body_len > p->msg_len) abort();
    for (uint32_t i = 0; i < p->nheaders; i++) {
        const uvhttp_header *h = &p->headers[i];
        if (h->name.len == 0 || (size_t)h->value.off + h->value.len > p->head_len) abort();
    }
}

/* Parse one message at `msg` (n bytes available), `step` more bytes per call. */
static int parse(uvhttp_parser *p, char *msg, size_t n, size_t step) {
    size_t have = step < n ? step : n;
    for (;;) {
        int rc = uvhttp_parser_execute(p, msg, have);
        if (rc == UVHTTP_PARSE_HEAD) continue;
        if (rc != UVHTTP_PARSE_AGAIN || have == n) return rc;
        have = have + step < n ? have + step : n;
    }
}

static void same(const uvhttp_parser *a, const uvhttp_parser *b, const char *abuf,
                 const char *bbuf) {
    if (a->error_status != b->error_status || a->msg_len != b->msg_len ||
        a->method != b->method || a->flags != b->flags || a->nheaders != b->nheaders ||
        a->path.off != b->path.off || a->path.len != b->path.len || a->body_len != b->body_len ||
        a->body_off != b->body_off || a->version_minor != b->version_minor)
        abort();
    if (a->body_len && memcmp(abuf + a->body_off, bbuf + b->body_off, a->body_len) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    uvhttp_parser_limits limits = {
        .max_header_bytes = 64u + (data[0] & 0x3fu) * 16u,
        .max_headers = 1u + (data[0] >> 6) * 8u,
        .max_body = (data[1] & 0x0fu) * 128u,
    };
    size_t step = 1u + (data[1] >> 4), n = size - 2;
    char *one = malloc(n + 1), *inc = malloc(n + 1);
    if (one == NULL || inc == NULL) abort();
    memcpy(one, data + 2, n);
    memcpy(inc, data + 2, n);
    uvhttp_parser a, b;
    uvhttp_parser_init(&a, &limits);
    uvhttp_parser_init(&b, &limits);
    size_t off = 0;
    for (int m = 0; m < MAX_MESSAGES && off < n; m++) {
        int ra = parse(&a, one + off, n - off, n - off);
        int rb = parse(&b, inc + off, n - off, step);
        if (ra != rb) abort();
        if (ra == UVHTTP_PARSE_AGAIN) break;
        same(&a, &b, one + off, inc + off);
        if (ra == UVHTTP_PARSE_ERROR) {
            if (a.error_status < 400 || a.error_status > 505 || a.error_reason == NULL) abort();
            break;
        }
        check(&a, n - off);
        if (a.msg_len == 0) abort(); /* progress */
        off += a.msg_len;
        uvhttp_parser_reset(&a);
        uvhttp_parser_reset(&b);
    }
    free(one);
    free(inc);
    return 0;
}

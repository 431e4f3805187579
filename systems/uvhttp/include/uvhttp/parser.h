/* A strict, incremental, bounded HTTP/1.1 request parser.
 *
 * The caller keeps one message's bytes contiguous (a connection's read buffer) and calls
 * uvhttp_parser_execute() with the message start and every byte received so far; the parser
 * resumes where it stopped, so no byte is examined twice. Results are offsets into that
 * buffer. A chunked body is decoded in place (it only moves bytes towards the message start,
 * never past the bytes not yet parsed), so pipelined requests that follow stay intact.
 *
 * Strict means: CRLF line ends only, no obs-fold, no whitespace before a field colon, token
 * characters in methods and field names, visible characters in targets and values, exactly one
 * Host in HTTP/1.1, no Content-Length together with Transfer-Encoding, no conflicting
 * Content-Length values, only the "chunked" transfer coding. */
#ifndef UVHTTP_PARSER_H
#define UVHTTP_PARSER_H

#include "uvhttp/common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    UVHTTP_PARSE_ERROR = -1, /* p->error_status says which response to send */
    UVHTTP_PARSE_AGAIN = 0,  /* needs more bytes */
    UVHTTP_PARSE_DONE = 1,   /* a whole message: p->msg_len bytes */
    UVHTTP_PARSE_HEAD = 2    /* header section complete, body follows (returned once) */
};

/* Flags (p->flags). */
#define UVHTTP_F_KEEP_ALIVE 0x01u      /* the connection may carry another request */
#define UVHTTP_F_CHUNKED 0x02u         /* Transfer-Encoding: chunked */
#define UVHTTP_F_CONTENT_LENGTH 0x04u  /* a Content-Length field was present */
#define UVHTTP_F_EXPECT_CONTINUE 0x08u /* Expect: 100-continue */
#define UVHTTP_F_CONN_CLOSE 0x10u      /* Connection: close */
#define UVHTTP_F_CONN_KEEP_ALIVE 0x20u /* Connection: keep-alive */

typedef struct uvhttp_parser_limits {
    uint32_t max_header_bytes; /* request line + fields + blank line (431 / 414 beyond) */
    uint32_t max_headers;      /* field count, at most UVHTTP_MAX_HEADERS (431 beyond) */
    uint32_t max_body;         /* decoded body bytes (413 beyond) */
} uvhttp_parser_limits;

typedef struct uvhttp_parser {
    uvhttp_parser_limits limits;
    /* Results: request line and fields after HEAD or DONE, body after DONE. */
    uvhttp_method method;
    uint8_t version_minor;  /* HTTP/1.<minor> */
    uint32_t flags;
    uvhttp_span target;     /* as sent */
    uvhttp_span path;       /* origin path ("/a/b"); len 0 means "/" (absolute-form, no path) */
    uvhttp_span query;      /* after '?', without it */
    uint32_t nheaders;
    uvhttp_header headers[UVHTTP_MAX_HEADERS];
    uint64_t content_length;
    uint32_t head_len;      /* bytes of the header section, blank line included */
    uint32_t body_off;
    uint32_t body_len;      /* decoded */
    uint32_t msg_len;       /* bytes of the whole message as received */
    uint16_t error_status;  /* 400, 413, 414, 417, 431, 501 or 505 after an error */
    const char *error_reason;
    /* Internal state. */
    uint8_t state;
    uint8_t head_reported;
    uint8_t hosts;
    uint32_t pos;
    uint32_t mark;
    uint32_t mark2;
    uint64_t chunk_left;
} uvhttp_parser;

/* Prepare a parser for its first message. */
void uvhttp_parser_init(uvhttp_parser *p, const uvhttp_parser_limits *limits);

/* Forget the last message (keep the limits) before parsing the next one. */
void uvhttp_parser_reset(uvhttp_parser *p);

/* Parse `msg[0..len)`, the current message's bytes so far (len never shrinks between calls
 * for one message). Returns one of UVHTTP_PARSE_*. */
int uvhttp_parser_execute(uvhttp_parser *p, char *msg, size_t len);

/* True before the first byte of a message was parsed. */
int uvhttp_parser_idle(const uvhttp_parser *p);

#ifdef __cplusplus
}
#endif

#endif

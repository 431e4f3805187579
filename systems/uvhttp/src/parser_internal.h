/* Internals of the request parser shared by parser.c (the state machine), parser_fields.c
 * (request target, header fields, end of the header section) and parser_tables.c (byte
 * classes, method names, init and reset). */
#ifndef UVHTTP_PARSER_INTERNAL_H
#define UVHTTP_PARSER_INTERNAL_H

#include "uvhttp/parser.h"

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

/* parser_tables.c */
extern const unsigned char parser_cls[256]; /* C_* classes of every byte */
uvhttp_method parser_method_of(const char *s, uint32_t n);

/* parser_fields.c */
int parser_split_target(uvhttp_parser *p, const char *msg, uint32_t start, uint32_t end);
int parser_special_field(uvhttp_parser *p, const char *msg, const uvhttp_header *h);
int parser_finish_head(uvhttp_parser *p);

static inline int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static inline int fail(uvhttp_parser *p, uint16_t status, const char *reason) {
    p->state = S_ERROR;
    p->error_status = status;
    p->error_reason = reason;
    return UVHTTP_PARSE_ERROR;
}

#endif

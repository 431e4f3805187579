/* Internals shared by request.c (request accessors), response.c (responses) and prebuilt.c
 * (prebuilt responses): case-insensitive comparison, field validation, serialisation. */
#ifndef UVHTTP_RESPONSE_INTERNAL_H
#define UVHTTP_RESPONSE_INTERNAL_H

#include <string.h>

#include "internal.h"

static inline int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static inline int ieq(const char *a, const char *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i])) return 0;
    return 1;
}

/* response.c: whether a field may be added (a token name, a visible value, not one of the
 * server's own fields). */
int response_valid_field(const char *name, const char *value);

/* -- serialisation helpers -------------------------------------------------------------- */

static inline char *put(char *w, const void *s, size_t n) {
    memcpy(w, s, n);
    return w + n;
}

static inline char *put_u(char *w, uint64_t v) {
    char tmp[20];
    int i = 0;
    do {
        tmp[i++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (i) *w++ = tmp[--i];
    return w;
}

static inline char *status_line(char *w, int status) {
    const char *reason = uvhttp_status_reason(status);
    w = put(w, "HTTP/1.1 ", 9);
    *w++ = (char)('0' + status / 100);
    *w++ = (char)('0' + status / 10 % 10);
    *w++ = (char)('0' + status % 10);
    *w++ = ' ';
    w = put(w, reason, strlen(reason));
    return put(w, "\r\n", 2);
}

#endif

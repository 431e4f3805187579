/* Prebuilt responses: status line, fields and Content-Length serialised once, the body copied
 * or referenced; uvhttp_response_send_prebuilt() (response.c) adds Date and Connection. */
#include <stdlib.h>

#include "response_internal.h"

uvhttp_prebuilt *uvhttp_prebuilt_new(int status, const char *const *fields, const void *body,
                                     size_t len, int flags) {
    int bodiless = status == 204 || status == 304;
    if (status < 200 || status > 599 || len > UINT32_MAX / 4 || (len && body == NULL) ||
        (bodiless && len))
        return NULL;
    size_t size = 64 + strlen(uvhttp_status_reason(status));
    for (size_t i = 0; fields && fields[i]; i += 2) {
        if (!response_valid_field(fields[i], fields[i + 1])) return NULL;
        size += strlen(fields[i]) + strlen(fields[i + 1]) + 4;
    }
    uvhttp_prebuilt *pre = calloc(1, sizeof *pre);
    char *head = malloc(size);
    char *copy = (flags & UVHTTP_PREBUILT_STATIC_BODY) || len == 0 ? NULL : malloc(len);
    if (pre == NULL || head == NULL || (len && !(flags & UVHTTP_PREBUILT_STATIC_BODY) && !copy)) {
        free(pre);
        free(head);
        free(copy);
        return NULL;
    }
    char *w = status_line(head, status);
    for (size_t i = 0; fields && fields[i]; i += 2) {
        w = put(w, fields[i], strlen(fields[i]));
        w = put(w, ": ", 2);
        w = put(w, fields[i + 1], strlen(fields[i + 1]));
        w = put(w, "\r\n", 2);
    }
    if (!bodiless) {
        w = put(w, "Content-Length: ", 16);
        w = put_u(w, len);
        w = put(w, "\r\n", 2);
    }
    pre->head = head;
    pre->head_len = (uint32_t)(w - head);
    if (copy) memcpy(copy, body, len);
    pre->body = copy ? copy : body;
    pre->own_body = copy != NULL;
    pre->body_len = (uint32_t)len;
    pre->bodiless = (uint8_t)bodiless;
    return pre;
}

void uvhttp_prebuilt_free(uvhttp_prebuilt *pre) {
    if (pre == NULL) return;
    if (pre->own_body) free((void *)pre->body);
    free(pre->head);
    free(pre);
}

/* Types shared by every part of uvhttp: methods, spans, limits, error codes. */
#ifndef UVHTTP_COMMON_H
#define UVHTTP_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Functions return 0 on success or a negative libuv error code (UV_EINVAL, UV_ENOMEM, ...);
 * uv_strerror() names it. */

/* Most header fields one request may carry (the config may lower it). */
#define UVHTTP_MAX_HEADERS 64

/* Largest body the config accepts (1 GiB): message offsets are 32-bit. */
#define UVHTTP_BODY_LIMIT (1u << 30)

typedef enum uvhttp_method {
    UVHTTP_METHOD_UNKNOWN = 0,
    UVHTTP_GET,
    UVHTTP_HEAD,
    UVHTTP_POST,
    UVHTTP_PUT,
    UVHTTP_DELETE,
    UVHTTP_PATCH,
    UVHTTP_OPTIONS,
    UVHTTP_CONNECT,
    UVHTTP_TRACE,
    UVHTTP_METHOD_COUNT
} uvhttp_method;

/* The method's name ("GET"), or "UNKNOWN". */
const char *uvhttp_method_name(uvhttp_method method);

/* The standard reason phrase of a status code ("Not Found"), or "Unknown". */
const char *uvhttp_status_reason(int status);

/* A byte range of a message buffer. */
typedef struct uvhttp_span {
    uint32_t off;
    uint32_t len;
} uvhttp_span;

typedef struct uvhttp_header {
    uvhttp_span name;
    uvhttp_span value;
} uvhttp_header;

#ifdef __cplusplus
}
#endif

#endif

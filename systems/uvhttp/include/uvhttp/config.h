/* Server configuration: limits, buffer sizes and timeouts, validated before use. */
#ifndef UVHTTP_CONFIG_H
#define UVHTTP_CONFIG_H

#include "uvhttp/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uvhttp_config {
    uint32_t max_connections;             /* open connections; beyond, new ones are closed */
    uint32_t max_requests_per_connection; /* then "Connection: close"; 0 = no limit */
    int32_t backlog;                      /* listen(2) backlog */
    uint32_t max_body_size;               /* decoded request body bytes (413 beyond) */
    uint32_t max_header_size;             /* request line + fields (431 beyond) */
    uint32_t max_headers;                 /* header fields per request (431 beyond) */
    uint32_t read_buffer_size;            /* initial read buffer per connection */
    uint32_t write_buffer_size;           /* initial response buffer per connection */
    uint32_t keepalive_timeout_ms;        /* idle time between requests before closing */
    uint32_t request_timeout_ms;          /* time to receive one whole request (408 beyond) */
} uvhttp_config;

/* Bounds that uvhttp_config_validate() enforces. */
#define UVHTTP_MAX_CONNECTIONS_LIMIT 65535u
#define UVHTTP_BUFFER_MIN 1024u
#define UVHTTP_BUFFER_MAX (16u << 20)

/* Fill `cfg` with the defaults (2048 connections, 1 MiB bodies, 8 KiB headers, 16 KiB
 * buffers, 60 s keep-alive, 30 s request timeout). */
void uvhttp_config_init(uvhttp_config *cfg);

/* A heap copy of the defaults (NULL without memory); release with uvhttp_config_free. */
uvhttp_config *uvhttp_config_new(void);

/* Release a configuration from uvhttp_config_new. */
void uvhttp_config_free(uvhttp_config *cfg);

/* 0 when every field is in range, else UV_EINVAL with a message naming the field in `err`
 * (when err is not NULL). */
int uvhttp_config_validate(const uvhttp_config *cfg, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif

/* Configuration defaults and validation. */
#include "uvhttp/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

void uvhttp_config_init(uvhttp_config *cfg) {
    cfg->max_connections = 2048;
    cfg->max_requests_per_connection = 0;
    cfg->backlog = 511;
    cfg->max_body_size = 1u << 20;
    cfg->max_header_size = 8192;
    cfg->max_headers = UVHTTP_MAX_HEADERS;
    cfg->read_buffer_size = 16384;
    cfg->write_buffer_size = 16384;
    cfg->keepalive_timeout_ms = 60000;
    cfg->request_timeout_ms = 30000;
}

uvhttp_config *uvhttp_config_new(void) {
    uvhttp_config *cfg = malloc(sizeof *cfg);
    if (cfg) uvhttp_config_init(cfg);
    return cfg;
}

void uvhttp_config_free(uvhttp_config *cfg) { free(cfg); }

static int bad(char *err, size_t errlen, const char *field, unsigned long lo, unsigned long hi) {
    if (err && errlen) snprintf(err, errlen, "%s must be between %lu and %lu", field, lo, hi);
    return UV_EINVAL;
}

#define RANGE(field, lo, hi)                                                          \
    do {                                                                              \
        if ((unsigned long)cfg->field < (lo) || (unsigned long)cfg->field > (hi))     \
            return bad(err, errlen, #field, (unsigned long)(lo), (unsigned long)(hi)); \
    } while (0)

int uvhttp_config_validate(const uvhttp_config *cfg, char *err, size_t errlen) {
    if (cfg == NULL) {
        if (err && errlen) snprintf(err, errlen, "no configuration");
        return UV_EINVAL;
    }
    if (cfg->backlog < 1) return bad(err, errlen, "backlog", 1, 65535);
    RANGE(max_connections, 1, UVHTTP_MAX_CONNECTIONS_LIMIT);
    RANGE(backlog, 1, 65535);
    if (cfg->max_body_size > UVHTTP_BODY_LIMIT)
        return bad(err, errlen, "max_body_size", 0, UVHTTP_BODY_LIMIT);
    RANGE(max_header_size, 256, 1u << 20);
    RANGE(max_headers, 1, UVHTTP_MAX_HEADERS);
    RANGE(read_buffer_size, UVHTTP_BUFFER_MIN, UVHTTP_BUFFER_MAX);
    RANGE(write_buffer_size, UVHTTP_BUFFER_MIN, UVHTTP_BUFFER_MAX);
    RANGE(keepalive_timeout_ms, 10, 24u * 3600 * 1000);
    RANGE(request_timeout_ms, 10, 24u * 3600 * 1000);
    if (err && errlen) err[0] = '\0';
    return 0;
}

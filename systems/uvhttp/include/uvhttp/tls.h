/* TLS for a server's connections through mbedtls (built with -DBUILD_WITH_TLS=ON; without it
 * these functions fail with UV_ENOTSUP). */
#ifndef UVHTTP_TLS_H
#define UVHTTP_TLS_H

#include "uvhttp/server.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uvhttp_tls_context uvhttp_tls_context;

/* 1 when this build has TLS. */
int uvhttp_tls_available(void);

/* A server context from a PEM certificate chain and a PEM private key (TLS 1.2 and up).
 * NULL on error, with a message in `err`. */
uvhttp_tls_context *uvhttp_tls_context_new(const char *cert_file, const char *key_file,
                                           char *err, size_t errlen);
void uvhttp_tls_context_free(uvhttp_tls_context *ctx);

/* Every connection `s` accepts from now on speaks TLS (`ctx` must outlive the server). */
int uvhttp_server_set_tls(uvhttp_server *s, uvhttp_tls_context *ctx);

#ifdef __cplusplus
}
#endif

#endif

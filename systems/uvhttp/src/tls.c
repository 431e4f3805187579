/* TLS through mbedtls: a memory BIO between libuv's reads/writes and mbedtls records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifdef UVHTTP_WITH_TLS

#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/error.h>
#include <mbedtls/pk.h>
#include <mbedtls/ssl.h>
#include <mbedtls/version.h>
#include <mbedtls/x509_crt.h>

struct uvhttp_tls_context {
    mbedtls_ssl_config conf;
    mbedtls_x509_crt cert;
    mbedtls_pk_context key;
    mbedtls_entropy_context entropy;
    mbedtls_ctr_drbg_context drbg;
};

#define RX_SIZE (16384 + 2048) /* one TLS record and its overhead */

struct uvhttp_tls_conn {
    mbedtls_ssl_context ssl;
    size_t rx_pos, rx_len;
    char *tx;
    size_t tx_len, tx_cap;
    char rx[RX_SIZE];
};

int uvhttp_tls_available(void) { return 1; }

static uvhttp_tls_context *context_fail(uvhttp_tls_context *ctx, int rc, const char *what,
                                        char *err, size_t errlen) {
    char msg[160];
    mbedtls_strerror(rc, msg, sizeof msg);
    if (err && errlen) snprintf(err, errlen, "%s: %s (-0x%04x)", what, msg, (unsigned)-rc);
    uvhttp_tls_context_free(ctx);
    return NULL;
}

uvhttp_tls_context *uvhttp_tls_context_new(const char *cert_file, const char *key_file,
                                           char *err, size_t errlen) {
    int rc;
    if (cert_file == NULL || key_file == NULL) {
        if (err && errlen) snprintf(err, errlen, "certificate and key files are needed");
        return NULL;
    }
    uvhttp_tls_context *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL) return NULL;
    mbedtls_ssl_config_init(&ctx->conf);
    mbedtls_x509_crt_init(&ctx->cert);
    mbedtls_pk_init(&ctx->key);
    mbedtls_entropy_init(&ctx->entropy);
    mbedtls_ctr_drbg_init(&ctx->drbg);
    rc = mbedtls_ctr_drbg_seed(&ctx->drbg, mbedtls_entropy_func, &ctx->entropy,
                               (const unsigned char *)"uvhttp", 6);
    if (rc != 0) return context_fail(ctx, rc, "seeding the random generator", err, errlen);
    if ((rc = mbedtls_x509_crt_parse_file(&ctx->cert, cert_file)) != 0)
        return context_fail(ctx, rc, cert_file, err, errlen);
#if MBEDTLS_VERSION_MAJOR >= 3
    rc = mbedtls_pk_parse_keyfile(&ctx->key, key_file, NULL, mbedtls_ctr_drbg_random, &ctx->drbg);
#else
    rc = mbedtls_pk_parse_keyfile(&ctx->key, key_file, NULL);
#endif
    if (rc != 0) return context_fail(ctx, rc, key_file, err, errlen);
    rc = mbedtls_ssl_config_defaults(&ctx->conf, MBEDTLS_SSL_IS_SERVER,
                                     MBEDTLS_SSL_TRANSPORT_STREAM, MBEDTLS_SSL_PRESET_DEFAULT);
    if (rc != 0) return context_fail(ctx, rc, "TLS defaults", err, errlen);
    mbedtls_ssl_conf_rng(&ctx->conf, mbedtls_ctr_drbg_random, &ctx->drbg);
#if MBEDTLS_VERSION_MAJOR >= 3
    mbedtls_ssl_conf_min_tls_version(&ctx->conf, MBEDTLS_SSL_VERSION_TLS1_2);
#else
    mbedtls_ssl_conf_min_version(&ctx->conf, MBEDTLS_SSL_MAJOR_VERSION_3,
                                 MBEDTLS_SSL_MINOR_VERSION_3);
#endif
    if ((rc = mbedtls_ssl_conf_own_cert(&ctx->conf, &ctx->cert, &ctx->key)) != 0)
        return context_fail(ctx, rc, "certificate and key do not match", err, errlen);
    return ctx;
}

void uvhttp_tls_context_free(uvhttp_tls_context *ctx) {
    if (ctx == NULL) return;
    mbedtls_ssl_config_free(&ctx->conf);
    mbedtls_x509_crt_free(&ctx->cert);
    mbedtls_pk_free(&ctx->key);
    mbedtls_ctr_drbg_free(&ctx->drbg);
    mbedtls_entropy_free(&ctx->entropy);
    free(ctx);
}

int uvhttp_server_set_tls(uvhttp_server *s, uvhttp_tls_context *ctx) {
    if (s == NULL || ctx == NULL) return UV_EINVAL;
    s->tls = ctx;
    return 0;
}

/* The BIO: mbedtls writes records into tx (flushed by the connection) and reads from rx. */
static int bio_send(void *arg, const unsigned char *buf, size_t len) {
    struct uvhttp_tls_conn *t = arg;
    if (t->tx_len + len > t->tx_cap) {
        size_t cap = t->tx_cap ? t->tx_cap : 32768;
        while (cap < t->tx_len + len) cap *= 2;
        char *tx = realloc(t->tx, cap);
        if (tx == NULL) return MBEDTLS_ERR_SSL_ALLOC_FAILED;
        t->tx = tx;
        t->tx_cap = cap;
    }
    memcpy(t->tx + t->tx_len, buf, len);
    t->tx_len += len;
    return (int)len;
}

static int bio_recv(void *arg, unsigned char *buf, size_t len) {
    struct uvhttp_tls_conn *t = arg;
    size_t n = t->rx_len - t->rx_pos;
    if (n == 0) return MBEDTLS_ERR_SSL_WANT_READ;
    if (n > len) n = len;
    memcpy(buf, t->rx + t->rx_pos, n);
    t->rx_pos += n;
    return (int)n;
}

struct uvhttp_tls_conn *tls_conn_new(uvhttp_tls_context *ctx) {
    struct uvhttp_tls_conn *t = calloc(1, sizeof *t);
    if (t == NULL) return NULL;
    mbedtls_ssl_init(&t->ssl);
    if (mbedtls_ssl_setup(&t->ssl, &ctx->conf) != 0) {
        tls_conn_free(t);
        return NULL;
    }
    mbedtls_ssl_set_bio(&t->ssl, t, bio_send, bio_recv, NULL);
    return t;
}

void tls_conn_free(struct uvhttp_tls_conn *t) {
    mbedtls_ssl_free(&t->ssl);
    free(t->tx);
    free(t);
}

uv_buf_t tls_rx_space(struct uvhttp_tls_conn *t) {
    if (t->rx_pos > 0) {
        memmove(t->rx, t->rx + t->rx_pos, t->rx_len - t->rx_pos);
        t->rx_len -= t->rx_pos;
        t->rx_pos = 0;
    }
    return uv_buf_init(t->rx + t->rx_len, (unsigned)(RX_SIZE - t->rx_len));
}

void tls_rx_commit(struct uvhttp_tls_conn *t, size_t n) { t->rx_len += n; }

int tls_read(struct uvhttp_tls_conn *t, char *dst, size_t cap) {
    int r = mbedtls_ssl_read(&t->ssl, (unsigned char *)dst, cap > 1u << 20 ? 1u << 20 : cap);
    if (r > 0) return r;
    if (r == MBEDTLS_ERR_SSL_WANT_READ || r == MBEDTLS_ERR_SSL_WANT_WRITE) return 0;
    return -1; /* closed by the peer, or a TLS failure */
}

int tls_write(struct uvhttp_tls_conn *t, const char *src, size_t n) {
    while (n > 0) {
        int r = mbedtls_ssl_write(&t->ssl, (const unsigned char *)src, n);
        if (r <= 0) return -1;
        src += r;
        n -= (size_t)r;
    }
    return 0;
}

char *tls_tx(struct uvhttp_tls_conn *t, size_t *len) {
    *len = t->tx_len;
    return t->tx;
}

void tls_tx_clear(struct uvhttp_tls_conn *t) { t->tx_len = 0; }

#else /* built without TLS */

int uvhttp_tls_available(void) { return 0; }

uvhttp_tls_context *uvhttp_tls_context_new(const char *cert_file, const char *key_file,
                                           char *err, size_t errlen) {
    (void)cert_file;
    (void)key_file;
    if (err && errlen) snprintf(err, errlen, "uvhttp was built without TLS (BUILD_WITH_TLS=OFF)");
    return NULL;
}

void uvhttp_tls_context_free(uvhttp_tls_context *ctx) { (void)ctx; }

int uvhttp_server_set_tls(uvhttp_server *s, uvhttp_tls_context *ctx) {
    (void)s;
    (void)ctx;
    return UV_ENOTSUP;
}

#endif

/* Requests, responses and handlers.
 *
 * A handler gets the parsed request and the response to fill. It sends the response before it
 * returns, or keeps both pointers and calls uvhttp_response_send() later on the loop's thread
 * (the connection reads nothing more until then). It returns 0, or non-zero to have the server
 * answer 500 when nothing was sent. Request data points into the connection's buffer and is
 * valid until the response is sent. */
#ifndef UVHTTP_HTTP_H
#define UVHTTP_HTTP_H

#include "uvhttp/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uvhttp_request uvhttp_request;
typedef struct uvhttp_response uvhttp_response;
typedef struct uvhttp_prebuilt uvhttp_prebuilt;

typedef int (*uvhttp_handler)(uvhttp_request *req, uvhttp_response *res, void *data);

/* -- request ---------------------------------------------------------------------------- */

uvhttp_method uvhttp_request_method(const uvhttp_request *req);
/* HTTP/1.<minor>. */
int uvhttp_request_version_minor(const uvhttp_request *req);
/* The path without the query (not percent-decoded); "/" for an absolute-form target
 * without a path. */
const char *uvhttp_request_path(const uvhttp_request *req, size_t *len);
/* The query after '?', empty when none. */
const char *uvhttp_request_query(const uvhttp_request *req, size_t *len);
/* The first field named `name` (case-insensitive), or NULL. */
const char *uvhttp_request_header(const uvhttp_request *req, const char *name, size_t *len);
size_t uvhttp_request_header_count(const uvhttp_request *req);
/* Field i (0-based) as name and value; UV_EINVAL past the end. */
int uvhttp_request_header_at(const uvhttp_request *req, size_t i, const char **name,
                             size_t *name_len, const char **value, size_t *value_len);
/* The decoded body (empty when none). */
const char *uvhttp_request_body(const uvhttp_request *req, size_t *len);
/* Whether the connection stays open after this request's response. */
int uvhttp_request_keep_alive(const uvhttp_request *req);

/* -- response --------------------------------------------------------------------------- */

/* 200 unless set; 101-599 except 1xx (UV_EINVAL). */
int uvhttp_response_set_status(uvhttp_response *res, int status);
/* Add a field. Names must be tokens, values visible characters; Content-Length,
 * Transfer-Encoding, Connection and Date are the server's own (UV_EINVAL). */
int uvhttp_response_set_header(uvhttp_response *res, const char *name, const char *value);
/* The body, copied now. */
int uvhttp_response_set_body(uvhttp_response *res, const void *data, size_t len);
/* The body, not copied: `data` must outlive the server (static or long-lived memory). */
int uvhttp_response_set_body_static(uvhttp_response *res, const void *data, size_t len);
/* Send what was set; Date, Content-Length and Connection are added. UV_EALREADY when sent,
 * UV_ECANCELED when the client went away meanwhile (the response is then discarded). */
int uvhttp_response_send(uvhttp_response *res);
/* Send a response built once with uvhttp_prebuilt_new (the cheapest way to answer). */
int uvhttp_response_send_prebuilt(uvhttp_response *res, const uvhttp_prebuilt *pre);

/* -- prebuilt responses ----------------------------------------------------------------- */

/* A response serialised once: status, fields (`fields` = name, value, ..., NULL; may be
 * NULL), body (copied unless UVHTTP_PREBUILT_STATIC_BODY). NULL on bad input or no memory. */
#define UVHTTP_PREBUILT_STATIC_BODY 1
uvhttp_prebuilt *uvhttp_prebuilt_new(int status, const char *const *fields, const void *body,
                                     size_t len, int flags);
void uvhttp_prebuilt_free(uvhttp_prebuilt *pre);

#ifdef __cplusplus
}
#endif

#endif

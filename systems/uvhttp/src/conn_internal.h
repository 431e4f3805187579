/* Internals shared by the parts of a connection: conn.c (accept, close, free, timeouts),
 * conn_read.c (reading), conn_dispatch.c (parsing and dispatch) and conn_write.c (writing
 * and the lingering close). What the rest of uvhttp calls is declared in internal.h. */
#ifndef UVHTTP_CONN_INTERNAL_H
#define UVHTTP_CONN_INTERNAL_H

#include "internal.h"

static inline uint64_t now_ms(const uvhttp_conn *c) { return uv_now(c->server->loop); }

/* conn_read.c */
void conn_start_reading(uvhttp_conn *c);
void conn_stop_reading(uvhttp_conn *c);

/* conn_dispatch.c: parse and dispatch what was read, then flush. */
void conn_process(uvhttp_conn *c);

/* conn_write.c: write the queued responses; begins the lingering close after the last. */
void conn_flush(uvhttp_conn *c);

#endif

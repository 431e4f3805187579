/* The per-connection response buffer: bytes plus the segments handed to writev. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void out_free(outbuf *o) {
    free(o->buf);
    free(o->segs);
    memset(o, 0, sizeof *o);
}

void out_reset(outbuf *o) {
    o->len = 0;
    o->n = 0;
}

static int reserve(outbuf *o, size_t more) {
    size_t need = (size_t)o->len + more;
    if (need <= o->cap) return 0;
    if (need > UINT32_MAX / 2) return UV_ENOMEM;
    size_t cap = o->cap ? o->cap : 4096;
    while (cap < need) cap *= 2;
    char *buf = realloc(o->buf, cap);
    if (buf == NULL) return UV_ENOMEM;
    o->buf = buf;
    o->cap = (uint32_t)cap;
    return 0;
}

static int push(outbuf *o, out_seg seg) {
    if (o->n > 0) {
        out_seg *last = &o->segs[o->n - 1];
        if (seg.ref == NULL && last->ref == NULL && last->off + last->len == seg.off) {
            last->len += seg.len;
            return 0;
        }
    }
    if (o->n == o->segcap) {
        uint32_t cap = o->segcap ? o->segcap * 2 : 16;
        out_seg *segs = realloc(o->segs, cap * sizeof *segs);
        if (segs == NULL) return UV_ENOMEM;
        o->segs = segs;
        o->segcap = cap;
    }
    o->segs[o->n++] = seg;
    return 0;
}

char *out_begin(outbuf *o, size_t max) { return reserve(o, max) == 0 ? o->buf + o->len : NULL; }

int out_end(outbuf *o, size_t used) {
    uint32_t off = o->len;
    o->len += (uint32_t)used;
    return used ? push(o, (out_seg){NULL, off, (uint32_t)used}) : 0;
}

int out_append(outbuf *o, const void *data, size_t n) {
    char *w = out_begin(o, n);
    if (w == NULL) return UV_ENOMEM;
    if (n) memcpy(w, data, n);
    return out_end(o, n);
}

int out_seg_ref(outbuf *o, const char *p, uint32_t n) {
    return n ? push(o, (out_seg){p, 0, n}) : 0;
}

// What the parser tests share: limits, a parse result with its buffer, and two ways to feed a
// message (every byte in one call, or one more byte per call).
#pragma once

#include <string>

#include "uvhttp/parser.h"

inline const uvhttp_parser_limits kLimits = {1024, 16, 4096};

struct Parsed {
    int rc = 0;
    uvhttp_parser p{};
    std::string buf;
    std::string span(uvhttp_span s) const { return buf.substr(s.off, s.len); }
    std::string body() const { return buf.substr(p.body_off, p.body_len); }
    std::string header(const std::string &name) const {
        for (uint32_t i = 0; i < p.nheaders; i++)
            if (span(p.headers[i].name) == name) return span(p.headers[i].value);
        return "<none>";
    }
};

// One call with every byte; HEAD (Expect) is stepped over.
inline Parsed parse(const std::string &text, uvhttp_parser_limits limits = kLimits) {
    Parsed r;
    r.buf = text;
    uvhttp_parser_init(&r.p, &limits);
    do r.rc = uvhttp_parser_execute(&r.p, r.buf.data(), r.buf.size());
    while (r.rc == UVHTTP_PARSE_HEAD);
    return r;
}

// The same message fed one more byte per call, as a slow client would send it.
inline Parsed parse_bytewise(const std::string &text) {
    Parsed r;
    r.buf = text;
    uvhttp_parser_init(&r.p, &kLimits);
    for (size_t n = 1; n <= text.size(); n++) {
        do r.rc = uvhttp_parser_execute(&r.p, r.buf.data(), n);
        while (r.rc == UVHTTP_PARSE_HEAD);
        if (r.rc != UVHTTP_PARSE_AGAIN) return r;
    }
    return r;
}

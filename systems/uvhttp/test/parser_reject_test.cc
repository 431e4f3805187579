// The request parser, every rejection: each malformed or unsupported message gets its
// status, the verdict is sticky, and the same when the bytes come one by one.
#include <gtest/gtest.h>

#include <string>

#include "parser_util.h"

namespace {

struct Bad {
    const char *name;
    std::string text;
    int status;
};

class Rejects : public ::testing::TestWithParam<Bad> {};

TEST_P(Rejects, WithTheRightStatus) {
    Parsed r = parse(GetParam().text);
    EXPECT_EQ(r.rc, UVHTTP_PARSE_ERROR);
    EXPECT_EQ(r.p.error_status, GetParam().status);
    EXPECT_NE(r.p.error_reason, nullptr);
    // The verdict is sticky and the same when the bytes come one by one.
    EXPECT_EQ(uvhttp_parser_execute(&r.p, r.buf.data(), r.buf.size()), UVHTTP_PARSE_ERROR);
    Parsed slow = parse_bytewise(GetParam().text);
    EXPECT_EQ(slow.p.error_status, GetParam().status);
}

const std::string H = "Host: h\r\n";

INSTANTIATE_TEST_SUITE_P(
    Parser, Rejects,
    ::testing::Values(
        Bad{"bare_lf", "GET / HTTP/1.1\nHost: h\n\n", 400},
        Bad{"bare_cr_in_value", "GET / HTTP/1.1\r\nHost: h\rx\r\n\r\n", 400},
        Bad{"obs_fold", "GET / HTTP/1.1\r\n" + H + " folded\r\n\r\n", 400},
        Bad{"space_before_colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400},
        Bad{"empty_field_name", "GET / HTTP/1.1\r\n: v\r\n\r\n", 400},
        Bad{"nul_in_value", "GET / HTTP/1.1\r\n" + H + "X: a" + std::string(1, '\0') + "b\r\n\r\n", 400},
        Bad{"bad_method_char", "G(T / HTTP/1.1\r\n" + H + "\r\n", 400},
        Bad{"unknown_method", "BREW / HTTP/1.1\r\n" + H + "\r\n", 501},
        Bad{"connect", "CONNECT h:443 HTTP/1.1\r\n" + H + "\r\n", 501},
        Bad{"two_spaces", "GET  / HTTP/1.1\r\n" + H + "\r\n", 400},
        Bad{"http09", "GET /\r\n\r\n", 400},
        Bad{"fragment", "GET /a#b HTTP/1.1\r\n" + H + "\r\n", 400},
        Bad{"ctl_in_target", "GET /a\x01 HTTP/1.1\r\n" + H + "\r\n", 400},
        Bad{"non_ascii_target", "GET /caf\xe9 HTTP/1.1\r\n" + H + "\r\n", 400},
        Bad{"relative_target", "GET a/b HTTP/1.1\r\n" + H + "\r\n", 400},
        Bad{"empty_authority", "GET http:///a HTTP/1.1\r\n" + H + "\r\n", 400},
        Bad{"star_with_get", "GET * HTTP/1.1\r\n" + H + "\r\n", 400},
        Bad{"lowercase_version", "GET / http/1.1\r\n" + H + "\r\n", 400},
        Bad{"http2", "GET / HTTP/2.0\r\n" + H + "\r\n", 505},
        Bad{"http12", "GET / HTTP/1.2\r\n" + H + "\r\n", 505},
        Bad{"no_host", "GET / HTTP/1.1\r\n\r\n", 400},
        Bad{"two_hosts", "GET / HTTP/1.1\r\n" + H + H + "\r\n", 400},
        Bad{"cl_and_te", "POST / HTTP/1.1\r\n" + H + "Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400},
        Bad{"te_gzip", "POST / HTTP/1.1\r\n" + H + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501},
        Bad{"te_twice", "POST / HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 501},
        Bad{"te_in_http10", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400},
        Bad{"cl_conflict", "POST / HTTP/1.1\r\n" + H + "Content-Length: 1\r\nContent-Length: 2\r\n\r\n", 400},
        Bad{"cl_list", "POST / HTTP/1.1\r\n" + H + "Content-Length: 1, 1\r\n\r\n", 400},
        Bad{"cl_sign", "POST / HTTP/1.1\r\n" + H + "Content-Length: +1\r\n\r\n", 400},
        Bad{"cl_too_large", "POST / HTTP/1.1\r\n" + H + "Content-Length: 4097\r\n\r\n", 413},
        Bad{"cl_huge", "POST / HTTP/1.1\r\n" + H + "Content-Length: 99999999999999999999999\r\n\r\n", 413},
        Bad{"chunk_too_large", "POST / HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\n1001\r\n", 413},
        Bad{"chunks_add_up", "POST / HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\n800\r\n" + std::string(2048, 'a') + "\r\n801\r\n", 413},
        Bad{"bad_chunk_size", "POST / HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
        Bad{"chunk_longer_than_size", "POST / HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", 400},
        Bad{"expect_other", "POST / HTTP/1.1\r\n" + H + "Expect: 200-ok\r\n\r\n", 417},
        Bad{"too_many_fields", "GET / HTTP/1.1\r\n" + H + [] { std::string s; for (int i = 0; i < 16; i++) s += "X-" + std::to_string(i) + ": v\r\n"; return s; }() + "\r\n", 431},
        Bad{"huge_field", "GET / HTTP/1.1\r\n" + H + "X: " + std::string(2000, 'v') + "\r\n\r\n", 431},
        Bad{"huge_target", "GET /" + std::string(2000, 'a') + " HTTP/1.1\r\n\r\n", 414}),
    [](const ::testing::TestParamInfo<Bad> &param) { return std::string(param.param.name); });

}  // namespace

// The request parser: fields, framing, incremental feeding, pipelining and every rejection.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "uvhttp/parser.h"

namespace {

const uvhttp_parser_limits kLimits = {1024, 16, 4096};

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
Parsed parse(const std::string &text, uvhttp_parser_limits limits = kLimits) {
    Parsed r;
    r.buf = text;
    uvhttp_parser_init(&r.p, &limits);
    do r.rc = uvhttp_parser_execute(&r.p, r.buf.data(), r.buf.size());
    while (r.rc == UVHTTP_PARSE_HEAD);
    return r;
}

// The same message fed one more byte per call, as a slow client would send it.
Parsed parse_bytewise(const std::string &text) {
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

const char *kGet =
    "GET /search?q=uv&n=1 HTTP/1.1\r\nHost: example.test\r\nUser-Agent: t\r\n"
    "X-Empty:\r\nX-Spaces:   padded value  \r\n\r\n";

TEST(Parser, RequestLineAndFields) {
    Parsed r = parse(kGet);
    ASSERT_EQ(r.rc, UVHTTP_PARSE_DONE);
    EXPECT_EQ(r.p.method, UVHTTP_GET);
    EXPECT_EQ(r.p.version_minor, 1);
    EXPECT_EQ(r.span(r.p.target), "/search?q=uv&n=1");
    EXPECT_EQ(r.span(r.p.path), "/search");
    EXPECT_EQ(r.span(r.p.query), "q=uv&n=1");
    EXPECT_EQ(r.p.nheaders, 4u);
    EXPECT_EQ(r.header("Host"), "example.test");
    EXPECT_EQ(r.header("X-Empty"), "");
    EXPECT_EQ(r.header("X-Spaces"), "padded value");
    EXPECT_EQ(r.p.msg_len, std::string(kGet).size());
    EXPECT_EQ(r.p.head_len, r.p.msg_len);
    EXPECT_TRUE(r.p.flags & UVHTTP_F_KEEP_ALIVE);
}

TEST(Parser, ByteByByteGivesTheSameResult) {
    Parsed whole = parse(kGet), split = parse_bytewise(kGet);
    ASSERT_EQ(split.rc, UVHTTP_PARSE_DONE);
    EXPECT_EQ(split.p.msg_len, whole.p.msg_len);
    EXPECT_EQ(split.span(split.p.path), "/search");
    EXPECT_EQ(split.header("X-Spaces"), "padded value");
}

TEST(Parser, AgainUntilTheBlankLine) {
    std::string text = "GET / HTTP/1.1\r\nHost: a\r\n";
    EXPECT_EQ(parse(text).rc, UVHTTP_PARSE_AGAIN);
    EXPECT_EQ(parse(text + "\r").rc, UVHTTP_PARSE_AGAIN);
    EXPECT_EQ(parse(text + "\r\n").rc, UVHTTP_PARSE_DONE);
}

TEST(Parser, PipelinedMessagesParseOneAfterAnother) {
    std::string a = "GET /a HTTP/1.1\r\nHost: h\r\n\r\n";
    std::string b = "POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nxyz";
    std::string c = "GET /c HTTP/1.1\r\nHost: h\r\n\r\n";
    std::string buf = a + b + c;
    uvhttp_parser p;
    uvhttp_parser_init(&p, &kLimits);
    std::vector<std::string> paths;
    size_t off = 0;
    while (off < buf.size()) {
        ASSERT_EQ(uvhttp_parser_execute(&p, buf.data() + off, buf.size() - off), UVHTTP_PARSE_DONE);
        paths.push_back(buf.substr(off + p.path.off, p.path.len));
        if (paths.size() == 2) {
            EXPECT_EQ(buf.substr(off + p.body_off, p.body_len), "xyz");
        }
        off += p.msg_len;
        uvhttp_parser_reset(&p);
    }
    EXPECT_EQ(paths, (std::vector<std::string>{"/a", "/b", "/c"}));
}

TEST(Parser, ContentLengthBody) {
    Parsed r = parse("PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello+next");
    ASSERT_EQ(r.rc, UVHTTP_PARSE_DONE);
    EXPECT_EQ(r.body(), "hello");
    EXPECT_EQ(r.p.msg_len, r.buf.find("+next"));
    EXPECT_EQ(parse("PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhell").rc,
              UVHTTP_PARSE_AGAIN);
}

const char *kChunked =
    "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
    "5;ext=1\r\nhello\r\n1A\r\n abcdefghijklmnopqrstuvwxy\r\n0\r\nX-Trailer: t\r\n\r\n";

TEST(Parser, ChunkedBodyIsDecodedInPlace) {
    Parsed r = parse(std::string(kChunked) + "GET");
    ASSERT_EQ(r.rc, UVHTTP_PARSE_DONE);
    EXPECT_TRUE(r.p.flags & UVHTTP_F_CHUNKED);
    EXPECT_EQ(r.body(), "hello abcdefghijklmnopqrstuvwxy");
    EXPECT_EQ(r.p.msg_len, std::string(kChunked).size());
    EXPECT_EQ(r.buf.substr(r.p.msg_len), "GET");  // the next request is untouched
}

TEST(Parser, ChunkedBodyByteByByte) {
    Parsed r = parse_bytewise(kChunked);
    ASSERT_EQ(r.rc, UVHTTP_PARSE_DONE);
    EXPECT_EQ(r.body(), "hello abcdefghijklmnopqrstuvwxy");
}

TEST(Parser, ExpectContinueReportsTheHeadFirst) {
    std::string text = "POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n";
    std::string buf = text + "ok";
    uvhttp_parser p;
    uvhttp_parser_init(&p, &kLimits);
    EXPECT_EQ(uvhttp_parser_execute(&p, buf.data(), text.size()), UVHTTP_PARSE_HEAD);
    EXPECT_EQ(uvhttp_parser_execute(&p, buf.data(), text.size()), UVHTTP_PARSE_AGAIN);
    EXPECT_EQ(uvhttp_parser_execute(&p, buf.data(), buf.size()), UVHTTP_PARSE_DONE);
    EXPECT_EQ(p.body_len, 2u);
}

TEST(Parser, KeepAliveRules) {
    auto ka = [](const std::string &version, const std::string &fields) {
        Parsed r = parse("GET / " + version + "\r\nHost: h\r\n" + fields + "\r\n");
        EXPECT_EQ(r.rc, UVHTTP_PARSE_DONE) << version << fields;
        return (r.p.flags & UVHTTP_F_KEEP_ALIVE) != 0;
    };
    EXPECT_TRUE(ka("HTTP/1.1", ""));
    EXPECT_FALSE(ka("HTTP/1.1", "Connection: close\r\n"));
    EXPECT_FALSE(ka("HTTP/1.1", "Connection: Upgrade, CLOSE\r\n"));
    EXPECT_FALSE(ka("HTTP/1.0", ""));
    EXPECT_TRUE(ka("HTTP/1.0", "Connection: Keep-Alive\r\n"));
}

TEST(Parser, TargetForms) {
    Parsed abs = parse("GET http://example.test:8080/a/b?c=d HTTP/1.1\r\nHost: example.test\r\n\r\n");
    ASSERT_EQ(abs.rc, UVHTTP_PARSE_DONE);
    EXPECT_EQ(abs.span(abs.p.path), "/a/b");
    EXPECT_EQ(abs.span(abs.p.query), "c=d");
    Parsed bare = parse("GET https://example.test HTTP/1.1\r\nHost: example.test\r\n\r\n");
    ASSERT_EQ(bare.rc, UVHTTP_PARSE_DONE);
    EXPECT_EQ(bare.p.path.len, 0u);  // means "/"
    Parsed star = parse("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n");
    ASSERT_EQ(star.rc, UVHTTP_PARSE_DONE);
    EXPECT_EQ(star.span(star.p.path), "*");
}

TEST(Parser, LeadingEmptyLinesAndObsTextAreAccepted) {
    Parsed r = parse("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\nX-Latin: caf\xe9\r\n\r\n");
    ASSERT_EQ(r.rc, UVHTTP_PARSE_DONE);
    EXPECT_EQ(r.header("X-Latin"), "caf\xe9");
}

TEST(Parser, HeaderSectionLimitIsInclusive) {
    std::string head = "GET / HTTP/1.1\r\nHost: h\r\nX-Pad: ";
    std::string tail = "\r\n\r\n";
    std::string fits = head + std::string(kLimits.max_header_bytes - head.size() - tail.size(), 'p') + tail;
    EXPECT_EQ(fits.size(), kLimits.max_header_bytes);
    EXPECT_EQ(parse(fits).rc, UVHTTP_PARSE_DONE);
    Parsed over = parse(head + "p" + fits.substr(head.size()));
    EXPECT_EQ(over.rc, UVHTTP_PARSE_ERROR);
    EXPECT_EQ(over.p.error_status, 431);
}

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

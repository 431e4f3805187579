// The request parser, messages: request line and fields, incremental feeding, pipelining,
// keep-alive rules, target forms, the header section limit.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parser_util.h"

namespace {

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

}  // namespace

// The request parser, bodies: by Content-Length, chunked (extensions, trailers) decoded in
// place, in one call and byte by byte, and the head reported first for Expect: 100-continue.
#include <gtest/gtest.h>

#include <string>

#include "parser_util.h"

namespace {

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

}  // namespace

// The server over real sockets, HTTP/1.1 itself: answers, keep-alive, pipelining, split reads,
// bodies, 404/405, HEAD, Connection and HTTP/1.0, handler errors, Expect: 100-continue.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "client.h"
#include "test_server.h"

namespace {

TEST(Server, AnswersWithLengthAndDate) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, kGet));
    Response r = read_response(fd);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "hello");
    EXPECT_EQ(r.field("content-length"), "5");
    EXPECT_EQ(r.field("date").size(), 29u);
    EXPECT_EQ(r.field("connection"), "");
    close_fd(fd);
}

TEST(Server, KeepAliveCarriesManyRequests) {
    Server s;
    int fd = connect_to(s.port());
    for (int i = 0; i < 50; i++) {
        ASSERT_TRUE(send_all(fd, kGet));
        ASSERT_EQ(read_response(fd).status, 200) << i;
    }
    close_fd(fd);
    EXPECT_EQ(s.stats().accepted, 1u);
}

TEST(Server, PipelinedRequestsAnswerInOrder) {
    Server s;
    int fd = connect_to(s.port());
    std::string batch;
    for (int i = 0; i < 20; i++)
        batch += "GET /echo?i=" + std::to_string(i) + " HTTP/1.1\r\nHost: t\r\n\r\n";
    ASSERT_TRUE(send_all(fd, batch));
    for (int i = 0; i < 20; i++) EXPECT_EQ(read_response(fd).field("x-query"), "i=" + std::to_string(i));
    close_fd(fd);
}

TEST(Server, RequestSplitAcrossManyReads) {
    Server s;
    int fd = connect_to(s.port());
    std::string req = "POST /echo HTTP/1.1\r\nHost: t\r\nX-Test: split\r\nContent-Length: 4\r\n\r\nbody";
    for (char c : req) {
        ASSERT_TRUE(send_all(fd, std::string(1, c)));
        std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
    Response r = read_response(fd);
    EXPECT_EQ(r.body, "body");
    EXPECT_EQ(r.field("x-test"), "split");
    close_fd(fd);
}

TEST(Server, ChunkedBodyIsDecoded) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                             "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n" + kGet));
    EXPECT_EQ(read_response(fd).body, "abcde");
    EXPECT_EQ(read_response(fd).body, "hello");
    close_fd(fd);
}

TEST(Server, UnknownPathAndWrongMethodKeepTheConnection) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "GET /nope HTTP/1.1\r\nHost: t\r\n\r\nDELETE / HTTP/1.1\r\nHost: t\r\n\r\n" + kGet));
    EXPECT_EQ(read_response(fd).status, 404);
    Response r = read_response(fd);
    EXPECT_EQ(r.status, 405);
    EXPECT_EQ(r.field("allow"), "GET, HEAD");
    EXPECT_EQ(read_response(fd).status, 200);
    close_fd(fd);
}

TEST(Server, HeadSendsLengthButNoBody) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "HEAD / HTTP/1.1\r\nHost: t\r\n\r\n" + kGet));
    Response head = read_response(fd, 3000, true);
    EXPECT_EQ(head.status, 200);
    EXPECT_EQ(head.field("content-length"), "5");
    EXPECT_EQ(read_response(fd).body, "hello");  // no stray body bytes in between
    close_fd(fd);
}

TEST(Server, ConnectionCloseAndHttp10) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"));
    EXPECT_EQ(read_response(fd).field("connection"), "close");
    EXPECT_TRUE(wait_closed(fd, 3000));
    close_fd(fd);
    fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
    EXPECT_EQ(read_response(fd).field("connection"), "keep-alive");
    ASSERT_TRUE(send_all(fd, "GET / HTTP/1.0\r\n\r\n"));
    EXPECT_EQ(read_response(fd).field("connection"), "close");
    EXPECT_TRUE(wait_closed(fd, 3000));
    close_fd(fd);
}

TEST(Server, HandlerErrorsBecome500) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "GET /fail HTTP/1.1\r\nHost: t\r\n\r\n" + kGet));
    EXPECT_EQ(read_response(fd).status, 500);
    EXPECT_EQ(read_response(fd).status, 200);
    close_fd(fd);
}

TEST(Server, ExpectContinue) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"));
    EXPECT_EQ(read_response(fd).status, 100);
    ASSERT_TRUE(send_all(fd, "abc"));
    EXPECT_EQ(read_response(fd).body, "abc");
    close_fd(fd);
}

}  // namespace

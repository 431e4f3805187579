// The server over real sockets, its limits and timeouts: refused requests answered then closed,
// keep-alive and request timeouts, requests per connection, connections.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "client.h"
#include "test_server.h"

namespace {

struct Refusal {
    std::string request;
    int status;
};

class Refuses : public ::testing::TestWithParam<Refusal> {};

TEST_P(Refuses, AnswersAndCloses) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, GetParam().request));
    Response r = read_response(fd);
    EXPECT_EQ(r.status, GetParam().status);
    EXPECT_EQ(r.field("connection"), "close");
    EXPECT_TRUE(wait_closed(fd, 3000));
    close_fd(fd);
    EXPECT_EQ(s.stats().bad_requests, 1u);
}

INSTANTIATE_TEST_SUITE_P(
    Server, Refuses,
    ::testing::Values(
        Refusal{"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\n\r\n" + std::string(5000, 'x'), 413},
        Refusal{"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n2000\r\n", 413},
        Refusal{"GET / HTTP/1.1\nHost: t\n\n", 400},
        Refusal{"GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(3000, 'h') + "\r\n\r\n", 431},
        Refusal{"GET / HTTP/3.0\r\nHost: t\r\n\r\n", 505}));

TEST(Server, IdleConnectionsCloseAfterTheKeepAliveTimeout) {
    Server s([](uvhttp_config &c) { c.keepalive_timeout_ms = 150; });
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, kGet));
    EXPECT_EQ(read_response(fd).status, 200);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_TRUE(wait_closed(fd, 3000));
    EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(100));
    close_fd(fd);
}

TEST(Server, SlowRequestsGet408) {
    Server s([](uvhttp_config &c) { c.request_timeout_ms = 150; });
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "GET / HTTP/1.1\r\nHo"));
    Response r = read_response(fd, 3000);
    EXPECT_EQ(r.status, 408);
    EXPECT_TRUE(wait_closed(fd, 3000));
    close_fd(fd);
    EXPECT_EQ(s.stats().timeouts, 1u);
}

TEST(Server, MaxRequestsPerConnection) {
    Server s([](uvhttp_config &c) { c.max_requests_per_connection = 2; });
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, kGet + kGet));
    EXPECT_EQ(read_response(fd).field("connection"), "");
    EXPECT_EQ(read_response(fd).field("connection"), "close");
    EXPECT_TRUE(wait_closed(fd, 3000));
    close_fd(fd);
}

TEST(Server, MaxConnectionsClosesTheExtraOnes) {
    Server s([](uvhttp_config &c) { c.max_connections = 2; });
    int a = connect_to(s.port()), b = connect_to(s.port());
    ASSERT_TRUE(send_all(a, kGet) && send_all(b, kGet));
    EXPECT_EQ(read_response(a).status, 200);
    EXPECT_EQ(read_response(b).status, 200);
    int c = connect_to(s.port());
    EXPECT_TRUE(wait_closed(c, 3000));
    EXPECT_EQ(s.stats().rejected, 1u);
    for (int fd : {a, b, c}) close_fd(fd);
}

}  // namespace

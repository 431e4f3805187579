// The server over real sockets, answers that take time: asynchronous handlers, clients leaving
// and servers stopping with an answer pending, slow readers of large responses.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "client.h"
#include "test_server.h"

namespace {

TEST(Server, AsynchronousHandlersKeepPipelineOrder) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "GET /later HTTP/1.1\r\nHost: t\r\n\r\n" + kGet + "GET /later HTTP/1.1\r\nHost: t\r\n\r\n"));
    EXPECT_EQ(read_response(fd).body, "later");
    EXPECT_EQ(read_response(fd).body, "hello");
    EXPECT_EQ(read_response(fd).body, "later");
    close_fd(fd);
}

TEST(Server, ClientLeavingBeforeAnAsyncAnswer) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "GET /later HTTP/1.1\r\nHost: t\r\n\r\n"));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    close_fd(fd);
    for (int i = 0; i < 100 && s.stats().active != 0; i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(s.stats().active, 0u);  // answered into the void, then closed
}

TEST(Server, StoppingWithAnAsyncAnswerPending) {
    int before = g_cancelled, fd;
    {
        Server s;
        fd = connect_to(s.port());
        ASSERT_TRUE(send_all(fd, "GET /later HTTP/1.1\r\nHost: t\r\n\r\n"));
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_EQ(g_cancelled, before + 1);  // the late send learnt it; nothing leaked (ASan)
    close_fd(fd);
}

TEST(Server, SlowReaderGetsLargeResponsesWhole) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "GET /big HTTP/1.1\r\nHost: t\r\n\r\nGET /big HTTP/1.1\r\nHost: t\r\n\r\n" + kGet));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the server blocks on the socket
    EXPECT_EQ(read_response(fd).body, g_big);
    EXPECT_EQ(read_response(fd).body.size(), g_big.size());
    EXPECT_EQ(read_response(fd).body, "hello");
    close_fd(fd);
}

TEST(Server, StopsWithConnectionsOpen) {
    int fd;
    {
        Server s;
        fd = connect_to(s.port());
        ASSERT_TRUE(send_all(fd, "GET / HTTP/1.1\r\nHost: t\r\n"));  // half a request
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(wait_closed(fd, 3000));
    close_fd(fd);
}

}  // namespace

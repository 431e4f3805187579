// The server over real sockets: keep-alive, pipelining, split reads, bodies, limits,
// timeouts, asynchronous handlers, slow readers. The server's loop runs in its own thread.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <future>
#include <string>
#include <thread>

#include "client.h"
#include "uvhttp/uvhttp.h"

namespace {

std::string g_big(8u << 20, 'b');  // larger than the socket buffers: forces partial writes
int g_cancelled = 0;               // async sends that found their client gone

int hello(uvhttp_request *, uvhttp_response *res, void *) {
    uvhttp_response_set_header(res, "Content-Type", "text/plain");
    uvhttp_response_set_body(res, "hello", 5);
    return uvhttp_response_send(res);
}

int echo(uvhttp_request *req, uvhttp_response *res, void *) {
    size_t n, qn;
    const char *body = uvhttp_request_body(req, &n);
    const char *q = uvhttp_request_query(req, &qn);
    size_t xn = 0;
    const char *x = uvhttp_request_header(req, "x-test", &xn);
    std::string xs = x ? std::string(x, xn) : "none";
    uvhttp_response_set_header(res, "X-Query", std::string(q, qn).c_str());
    uvhttp_response_set_header(res, "X-Test", xs.c_str());
    uvhttp_response_set_body(res, body, n);
    return uvhttp_response_send(res);
}

int big(uvhttp_request *, uvhttp_response *res, void *) {
    uvhttp_response_set_body_static(res, g_big.data(), g_big.size());
    return uvhttp_response_send(res);
}

int fail(uvhttp_request *, uvhttp_response *, void *) { return -1; }

// Answers 30 ms later from a timer, like a handler waiting on a database.
int later(uvhttp_request *, uvhttp_response *res, void *loop) {
    auto *t = new uv_timer_t;
    uv_timer_init(static_cast<uv_loop_t *>(loop), t);
    t->data = res;
    uv_timer_start(t, [](uv_timer_t *timer) {
        auto *r = static_cast<uvhttp_response *>(timer->data);
        uvhttp_response_set_body(r, "later", 5);
        if (uvhttp_response_send(r) == UV_ECANCELED) g_cancelled++;
        uv_close(reinterpret_cast<uv_handle_t *>(timer), [](uv_handle_t *h) { delete reinterpret_cast<uv_timer_t *>(h); });
    }, 30, 0);
    return 0;
}

class Server {
  public:
    explicit Server(std::function<void(uvhttp_config &)> tune = nullptr) {
        uvhttp_config_init(&cfg_);
        cfg_.max_body_size = 4096;
        cfg_.max_header_size = 2048;
        if (tune) tune(cfg_);
        std::promise<int> ready;
        auto port = ready.get_future();
        thread_ = std::thread([this, &ready] { run(ready); });
        port_ = port.get();
    }
    ~Server() {
        uv_async_send(&stop_);
        thread_.join();
    }
    int port() const { return port_; }
    uvhttp_server_stats stats() {
        uvhttp_server_stats s;
        uvhttp_server_get_stats(server_, &s);  // counters: a torn read is harmless here
        return s;
    }

  private:
    void run(std::promise<int> &ready) {
        uv_loop_init(&loop_);
        router_ = uvhttp_router_new();
        uvhttp_router_add_route_method(router_, UVHTTP_GET, "/", hello, nullptr);
        uvhttp_router_add_route(router_, "/echo", echo, nullptr);
        uvhttp_router_add_route(router_, "/big", big, nullptr);
        uvhttp_router_add_route(router_, "/fail", fail, nullptr);
        uvhttp_router_add_route(router_, "/later", later, &loop_);
        int err = 0;
        server_ = uvhttp_server_new(&loop_, &cfg_, &err);
        EXPECT_EQ(err, 0);
        uvhttp_server_set_router(server_, router_);
        EXPECT_EQ(uvhttp_server_listen(server_, "127.0.0.1", 0), 0);
        uv_async_init(&loop_, &stop_, [](uv_async_t *a) {
            auto *self = static_cast<Server *>(a->data);
            uvhttp_server_free(self->server_);
            uv_close(reinterpret_cast<uv_handle_t *>(a), nullptr);
        });
        stop_.data = this;
        ready.set_value(uvhttp_server_port(server_));
        uv_run(&loop_, UV_RUN_DEFAULT);
        uvhttp_router_free(router_);
        EXPECT_EQ(uv_loop_close(&loop_), 0);
    }
    uvhttp_config cfg_;
    uv_loop_t loop_;
    uv_async_t stop_;
    uvhttp_router *router_ = nullptr;
    uvhttp_server *server_ = nullptr;
    std::thread thread_;
    int port_ = 0;
};

const std::string kGet = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";

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

TEST(Server, HandlerErrorsBecome500) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "GET /fail HTTP/1.1\r\nHost: t\r\n\r\n" + kGet));
    EXPECT_EQ(read_response(fd).status, 500);
    EXPECT_EQ(read_response(fd).status, 200);
    close_fd(fd);
}

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

TEST(Server, ExpectContinue) {
    Server s;
    int fd = connect_to(s.port());
    ASSERT_TRUE(send_all(fd, "POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"));
    EXPECT_EQ(read_response(fd).status, 100);
    ASSERT_TRUE(send_all(fd, "abc"));
    EXPECT_EQ(read_response(fd).body, "abc");
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

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

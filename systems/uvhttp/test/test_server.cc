// The server the server tests talk to (see test_server.h): its handlers, its loop thread
// and the main() of every server test executable.
#include "test_server.h"

#include <signal.h>

#include <gtest/gtest.h>

std::string g_big(8u << 20, 'b');
int g_cancelled = 0;

namespace {

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

}  // namespace

void Server::run(std::promise<int> &ready) {
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

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

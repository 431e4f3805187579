// The server the server tests talk to: uvhttp with a router on its own loop thread, on a
// free port of 127.0.0.1. Routes: GET / "hello", /echo (body, query and X-Test echoed), /big
// (g_big, not copied), /fail (the handler fails: 500), /later (answered 30 ms later from a
// timer). Limits: 4096 body bytes, 2048 header bytes, unless `tune` changes them.
#pragma once

#include <functional>
#include <future>
#include <string>
#include <thread>

#include "uvhttp/uvhttp.h"

extern std::string g_big;  // larger than the socket buffers: forces partial writes
extern int g_cancelled;    // async sends that found their client gone

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
    void run(std::promise<int> &ready);
    uvhttp_config cfg_;
    uv_loop_t loop_;
    uv_async_t stop_;
    uvhttp_router *router_ = nullptr;
    uvhttp_server *server_ = nullptr;
    std::thread thread_;
    int port_ = 0;
};

inline const std::string kGet = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";

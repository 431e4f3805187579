// R1-LibeventSslServer <port> <cert_file> <key_file> [backlog]: the reference TLS echo server,
// OpenSSL + libevent (bufferevent_openssl over the socket), same command line, TLS settings
// and totals as B1-SslBenchServer. One event loop; input is moved to output as it arrives.
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <signal.h>

#include <cstdio>
#include <iostream>

#include "bench_common.hpp"

namespace {

struct Server {
  event_base* base = nullptr;
  SSL_CTX* ctx = nullptr;
  bench::ServerTotals totals;
};

void onRead(bufferevent* bev, void* arg) {
  auto* s = static_cast<Server*>(arg);
  evbuffer* in = bufferevent_get_input(bev);
  const std::size_t n = evbuffer_get_length(in);
  s->totals.bytes_received += n;
  s->totals.bytes_sent += n;
  bufferevent_write_buffer(bev, in);  // moves the chains, no copy
}

void onEvent(bufferevent* bev, short what, void* /*arg*/) {
  if ((what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) != 0) bufferevent_free(bev);
}

void onAccept(evconnlistener* /*l*/, evutil_socket_t fd, sockaddr* /*addr*/, int /*len*/,
              void* arg) {
  auto* s = static_cast<Server*>(arg);
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  SSL* ssl = SSL_new(s->ctx);
  bufferevent* bev = ssl != nullptr ? bufferevent_openssl_socket_new(
                                          s->base, fd, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                          BEV_OPT_CLOSE_ON_FREE)
                                    : nullptr;
  if (bev == nullptr) {
    if (ssl != nullptr) SSL_free(ssl);
    evutil_closesocket(fd);
    return;
  }
  ++s->totals.connections;
  bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
  bufferevent_setcb(bev, onRead, nullptr, onEvent, s);
  bufferevent_enable(bev, EV_READ | EV_WRITE);
}

void onSignal(evutil_socket_t /*sig*/, short /*what*/, void* arg) {
  event_base_loopbreak(static_cast<event_base*>(arg));
}

}  // namespace

int main(int argc, char** argv) {
  const auto args = bench::parseServerArgs(argc, argv);
  if (!args) return 2;
  ::signal(SIGPIPE, SIG_IGN);
  Server s;
  s.ctx = SSL_CTX_new(TLS_server_method());
  if (s.ctx == nullptr || SSL_CTX_set_min_proto_version(s.ctx, TLS1_2_VERSION) != 1 ||
      SSL_CTX_use_certificate_file(s.ctx, args->cert.c_str(), SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_use_PrivateKey_file(s.ctx, args->key.c_str(), SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_set_ciphersuites(s.ctx, bench::cipherSuites().c_str()) != 1) {
    char reason[256];
    ERR_error_string_n(ERR_get_error(), reason, sizeof reason);
    std::cerr << "error: TLS setup: " << reason << "\n";
    return 1;
  }
  SSL_CTX_set_options(s.ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
  s.base = event_base_new();
  sockaddr_in sin{};
  sin.sin_family = AF_INET;
  sin.sin_port = htons(args->port);
  evconnlistener* listener = evconnlistener_new_bind(
      s.base, onAccept, &s, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, args->backlog,
      reinterpret_cast<sockaddr*>(&sin), sizeof sin);
  if (listener == nullptr) {
    std::cerr << "error: cannot listen on port " << args->port << "\n";
    return 1;
  }
  sockaddr_in bound{};
  socklen_t len = sizeof bound;
  getsockname(evconnlistener_get_fd(listener), reinterpret_cast<sockaddr*>(&bound), &len);
  event* sigint = evsignal_new(s.base, SIGINT, onSignal, s.base);
  event* sigterm = evsignal_new(s.base, SIGTERM, onSignal, s.base);
  event_add(sigint, nullptr);
  event_add(sigterm, nullptr);
  std::cout << "SSL Server listening on port " << ntohs(bound.sin_port) << std::endl;
  event_base_dispatch(s.base);
  bench::printServerTotals(s.totals);
  event_free(sigint);
  event_free(sigterm);
  evconnlistener_free(listener);
  event_base_free(s.base);
  SSL_CTX_free(s.ctx);
  return 0;
}

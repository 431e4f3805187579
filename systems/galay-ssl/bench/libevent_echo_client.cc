// R1-LibeventSslClient: the reference client, OpenSSL + libevent, with B1-SslBenchClient's
// command line, protocol (connect with retries, SNI, handshake, then per request: send the
// payload, read until all of it is echoed), error buckets and report.
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.hpp"

namespace {

struct Thread {
  const bench::ClientArgs* args = nullptr;
  bench::Address addr;
  const std::string* payload = nullptr;
  event_base* base = nullptr;
  SSL_CTX* ctx = nullptr;
  bench::ClientTotals totals;
};

struct Conn {
  Thread* t = nullptr;
  bufferevent* bev = nullptr;
  std::size_t attempts = 0;
  std::size_t done = 0;  // requests completed
  std::size_t got = 0;   // bytes of the current echo
  std::size_t loops = 0;
  bool running = false;  // handshake finished
  bool finished = false;
};

void startConnect(Conn* c);

void finish(Conn* c) {
  if (c->bev != nullptr) {
    SSL* ssl = bufferevent_openssl_get_ssl(c->bev);
    if (c->running && ssl != nullptr) SSL_shutdown(ssl);  // our close_notify, as B1 does
    bufferevent_free(c->bev);
    c->bev = nullptr;
  }
  c->finished = true;
}

void sendRequest(Conn* c) {
  const std::size_t n = c->t->args->payload;
  if (bufferevent_write(c->bev, c->t->payload->data(), n) != 0) {
    ++c->t->totals.errors.send;
    finish(c);
    return;
  }
  ++c->t->totals.send_ops;
  c->t->totals.send_bytes += n;
  c->t->totals.bytes_sent += n;
  c->got = 0;
  c->loops = 0;
}

void onRead(bufferevent* bev, void* arg) {
  auto* c = static_cast<Conn*>(arg);
  bench::ClientTotals& t = c->t->totals;
  const std::size_t n = c->t->args->payload;
  evbuffer* in = bufferevent_get_input(bev);
  const std::size_t len = evbuffer_get_length(in);
  evbuffer_drain(in, len);
  ++t.recv_ops;
  ++t.recv_chunks;
  t.recv_bytes += len;
  c->got += len;
  if (c->got < n) {
    if (++c->loops >= bench::kMaxReadLoops) {
      ++t.errors.recv;
      finish(c);
    }
    return;
  }
  t.bytes_received += n;
  ++t.requests;
  if (++c->done < c->t->args->requests) {
    sendRequest(c);
  } else {
    finish(c);
  }
}

void onEvent(bufferevent* /*bev*/, short what, void* arg) {
  auto* c = static_cast<Conn*>(arg);
  bench::ClientTotals& t = c->t->totals;
  if ((what & BEV_EVENT_CONNECTED) != 0) {
    c->running = true;
    if (t.negotiated.empty()) {
      SSL* ssl = bufferevent_openssl_get_ssl(c->bev);
      t.negotiated = std::string(SSL_get_version(ssl)) + " " + SSL_get_cipher_name(ssl);
    }
    if (c->t->args->requests == 0) finish(c);
    else sendRequest(c);
    return;
  }
  if ((what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) == 0) return;
  if (!c->running) ++t.errors.handshake;
  else if ((what & BEV_EVENT_EOF) != 0) ++t.errors.peer_closed;
  else if ((what & BEV_EVENT_WRITING) != 0) ++t.errors.send;
  else ++t.errors.recv;
  finish(c);
}

void onConnected(evutil_socket_t fd, short /*what*/, void* arg) {
  auto* c = static_cast<Conn*>(arg);
  int so_error = 0;
  socklen_t len = sizeof so_error;
  getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
  if (so_error != 0) {
    evutil_closesocket(fd);
    startConnect(c);
    return;
  }
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  SSL* ssl = SSL_new(c->t->ctx);
  SSL_set_tlsext_host_name(ssl, c->t->args->host.c_str());
  c->bev = bufferevent_openssl_socket_new(c->t->base, fd, ssl, BUFFEREVENT_SSL_CONNECTING,
                                          BEV_OPT_CLOSE_ON_FREE);
  if (c->bev == nullptr) {
    SSL_free(ssl);
    evutil_closesocket(fd);
    ++c->t->totals.errors.handshake;
    c->finished = true;
    return;
  }
  bufferevent_openssl_set_allow_dirty_shutdown(c->bev, 1);
  bufferevent_setcb(c->bev, onRead, nullptr, onEvent, c);
  bufferevent_enable(c->bev, EV_READ | EV_WRITE);
}

void retryLater(evutil_socket_t /*fd*/, short /*what*/, void* arg) {
  auto* c = static_cast<Conn*>(arg);
  const evutil_socket_t fd = socket(c->t->addr.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd >= 0 && (connect(fd, reinterpret_cast<const sockaddr*>(&c->t->addr.storage), c->t->addr.len) == 0 || errno == EINPROGRESS)) {
    event_base_once(c->t->base, fd, EV_WRITE, onConnected, c, nullptr);
    return;
  }
  if (fd >= 0) evutil_closesocket(fd);
  startConnect(c);
}

// One more connect attempt (after a pause when it is a retry), or a connect error.
void startConnect(Conn* c) {
  if (c->attempts++ >= c->t->args->retries) {
    ++c->t->totals.errors.connect;
    c->finished = true;
    return;
  }
  const timeval pause{0, static_cast<suseconds_t>(10000 * (c->attempts - 1))};
  event_base_once(c->t->base, -1, EV_TIMEOUT, retryLater, c, c->attempts > 1 ? &pause : nullptr);
}

void runThread(Thread& t, std::size_t connections) {
  t.ctx = SSL_CTX_new(TLS_client_method());
  if (t.ctx == nullptr || SSL_CTX_set_min_proto_version(t.ctx, TLS1_2_VERSION) != 1 ||
      SSL_CTX_set_ciphersuites(t.ctx, bench::cipherSuites().c_str()) != 1) {
    std::cerr << "error: cannot create the client TLS context\n";
    t.totals.errors.handshake += connections;
    return;
  }
  SSL_CTX_set_options(t.ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
  SSL_CTX_set_verify(t.ctx, SSL_VERIFY_NONE, nullptr);
  SSL_CTX_load_verify_locations(t.ctx, bench::kClientCaFile, nullptr);  // as B1; not verified
  ERR_clear_error();
  t.base = event_base_new();
  std::vector<Conn> conns(connections);
  for (Conn& c : conns) {
    c.t = &t;
    startConnect(&c);
  }
  event_base_dispatch(t.base);
  for (Conn& c : conns) finish(&c);
  event_base_free(t.base);
  SSL_CTX_free(t.ctx);
}

}  // namespace

int main(int argc, char** argv) {
  const auto args = bench::parseClientArgs(argc, argv);
  if (!args) return 2;
  ::signal(SIGPIPE, SIG_IGN);
  const auto addr = bench::resolveAddress(args->host, args->port);
  if (!addr) return 1;
  const std::string payload(args->payload, 'x');
  std::vector<Thread> per_thread(args->threads);
  std::vector<std::thread> threads;
  const double t0 = bench::nowMs();
  for (std::size_t i = 0; i < args->threads; ++i) {
    Thread& t = per_thread[i];
    t.args = &*args;
    t.addr = *addr;
    t.payload = &payload;
    const std::size_t conns = bench::connectionsOf(args->connections, args->threads, i);
    threads.emplace_back([&t, conns] { runThread(t, conns); });
  }
  for (std::thread& th : threads) th.join();
  const double duration_ms = bench::nowMs() - t0;
  bench::ClientTotals totals;
  for (const Thread& t : per_thread) totals.merge(t.totals);
  bench::printReport(*args, totals, duration_ms, bench::statsEnabled());
  return totals.errors.total() == 0 ? 0 : 1;
}

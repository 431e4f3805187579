// Non-blocking TCP sockets (see socket.hpp).
#include "galay-ssl/runtime/socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace galay {
namespace {

std::error_code lastError() { return {errno, std::system_category()}; }

}  // namespace

std::expected<SockAddr, std::error_code> resolve(const std::string& host, std::uint16_t port) {
  SockAddr out;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&out.storage);
  if (::inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    out.len = sizeof(sockaddr_in);
    return out;
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
  if (rc != 0 || found == nullptr) {
    return std::unexpected(std::make_error_code(std::errc::host_unreachable));
  }
  std::memcpy(&out.storage, found->ai_addr, found->ai_addrlen);
  out.len = found->ai_addrlen;
  ::freeaddrinfo(found);
  return out;
}

std::expected<Socket, std::error_code> Socket::open(Scheduler& s, int family) {
  const int fd = ::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
  if (fd < 0) return std::unexpected(lastError());
  return adopt(s, fd);
}

std::expected<Socket, std::error_code> Socket::adopt(Scheduler& s, int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ((flags & O_NONBLOCK) == 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0)) {
    const auto error = lastError();
    ::close(fd);
    return std::unexpected(error);
  }
  std::error_code error;
  auto slot = s.attach(fd, error);
  if (!slot) {
    ::close(fd);
    return std::unexpected(error);
  }
  return Socket(*slot);
}

Socket::Socket(Socket&& other) noexcept : slot_(std::exchange(other.slot_, nullptr)) {}

Socket& Socket::operator=(Socket&& other) noexcept {
  if (this != &other) {
    close();
    slot_ = std::exchange(other.slot_, nullptr);
  }
  return *this;
}

std::error_code Socket::setNoDelay(bool on) noexcept {
  const int value = on ? 1 : 0;
  if (::setsockopt(fd(), IPPROTO_TCP, TCP_NODELAY, &value, sizeof value) != 0) return lastError();
  return {};
}

void Socket::close() noexcept {
  if (slot_ == nullptr) return;
  slot_->owner->release(slot_);
  slot_ = nullptr;
}

std::expected<Listener, std::error_code> Listener::bind(Scheduler& s, const SockAddr& addr,
                                                        int backlog) {
  auto sock = Socket::open(s, addr.family());
  if (!sock) return std::unexpected(sock.error());
  const int one = 1;
  ::setsockopt(sock->fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(sock->fd(), addr.get(), addr.len) != 0 || ::listen(sock->fd(), backlog) != 0) {
    return std::unexpected(lastError());
  }
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  if (::getsockname(sock->fd(), reinterpret_cast<sockaddr*>(&bound), &len) != 0) {
    return std::unexpected(lastError());
  }
  Listener out;
  out.port_ = ntohs(bound.ss_family == AF_INET6
                        ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                        : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  out.socket_ = std::move(*sock);
  return out;
}

std::expected<Socket, std::error_code> Listener::AcceptAwaiter::await_resume() const {
  auto fd = io_.await_resume();
  if (!fd) return std::unexpected(fd.error());
  auto sock = Socket::adopt(*slot_->owner, static_cast<int>(*fd));
  if (sock) sock->setNoDelay(true);
  return sock;
}

}  // namespace galay

// SslEngine: one TLS connection as a pure state machine over two OpenSSL memory BIOs.
//
// Ciphertext from the network goes in with feed(); ciphertext for the network comes out with
// takeOutput(). handshake/read/write/shutdown never touch a socket, so they never block:
// kWantRead means "feed me more ciphertext".
#pragma once

#include <openssl/ssl.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "galay-ssl/ssl_context.hpp"

namespace galay::ssl {

enum class SslStatus : std::uint8_t { kOk, kWantRead, kClosed, kError };

struct SslIoResult {
  SslStatus status = SslStatus::kOk;
  std::size_t bytes = 0;
  SslError error{};
};

// A resumable session (shared, reference counted).
class SslSession {
 public:
  SslSession() = default;
  explicit SslSession(SSL_SESSION* adopted) noexcept : s_(adopted) {}
  SslSession(const SslSession& other) noexcept;
  SslSession& operator=(const SslSession& other) noexcept;
  ~SslSession();
  explicit operator bool() const noexcept { return s_ != nullptr; }
  SSL_SESSION* native() const noexcept { return s_; }

 private:
  SSL_SESSION* s_ = nullptr;
};

class SslEngine {
 public:
  static SslResult<SslEngine> create(const SslContext& ctx);
  SslEngine(SslEngine&& other) noexcept;
  SslEngine& operator=(SslEngine&& other) noexcept;
  SslEngine(const SslEngine&) = delete;
  SslEngine& operator=(const SslEngine&) = delete;
  ~SslEngine();

  // Client: SNI name, and the name the certificate must carry when the peer is verified.
  SslResult<void> setHostname(const std::string& host);
  SslResult<void> setSession(const SslSession& session);
  SslSession session() const;
  bool sessionReused() const noexcept;

  // Ciphertext received from the peer.
  void feed(const char* data, std::size_t len);
  // Ciphertext waiting to be sent, and taking up to `cap` bytes of it.
  std::size_t pendingOutput() const noexcept;
  std::size_t takeOutput(char* out, std::size_t cap) noexcept;

  SslIoResult handshake();
  // Up to `len` plaintext bytes: every whole record already fed, as far as `len` allows.
  SslIoResult read(char* buf, std::size_t len);
  // Encrypts all of `buf` (memory BIOs never push back).
  SslIoResult write(const char* buf, std::size_t len);
  // Queues our close_notify.
  SslIoResult shutdown();

  bool isServer() const noexcept { return server_; }
  bool isHandshakeCompleted() const noexcept;
  std::string_view protocol() const noexcept;
  std::string_view cipher() const noexcept;
  std::string_view alpn() const noexcept;
  SSL* native() const noexcept { return ssl_; }

 private:
  SslEngine(SSL* ssl, BIO* in, BIO* out, bool server) noexcept
      : ssl_(ssl), in_(in), out_(out), server_(server) {}
  SslIoResult failure(int rc, SslErrorCode code);
  SSL* ssl_ = nullptr;
  BIO* in_ = nullptr;   // network -> SSL (owned by ssl_)
  BIO* out_ = nullptr;  // SSL -> network (owned by ssl_)
  bool server_ = false;
};

}  // namespace galay::ssl

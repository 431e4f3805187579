// SslContext: the shared TLS configuration of many connections (one OpenSSL SSL_CTX).
#pragma once

#include <openssl/ssl.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "galay-ssl/ssl_error.hpp"

namespace galay::ssl {

enum class SslMethod : std::uint8_t {
  kTlsClient,  // TLS 1.2 or 1.3
  kTlsServer,
  kTls12Client,  // exactly TLS 1.2
  kTls12Server,
  kTls13Client,  // exactly TLS 1.3
  kTls13Server,
};

enum class TlsVersion : int { kTls12 = TLS1_2_VERSION, kTls13 = TLS1_3_VERSION };

// Bit flags, as OpenSSL's SSL_VERIFY_*.
enum class VerifyMode : unsigned {
  kNone = 0,
  kPeer = 1,
  kFailIfNoPeerCert = 2,  // server: a client certificate is required (with kPeer)
  kClientOnce = 4,        // server: ask for the client certificate only once
};
constexpr VerifyMode operator|(VerifyMode a, VerifyMode b) noexcept {
  return static_cast<VerifyMode>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}

enum class SessionCacheMode : std::uint8_t { kOff, kClient, kServer, kBoth };

class SslContext {
 public:
  static SslResult<SslContext> create(SslMethod method);
  SslContext(SslContext&&) noexcept;
  SslContext& operator=(SslContext&&) noexcept;
  SslContext(const SslContext&) = delete;
  SslContext& operator=(const SslContext&) = delete;
  ~SslContext();

  // PEM files. The key is checked against the certificate loaded before it.
  SslResult<void> loadCertificate(const std::string& pem_file);
  SslResult<void> loadCertificateChain(const std::string& pem_file);
  SslResult<void> loadPrivateKey(const std::string& pem_file);
  SslResult<void> loadCaFile(const std::string& pem_file);
  SslResult<void> loadCaPath(const std::string& directory);
  SslResult<void> useDefaultCa();

  void setVerifyMode(VerifyMode mode);
  void setVerifyDepth(int depth);
  // TLS 1.2 cipher list ("ECDHE-ECDSA-AES128-GCM-SHA256:...").
  SslResult<void> setCiphers(const std::string& list);
  // TLS 1.3 suites ("TLS_AES_128_GCM_SHA256:...").
  SslResult<void> setCipherSuites(const std::string& list);
  // Client: protocols offered, in order. Server: the first of its own list the client offers.
  SslResult<void> setAlpn(const std::vector<std::string>& protocols);
  SslResult<void> setMinVersion(TlsVersion v);
  SslResult<void> setMaxVersion(TlsVersion v);
  void setSessionCacheMode(SessionCacheMode mode);
  void setSessionTimeout(std::chrono::seconds timeout);

  bool isServer() const noexcept { return server_; }
  bool verifiesPeer() const noexcept;
  SSL_CTX* native() const noexcept { return ctx_; }

 private:
  struct Alpn;
  SslContext(SSL_CTX* ctx, bool server);
  SSL_CTX* ctx_ = nullptr;
  bool server_ = false;
  std::unique_ptr<Alpn> alpn_;  // stable address for the server's selection callback
};

}  // namespace galay::ssl

// SslEngine over memory BIOs (see ssl_engine.hpp).
#include "galay-ssl/ssl_engine.hpp"

#include <openssl/err.h>
#include <openssl/x509v3.h>

#include <utility>

namespace galay::ssl {

SslSession::SslSession(const SslSession& other) noexcept : s_(other.s_) {
  if (s_ != nullptr) SSL_SESSION_up_ref(s_);
}

SslSession& SslSession::operator=(const SslSession& other) noexcept {
  if (this != &other) {
    if (other.s_ != nullptr) SSL_SESSION_up_ref(other.s_);
    SSL_SESSION_free(s_);
    s_ = other.s_;
  }
  return *this;
}

SslSession::~SslSession() { SSL_SESSION_free(s_); }

SslResult<SslEngine> SslEngine::create(const SslContext& ctx) {
  SSL* ssl = SSL_new(ctx.native());
  if (ssl == nullptr) return std::unexpected(SslError::fromQueue(SslErrorCode::kSslCreateFailed));
  BIO* in = BIO_new(BIO_s_mem());
  BIO* out = BIO_new(BIO_s_mem());
  if (in == nullptr || out == nullptr) {
    BIO_free(in);
    BIO_free(out);
    SSL_free(ssl);
    return std::unexpected(SslError::fromQueue(SslErrorCode::kSslCreateFailed));
  }
  // An empty input BIO means "retry later", never end of file.
  BIO_set_mem_eof_return(in, -1);
  BIO_set_mem_eof_return(out, -1);
  SSL_set_bio(ssl, in, out);
  if (ctx.isServer()) SSL_set_accept_state(ssl);
  else SSL_set_connect_state(ssl);
  return SslEngine(ssl, in, out, ctx.isServer());
}

SslEngine::SslEngine(SslEngine&& other) noexcept
    : ssl_(std::exchange(other.ssl_, nullptr)),
      in_(std::exchange(other.in_, nullptr)),
      out_(std::exchange(other.out_, nullptr)),
      server_(other.server_) {}

SslEngine& SslEngine::operator=(SslEngine&& other) noexcept {
  if (this != &other) {
    SSL_free(ssl_);
    ssl_ = std::exchange(other.ssl_, nullptr);
    in_ = std::exchange(other.in_, nullptr);
    out_ = std::exchange(other.out_, nullptr);
    server_ = other.server_;
  }
  return *this;
}

SslEngine::~SslEngine() { SSL_free(ssl_); }

SslResult<void> SslEngine::setHostname(const std::string& host) {
  if (SSL_set_tlsext_host_name(ssl_, host.c_str()) != 1) {
    return std::unexpected(SslError::fromQueue(SslErrorCode::kSniSetFailed));
  }
  if ((SSL_get_verify_mode(ssl_) & SSL_VERIFY_PEER) != 0 && SSL_set1_host(ssl_, host.c_str()) != 1) {
    return std::unexpected(SslError::fromQueue(SslErrorCode::kSniSetFailed));
  }
  return {};
}

SslResult<void> SslEngine::setSession(const SslSession& session) {
  if (!session || SSL_set_session(ssl_, session.native()) != 1) {
    return std::unexpected(SslError::fromQueue(SslErrorCode::kConfigFailed));
  }
  return {};
}

SslSession SslEngine::session() const { return SslSession(SSL_get1_session(ssl_)); }

bool SslEngine::sessionReused() const noexcept { return SSL_session_reused(ssl_) == 1; }

void SslEngine::feed(const char* data, std::size_t len) {
  std::size_t written = 0;
  BIO_write_ex(in_, data, len, &written);  // a memory BIO takes everything
}

std::size_t SslEngine::pendingOutput() const noexcept { return BIO_ctrl_pending(out_); }

std::size_t SslEngine::takeOutput(char* out, std::size_t cap) noexcept {
  std::size_t got = 0;
  if (BIO_ctrl_pending(out_) == 0 || BIO_read_ex(out_, out, cap, &got) != 1) return 0;
  return got;
}

SslIoResult SslEngine::failure(int rc, SslErrorCode code) {
  const int e = SSL_get_error(ssl_, rc);
  if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) return {SslStatus::kWantRead, 0, {}};
  if (e == SSL_ERROR_ZERO_RETURN) {
    ERR_clear_error();
    return {SslStatus::kClosed, 0, SslError(SslErrorCode::kPeerClosed)};
  }
  const unsigned long reason = ERR_peek_error();
  const long verify = SSL_get_verify_result(ssl_);
  if ((verify != X509_V_OK && (SSL_get_verify_mode(ssl_) & SSL_VERIFY_PEER) != 0) ||
      ERR_GET_REASON(reason) == SSL_R_CERTIFICATE_VERIFY_FAILED ||
      ERR_GET_REASON(reason) == SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE) {
    code = SslErrorCode::kVerificationFailed;
  }
  return {SslStatus::kError, 0, SslError::fromQueue(code)};
}

SslIoResult SslEngine::handshake() {
  const int rc = SSL_do_handshake(ssl_);
  if (rc == 1) return {};
  return failure(rc, SslErrorCode::kHandshakeFailed);
}

SslIoResult SslEngine::read(char* buf, std::size_t len) {
  std::size_t total = 0;
  while (total < len) {
    // Nothing fed and nothing buffered: say so without a failing SSL_read (the steady state
    // of every echo, on both sides).
    if (BIO_ctrl_pending(in_) == 0 && SSL_has_pending(ssl_) == 0) {
      if (total > 0) break;
      return {SslStatus::kWantRead, 0, {}};
    }
    std::size_t got = 0;
    const int rc = SSL_read_ex(ssl_, buf + total, len - total, &got);
    if (rc == 1) {
      total += got;
      continue;
    }
    if (total > 0) {  // hand out what we have; the condition repeats on the next call
      ERR_clear_error();
      break;
    }
    return failure(rc, SslErrorCode::kReadFailed);
  }
  return {SslStatus::kOk, total, {}};
}

SslIoResult SslEngine::write(const char* buf, std::size_t len) {
  if (len == 0) return {};
  std::size_t written = 0;
  const int rc = SSL_write_ex(ssl_, buf, len, &written);
  if (rc == 1) return {SslStatus::kOk, written, {}};
  SslIoResult r = failure(rc, SslErrorCode::kWriteFailed);
  if (r.status == SslStatus::kWantRead) {  // cannot happen with memory BIOs; say so if it does
    r = {SslStatus::kError, 0, SslError(SslErrorCode::kWriteFailed)};
  }
  return r;
}

SslIoResult SslEngine::shutdown() {
  const int rc = SSL_shutdown(ssl_);
  if (rc >= 0) return {};  // 0: ours sent, theirs not yet seen; we do not wait for it
  SslIoResult r = failure(rc, SslErrorCode::kShutdownFailed);
  if (r.status == SslStatus::kWantRead) return {};
  return r;
}

bool SslEngine::isHandshakeCompleted() const noexcept { return SSL_is_init_finished(ssl_) == 1; }

std::string_view SslEngine::protocol() const noexcept { return SSL_get_version(ssl_); }

std::string_view SslEngine::cipher() const noexcept {
  const char* name = SSL_get_cipher_name(ssl_);
  return name != nullptr ? name : "";
}

std::string_view SslEngine::alpn() const noexcept {
  const unsigned char* data = nullptr;
  unsigned int len = 0;
  SSL_get0_alpn_selected(ssl_, &data, &len);
  return {reinterpret_cast<const char*>(data), len};
}

}  // namespace galay::ssl

// SslContext over SSL_CTX (see ssl_context.hpp).
#include "galay-ssl/ssl_context.hpp"

#include <openssl/err.h>
#include <openssl/x509.h>

#include <utility>

namespace galay::ssl {

struct SslContext::Alpn {
  std::vector<unsigned char> wire;  // length-prefixed protocol names
};

namespace {

SslResult<void> check(int rc, SslErrorCode code) {
  if (rc == 1) return {};
  return std::unexpected(SslError::fromQueue(code));
}

int selectAlpn(SSL* /*ssl*/, const unsigned char** out, unsigned char* out_len,
               const unsigned char* offered, unsigned int offered_len, void* arg) {
  const auto* alpn = static_cast<const std::vector<unsigned char>*>(arg);
  unsigned char* chosen = nullptr;
  const int rc = SSL_select_next_proto(&chosen, out_len, alpn->data(),
                                       static_cast<unsigned>(alpn->size()), offered, offered_len);
  if (rc != OPENSSL_NPN_NEGOTIATED) return SSL_TLSEXT_ERR_ALERT_FATAL;
  *out = chosen;
  return SSL_TLSEXT_ERR_OK;
}

}  // namespace

SslResult<SslContext> SslContext::create(SslMethod method) {
  const bool server = method == SslMethod::kTlsServer || method == SslMethod::kTls12Server ||
                      method == SslMethod::kTls13Server;
  SSL_CTX* ctx = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());
  if (ctx == nullptr) return std::unexpected(SslError::fromQueue(SslErrorCode::kContextCreateFailed));
  SslContext out(ctx, server);
  int min = TLS1_2_VERSION;
  int max = 0;  // the highest this OpenSSL knows
  if (method == SslMethod::kTls12Client || method == SslMethod::kTls12Server) max = TLS1_2_VERSION;
  if (method == SslMethod::kTls13Client || method == SslMethod::kTls13Server) min = TLS1_3_VERSION;
  if (method == SslMethod::kTls13Client || method == SslMethod::kTls13Server) max = TLS1_3_VERSION;
  if (SSL_CTX_set_min_proto_version(ctx, min) != 1 || SSL_CTX_set_max_proto_version(ctx, max) != 1) {
    return std::unexpected(SslError::fromQueue(SslErrorCode::kContextCreateFailed));
  }
  SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
  SSL_CTX_set_read_ahead(ctx, 1);  // memory BIOs: take every whole record in one go
  SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
  if (server) {
    static constexpr unsigned char kSessionContext[] = "galay-ssl";
    SSL_CTX_set_session_id_context(ctx, kSessionContext, sizeof kSessionContext - 1);
  }
  return out;
}

SslContext::SslContext(SSL_CTX* ctx, bool server) : ctx_(ctx), server_(server) {}

SslContext::SslContext(SslContext&& other) noexcept
    : ctx_(std::exchange(other.ctx_, nullptr)),
      server_(other.server_),
      alpn_(std::move(other.alpn_)) {}

SslContext& SslContext::operator=(SslContext&& other) noexcept {
  if (this != &other) {
    SSL_CTX_free(ctx_);
    ctx_ = std::exchange(other.ctx_, nullptr);
    server_ = other.server_;
    alpn_ = std::move(other.alpn_);
  }
  return *this;
}

SslContext::~SslContext() { SSL_CTX_free(ctx_); }

SslResult<void> SslContext::loadCertificate(const std::string& pem_file) {
  return check(SSL_CTX_use_certificate_file(ctx_, pem_file.c_str(), SSL_FILETYPE_PEM),
               SslErrorCode::kCertificateLoadFailed);
}

SslResult<void> SslContext::loadCertificateChain(const std::string& pem_file) {
  return check(SSL_CTX_use_certificate_chain_file(ctx_, pem_file.c_str()),
               SslErrorCode::kCertificateLoadFailed);
}

SslResult<void> SslContext::loadPrivateKey(const std::string& pem_file) {
  if (SSL_CTX_use_PrivateKey_file(ctx_, pem_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    const unsigned long reason = ERR_peek_last_error();
    const bool mismatch = ERR_GET_REASON(reason) == X509_R_KEY_VALUES_MISMATCH ||
                          ERR_GET_REASON(reason) == X509_R_KEY_TYPE_MISMATCH;
    return std::unexpected(SslError::fromQueue(mismatch ? SslErrorCode::kKeyMismatch
                                                        : SslErrorCode::kPrivateKeyLoadFailed));
  }
  if (SSL_CTX_get0_certificate(ctx_) != nullptr && SSL_CTX_check_private_key(ctx_) != 1) {
    return std::unexpected(SslError::fromQueue(SslErrorCode::kKeyMismatch));
  }
  return {};
}

SslResult<void> SslContext::loadCaFile(const std::string& pem_file) {
  return check(SSL_CTX_load_verify_locations(ctx_, pem_file.c_str(), nullptr),
               SslErrorCode::kCaLoadFailed);
}

SslResult<void> SslContext::loadCaPath(const std::string& directory) {
  return check(SSL_CTX_load_verify_locations(ctx_, nullptr, directory.c_str()),
               SslErrorCode::kCaLoadFailed);
}

SslResult<void> SslContext::useDefaultCa() {
  return check(SSL_CTX_set_default_verify_paths(ctx_), SslErrorCode::kCaLoadFailed);
}

void SslContext::setVerifyMode(VerifyMode mode) {
  SSL_CTX_set_verify(ctx_, static_cast<int>(mode), nullptr);
}

void SslContext::setVerifyDepth(int depth) { SSL_CTX_set_verify_depth(ctx_, depth); }

bool SslContext::verifiesPeer() const noexcept {
  return (SSL_CTX_get_verify_mode(ctx_) & SSL_VERIFY_PEER) != 0;
}

SslResult<void> SslContext::setCiphers(const std::string& list) {
  return check(SSL_CTX_set_cipher_list(ctx_, list.c_str()), SslErrorCode::kConfigFailed);
}

SslResult<void> SslContext::setCipherSuites(const std::string& list) {
  return check(SSL_CTX_set_ciphersuites(ctx_, list.c_str()), SslErrorCode::kConfigFailed);
}

SslResult<void> SslContext::setAlpn(const std::vector<std::string>& protocols) {
  auto alpn = std::make_unique<Alpn>();
  for (const std::string& p : protocols) {
    if (p.empty() || p.size() > 255) return std::unexpected(SslError(SslErrorCode::kAlpnSetFailed));
    alpn->wire.push_back(static_cast<unsigned char>(p.size()));
    alpn->wire.insert(alpn->wire.end(), p.begin(), p.end());
  }
  if (alpn->wire.empty()) return std::unexpected(SslError(SslErrorCode::kAlpnSetFailed));
  if (server_) {
    SSL_CTX_set_alpn_select_cb(ctx_, selectAlpn, &alpn->wire);
  } else if (SSL_CTX_set_alpn_protos(ctx_, alpn->wire.data(),
                                     static_cast<unsigned>(alpn->wire.size())) != 0) {
    return std::unexpected(SslError::fromQueue(SslErrorCode::kAlpnSetFailed));
  }
  alpn_ = std::move(alpn);
  return {};
}

SslResult<void> SslContext::setMinVersion(TlsVersion v) {
  return check(static_cast<int>(SSL_CTX_set_min_proto_version(ctx_, static_cast<int>(v))),
               SslErrorCode::kConfigFailed);
}

SslResult<void> SslContext::setMaxVersion(TlsVersion v) {
  return check(static_cast<int>(SSL_CTX_set_max_proto_version(ctx_, static_cast<int>(v))),
               SslErrorCode::kConfigFailed);
}

void SslContext::setSessionCacheMode(SessionCacheMode mode) {
  static constexpr long kModes[] = {SSL_SESS_CACHE_OFF, SSL_SESS_CACHE_CLIENT,
                                    SSL_SESS_CACHE_SERVER, SSL_SESS_CACHE_BOTH};
  SSL_CTX_set_session_cache_mode(ctx_, kModes[static_cast<int>(mode)]);
}

void SslContext::setSessionTimeout(std::chrono::seconds timeout) {
  SSL_CTX_set_timeout(ctx_, static_cast<long>(timeout.count()));
}

}  // namespace galay::ssl

// SslError formatting and capture from OpenSSL's error queue.
#include "galay-ssl/ssl_error.hpp"

#include <openssl/err.h>

#include <array>
#include <cstring>

namespace galay::ssl {

std::string_view toString(SslErrorCode code) noexcept {
  static constexpr std::array<std::string_view, 23> kNames = {
      "Success",           "ContextCreateFailed", "CertificateLoadFailed", "PrivateKeyLoadFailed",
      "KeyMismatch",       "CaLoadFailed",        "ConfigFailed",          "SslCreateFailed",
      "ConnectFailed",     "HandshakeFailed",     "HandshakeTimeout",      "HandshakeWantRead",
      "HandshakeWantWrite", "ReadFailed",         "WriteFailed",           "ShutdownFailed",
      "PeerClosed",        "VerificationFailed",  "SniSetFailed",          "AlpnSetFailed",
      "Timeout",           "NotConnected",        "Unknown",
  };
  const auto i = static_cast<std::size_t>(code);
  return i < kNames.size() ? kNames[i] : "Unknown";
}

SslError SslError::fromQueue(SslErrorCode code) noexcept {
  const unsigned long reason = ERR_get_error();
  ERR_clear_error();
  return SslError(code, reason, 0);
}

std::string SslError::message() const {
  std::string out(toString(code_));
  if (ssl_reason_ != 0) {
    char buf[256];
    ERR_error_string_n(ssl_reason_, buf, sizeof buf);
    out += ": ";
    out += buf;
  }
  if (errno_ != 0) {
    out += " (";
    out += std::strerror(errno_);
    out += ")";
  }
  return out;
}

}  // namespace galay::ssl

// Typed TLS errors: a code saying what failed, plus the OpenSSL reason and errno behind it.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace galay::ssl {

enum class SslErrorCode : std::uint8_t {
  kSuccess,
  kContextCreateFailed,
  kCertificateLoadFailed,
  kPrivateKeyLoadFailed,
  kKeyMismatch,
  kCaLoadFailed,
  kConfigFailed,  // protocol bounds, cipher lists
  kSslCreateFailed,
  kConnectFailed,
  kHandshakeFailed,
  kHandshakeTimeout,
  kHandshakeWantRead,
  kHandshakeWantWrite,
  kReadFailed,
  kWriteFailed,
  kShutdownFailed,
  kPeerClosed,
  kVerificationFailed,
  kSniSetFailed,
  kAlpnSetFailed,
  kTimeout,
  kNotConnected,
  kUnknown,
};

// The code's name without the k prefix, e.g. "HandshakeFailed".
std::string_view toString(SslErrorCode code) noexcept;

class SslError {
 public:
  constexpr SslError() = default;
  constexpr explicit SslError(SslErrorCode code, unsigned long ssl_reason = 0,
                              int sys_errno = 0) noexcept
      : code_(code), ssl_reason_(ssl_reason), errno_(sys_errno) {}
  // `code` with the first error on OpenSSL's queue (the queue is then cleared).
  static SslError fromQueue(SslErrorCode code) noexcept;

  SslErrorCode code() const noexcept { return code_; }
  // OpenSSL's packed error (ERR_get_error), 0 when none.
  unsigned long sslReason() const noexcept { return ssl_reason_; }
  int sysErrno() const noexcept { return errno_; }
  // "HandshakeFailed: <OpenSSL reason> (errno text)".
  std::string message() const;

  friend bool operator==(const SslError& e, SslErrorCode c) noexcept { return e.code_ == c; }

 private:
  SslErrorCode code_ = SslErrorCode::kSuccess;
  unsigned long ssl_reason_ = 0;
  int errno_ = 0;
};

template <typename T>
using SslResult = std::expected<T, SslError>;

}  // namespace galay::ssl

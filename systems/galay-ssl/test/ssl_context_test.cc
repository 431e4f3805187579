// SslContext: loading certificates and keys, and configuration errors, as typed results.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using galay::ssl::SslContext;
using galay::ssl::SslErrorCode;
using galay::ssl::SslMethod;
using galay::ssl::TlsVersion;
using support::cert;

SslContext server() { return SslContext::create(SslMethod::kTlsServer).value(); }

TEST(SslContext, LoadsAMatchingCertificateAndKey) {
  auto ctx = server();
  EXPECT_TRUE(ctx.loadCertificate(cert("server.crt")));
  EXPECT_TRUE(ctx.loadPrivateKey(cert("server.key")));
  EXPECT_TRUE(ctx.isServer());
}

TEST(SslContext, AMissingCertificateIsACertificateLoadError) {
  auto ctx = server();
  auto r = ctx.loadCertificate(cert("does-not-exist.crt"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), SslErrorCode::kCertificateLoadFailed);
  EXPECT_NE(r.error().sslReason(), 0u);
  EXPECT_NE(r.error().message().find("CertificateLoadFailed"), std::string::npos);
}

TEST(SslContext, AMissingKeyIsAPrivateKeyLoadError) {
  auto ctx = server();
  auto r = ctx.loadPrivateKey(cert("does-not-exist.key"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), SslErrorCode::kPrivateKeyLoadFailed);
}

TEST(SslContext, AKeyOfAnotherCertificateIsAKeyMismatch) {
  auto ctx = server();
  ASSERT_TRUE(ctx.loadCertificate(cert("server.crt")));
  auto r = ctx.loadPrivateKey(cert("client.key"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), SslErrorCode::kKeyMismatch);
}

TEST(SslContext, AMissingCaFileIsACaLoadError) {
  auto ctx = SslContext::create(SslMethod::kTlsClient).value();
  EXPECT_TRUE(ctx.loadCaFile(cert("ca.crt")));
  auto r = ctx.loadCaFile(cert("nope.crt"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), SslErrorCode::kCaLoadFailed);
}

TEST(SslContext, UnknownCiphersAndSuitesAreConfigErrors) {
  auto ctx = SslContext::create(SslMethod::kTlsClient).value();
  EXPECT_TRUE(ctx.setCipherSuites("TLS_AES_128_GCM_SHA256"));
  EXPECT_TRUE(ctx.setCiphers("ECDHE-ECDSA-AES128-GCM-SHA256"));
  auto suites = ctx.setCipherSuites("TLS_NOT_A_SUITE");
  ASSERT_FALSE(suites);
  EXPECT_EQ(suites.error().code(), SslErrorCode::kConfigFailed);
  auto ciphers = ctx.setCiphers("NOT-A-CIPHER");
  ASSERT_FALSE(ciphers);
  EXPECT_EQ(ciphers.error().code(), SslErrorCode::kConfigFailed);
}

TEST(SslContext, EmptyOrOversizedAlpnNamesAreRejected) {
  auto ctx = SslContext::create(SslMethod::kTlsClient).value();
  EXPECT_TRUE(ctx.setAlpn({"h2", "http/1.1"}));
  EXPECT_EQ(ctx.setAlpn({}).error().code(), SslErrorCode::kAlpnSetFailed);
  EXPECT_EQ(ctx.setAlpn({""}).error().code(), SslErrorCode::kAlpnSetFailed);
  EXPECT_EQ(ctx.setAlpn({std::string(256, 'a')}).error().code(), SslErrorCode::kAlpnSetFailed);
}

TEST(SslContext, VersionBoundsAndVerifyModeAreApplied) {
  auto ctx = SslContext::create(SslMethod::kTls12Client).value();
  EXPECT_EQ(SSL_CTX_get_max_proto_version(ctx.native()), TLS1_2_VERSION);
  EXPECT_TRUE(ctx.setMaxVersion(TlsVersion::kTls13));
  EXPECT_EQ(SSL_CTX_get_max_proto_version(ctx.native()), TLS1_3_VERSION);
  EXPECT_FALSE(ctx.verifiesPeer());
  ctx.setVerifyMode(galay::ssl::VerifyMode::kPeer);
  EXPECT_TRUE(ctx.verifiesPeer());
  auto tls13 = SslContext::create(SslMethod::kTls13Server).value();
  EXPECT_EQ(SSL_CTX_get_min_proto_version(tls13.native()), TLS1_3_VERSION);
}

TEST(SslError, NamesEveryCode) {
  EXPECT_EQ(galay::ssl::toString(SslErrorCode::kSuccess), "Success");
  EXPECT_EQ(galay::ssl::toString(SslErrorCode::kHandshakeTimeout), "HandshakeTimeout");
  EXPECT_EQ(galay::ssl::toString(SslErrorCode::kVerificationFailed), "VerificationFailed");
  EXPECT_EQ(galay::ssl::toString(SslErrorCode::kUnknown), "Unknown");
  const galay::ssl::SslError e(SslErrorCode::kReadFailed, 0, ECONNRESET);
  EXPECT_NE(e.message().find("ReadFailed"), std::string::npos);
  EXPECT_NE(e.message().find("reset"), std::string::npos);
}

}  // namespace

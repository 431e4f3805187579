// Configuration defaults and validation (every field is range-checked, by name).
#include <gtest/gtest.h>

#include <string>

#include "uvhttp/config.h"
#include "uv.h"

namespace {

TEST(Config, DefaultsAreValid) {
    uvhttp_config *cfg = uvhttp_config_new();
    ASSERT_NE(cfg, nullptr);
    char err[128] = "unset";
    EXPECT_EQ(uvhttp_config_validate(cfg, err, sizeof err), 0);
    EXPECT_STREQ(err, "");
    EXPECT_EQ(cfg->max_connections, 2048u);
    EXPECT_EQ(cfg->max_headers, static_cast<uint32_t>(UVHTTP_MAX_HEADERS));
    uvhttp_config_free(cfg);
}

struct Case {
    const char *field;
    void (*mutate)(uvhttp_config *);
};

class Invalid : public ::testing::TestWithParam<Case> {};

TEST_P(Invalid, IsRejectedNamingTheField) {
    uvhttp_config cfg;
    uvhttp_config_init(&cfg);
    GetParam().mutate(&cfg);
    char err[128] = "";
    EXPECT_EQ(uvhttp_config_validate(&cfg, err, sizeof err), UV_EINVAL);
    EXPECT_NE(std::string(err).find(GetParam().field), std::string::npos) << err;
}

INSTANTIATE_TEST_SUITE_P(
    Config, Invalid,
    ::testing::Values(
        Case{"max_connections", [](uvhttp_config *c) { c->max_connections = 0; }},
        Case{"max_connections", [](uvhttp_config *c) { c->max_connections = 70000; }},
        Case{"backlog", [](uvhttp_config *c) { c->backlog = 0; }},
        Case{"backlog", [](uvhttp_config *c) { c->backlog = 70000; }},
        Case{"max_body_size", [](uvhttp_config *c) { c->max_body_size = (1u << 30) + 1; }},
        Case{"max_header_size", [](uvhttp_config *c) { c->max_header_size = 100; }},
        Case{"max_headers", [](uvhttp_config *c) { c->max_headers = 0; }},
        Case{"max_headers", [](uvhttp_config *c) { c->max_headers = UVHTTP_MAX_HEADERS + 1; }},
        Case{"read_buffer_size", [](uvhttp_config *c) { c->read_buffer_size = 10; }},
        Case{"write_buffer_size", [](uvhttp_config *c) { c->write_buffer_size = 1u << 30; }},
        Case{"keepalive_timeout_ms", [](uvhttp_config *c) { c->keepalive_timeout_ms = 0; }},
        Case{"request_timeout_ms", [](uvhttp_config *c) { c->request_timeout_ms = 1; }}));

TEST(Config, NullIsRejected) {
    char err[64];
    EXPECT_EQ(uvhttp_config_validate(nullptr, err, sizeof err), UV_EINVAL);
    EXPECT_STREQ(err, "no configuration");
}

}  // namespace

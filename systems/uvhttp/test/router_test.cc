// The exact-path router: methods, HEAD falling back to GET, 404/405, fallback, growth.
#include <gtest/gtest.h>

#include <string>

#include "uvhttp/router.h"
#include "uv.h"

namespace {

int h1(uvhttp_request *, uvhttp_response *, void *) { return 1; }
int h2(uvhttp_request *, uvhttp_response *, void *) { return 2; }

struct Router {
    uvhttp_router *r = uvhttp_router_new();
    ~Router() { uvhttp_router_free(r); }
    uvhttp_route_match match(uvhttp_method m, const std::string &path) {
        uvhttp_route_match out;
        uvhttp_router_match(r, m, path.data(), path.size(), &out);
        return out;
    }
};

TEST(Router, ExactPathsOnly) {
    Router t;
    int tag = 7;
    ASSERT_EQ(uvhttp_router_add_route(t.r, "/api", h1, &tag), 0);
    auto m = t.match(UVHTTP_POST, "/api");
    EXPECT_EQ(m.status, 0);
    EXPECT_EQ(m.fn, &h1);
    EXPECT_EQ(m.data, &tag);
    EXPECT_EQ(t.match(UVHTTP_GET, "/api/").status, 404);
    EXPECT_EQ(t.match(UVHTTP_GET, "/ap").status, 404);
    EXPECT_EQ(t.match(UVHTTP_GET, "/API").status, 404);
}

TEST(Router, PerMethodRoutesWinOverAnyMethod) {
    Router t;
    ASSERT_EQ(uvhttp_router_add_route(t.r, "/x", h1, nullptr), 0);
    ASSERT_EQ(uvhttp_router_add_route_method(t.r, UVHTTP_DELETE, "/x", h2, nullptr), 0);
    EXPECT_EQ(t.match(UVHTTP_DELETE, "/x").fn, &h2);
    EXPECT_EQ(t.match(UVHTTP_GET, "/x").fn, &h1);
}

TEST(Router, HeadUsesGetAnd405ListsTheMethods) {
    Router t;
    ASSERT_EQ(uvhttp_router_add_route_method(t.r, UVHTTP_GET, "/doc", h1, nullptr), 0);
    ASSERT_EQ(uvhttp_router_add_route_method(t.r, UVHTTP_PUT, "/doc", h2, nullptr), 0);
    EXPECT_EQ(t.match(UVHTTP_HEAD, "/doc").fn, &h1);
    auto m = t.match(UVHTTP_POST, "/doc");
    EXPECT_EQ(m.status, 405);
    EXPECT_EQ(m.fn, nullptr);
    EXPECT_EQ(m.allowed, (1u << UVHTTP_GET) | (1u << UVHTTP_HEAD) | (1u << UVHTTP_PUT));
}

TEST(Router, FallbackTakesUnknownPaths) {
    Router t;
    ASSERT_EQ(uvhttp_router_set_fallback(t.r, h2, nullptr), 0);
    auto m = t.match(UVHTTP_GET, "/nowhere");
    EXPECT_EQ(m.status, 0);
    EXPECT_EQ(m.fn, &h2);
}

TEST(Router, RejectsDuplicatesAndBadPaths) {
    Router t;
    ASSERT_EQ(uvhttp_router_add_route_method(t.r, UVHTTP_GET, "/a", h1, nullptr), 0);
    EXPECT_EQ(uvhttp_router_add_route_method(t.r, UVHTTP_GET, "/a", h2, nullptr), UV_EEXIST);
    for (const char *bad : {"", "a", "/a b", "/a?b", "/a#b", "/\x01"})
        EXPECT_EQ(uvhttp_router_add_route(t.r, bad, h1, nullptr), UV_EINVAL) << bad;
    EXPECT_EQ(uvhttp_router_add_route(t.r, nullptr, h1, nullptr), UV_EINVAL);
    EXPECT_EQ(uvhttp_router_add_route(t.r, "/b", nullptr, nullptr), UV_EINVAL);
    EXPECT_EQ(uvhttp_router_size(t.r), 1u);
}

TEST(Router, ThousandsOfRoutesStayReachable) {
    Router t;
    for (int i = 0; i < 3000; i++)
        ASSERT_EQ(uvhttp_router_add_route(t.r, ("/r/" + std::to_string(i)).c_str(), h1, nullptr), 0);
    EXPECT_EQ(uvhttp_router_size(t.r), 3000u);
    for (int i = 0; i < 3000; i += 7) EXPECT_EQ(t.match(UVHTTP_GET, "/r/" + std::to_string(i)).status, 0);
    EXPECT_EQ(t.match(UVHTTP_GET, "/r/3000").status, 404);
}

}  // namespace

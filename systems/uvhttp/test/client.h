// A blocking test client: raw bytes in, parsed HTTP/1.1 responses out.
#pragma once

#include <map>
#include <string>

struct Response {
    int status = 0;
    std::map<std::string, std::string> fields;  // lower-case names
    std::string body;
    bool ok = false;  // a whole response was read
    std::string field(const std::string &name) const;
};

int connect_to(int port);                          // -1 on failure
bool send_all(int fd, const std::string &bytes);
// Read one response (Content-Length framed; `head` = response to HEAD, no body).
Response read_response(int fd, int timeout_ms = 3000, bool head = false);
// True when the peer closes (EOF or reset) within the timeout.
bool wait_closed(int fd, int timeout_ms);
void close_fd(int fd);

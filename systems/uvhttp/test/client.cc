// A blocking test client (see client.h).
#include "client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

std::string Response::field(const std::string &name) const {
    auto it = fields.find(name);
    return it == fields.end() ? std::string() : it->second;
}

int connect_to(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

bool send_all(int fd, const std::string &bytes) {
    size_t off = 0;
    while (off < bytes.size()) {
        ssize_t n = send(fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        off += static_cast<size_t>(n);
    }
    return true;
}

// Per-socket bytes read past the last response (pipelined responses arrive together).
static std::map<int, std::string> &leftovers() {
    static std::map<int, std::string> m;
    return m;
}

static bool fill(int fd, std::string &buf, int timeout_ms) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return false;
    char tmp[65536];
    ssize_t n = recv(fd, tmp, sizeof tmp, 0);
    if (n <= 0) return false;
    buf.append(tmp, static_cast<size_t>(n));
    return true;
}

Response read_response(int fd, int timeout_ms, bool head) {
    Response r;
    std::string &buf = leftovers()[fd];
    size_t end;
    while ((end = buf.find("\r\n\r\n")) == std::string::npos)
        if (!fill(fd, buf, timeout_ms)) return r;
    std::string headers = buf.substr(0, end);
    size_t line_end = headers.find("\r\n");
    std::string status_line = headers.substr(0, line_end);
    if (status_line.rfind("HTTP/1.1 ", 0) != 0) return r;
    r.status = std::atoi(status_line.c_str() + 9);
    size_t pos = line_end == std::string::npos ? headers.size() : line_end + 2;
    while (pos < headers.size()) {
        size_t e = headers.find("\r\n", pos);
        if (e == std::string::npos) e = headers.size();
        std::string line = headers.substr(pos, e - pos);
        size_t colon = line.find(':');
        std::string name = line.substr(0, colon);
        for (auto &ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        std::string value = colon == std::string::npos ? "" : line.substr(colon + 1);
        while (!value.empty() && value[0] == ' ') value.erase(0, 1);
        r.fields[name] = value;
        pos = e + 2;
    }
    size_t len = head || r.status == 100 ? 0 : std::strtoul(r.field("content-length").c_str(), nullptr, 10);
    while (buf.size() < end + 4 + len)
        if (!fill(fd, buf, timeout_ms)) return r;
    r.body = buf.substr(end + 4, len);
    buf.erase(0, end + 4 + len);
    r.ok = true;
    return r;
}

bool wait_closed(int fd, int timeout_ms) {
    std::string &buf = leftovers()[fd];
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, timeout_ms) <= 0) return false;
        char tmp[4096];
        ssize_t n = recv(fd, tmp, sizeof tmp, 0);
        if (n <= 0) return true;
        buf.append(tmp, static_cast<size_t>(n));
    }
}

void close_fd(int fd) {
    leftovers().erase(fd);
    close(fd);
}

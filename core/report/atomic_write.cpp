#include "report/atomic_write.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bs {

namespace {
bool (*gFailBeforeRename)() = nullptr;
} // namespace

void testing::setAtomicWriteFailpoint(bool (*f)()) {
    gFailBeforeRename = f;
}

std::string writeFileAtomically(const std::string& path, std::string_view content) {
    std::string tmpl = path + ".tmp-XXXXXX";
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0) return "cannot create a temporary file beside " + path + ": " + std::strerror(errno);
    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            std::string err = "cannot write " + path + ": " + std::strerror(errno);
            ::close(fd);
            ::unlink(tmpl.c_str());
            return err;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::fchmod(fd, 0644) != 0) {
        std::string err = "cannot flush " + path + ": " + std::strerror(errno);
        ::close(fd);
        ::unlink(tmpl.c_str());
        return err;
    }
    if (::close(fd) != 0) {
        std::string err = "cannot close " + path + ": " + std::strerror(errno);
        ::unlink(tmpl.c_str());
        return err;
    }
    if (gFailBeforeRename && gFailBeforeRename()) {
        ::unlink(tmpl.c_str());
        return "cannot move the finished file onto " + path + ": simulated failure before the rename";
    }
    if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
        std::string err = "cannot move the finished file onto " + path + ": " + std::strerror(errno);
        ::unlink(tmpl.c_str());
        return err;
    }
    return {};
}

} // namespace bs

#include "report/atomic_write.h"

#include <algorithm>
#include <cstdint>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bs {

namespace {
bool (*gFailBeforeRename)() = nullptr;

constexpr std::string_view kTempSuffix = ".tmp-XXXXXX";

// The temporary file sits in the target's folder (rename is atomic only within one file system). Its
// name is the target's plus a suffix, unless that would pass NAME_MAX: then a short hidden name, so a
// 250-byte file name is not refused because of our suffix.
std::string temporaryNameFor(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    const std::size_t nameLength = slash == std::string::npos ? path.size() : path.size() - slash - 1;
    if (nameLength + kTempSuffix.size() <= NAME_MAX) return path + std::string(kTempSuffix);
    return (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + ".bs-XXXXXX";
}

// umask() can only be read by setting it, which races with other threads creating files; Linux shows
// it in /proc/self/status (since 4.7).
mode_t currentUmask() {
    mode_t mask = 022;
    if (std::FILE* f = std::fopen("/proc/self/status", "re")) {
        char line[256];
        while (std::fgets(line, sizeof line, f)) {
            unsigned m = 0;
            if (std::sscanf(line, "Umask: %o", &m) == 1) {
                mask = static_cast<mode_t>(m & 0777);
                break;
            }
        }
        std::fclose(f);
    }
    return mask;
}

// mkstemp creates 0600; give the new file the mode the old one had, or a new file's usual mode.
std::string applyTargetMode(int fd, const std::string& path) {
    struct stat old {};
    if (::stat(path.c_str(), &old) == 0 && S_ISREG(old.st_mode)) {
        struct stat now {};
        // Keeping the owner only works for root (or when nothing changes); failing to is not an error.
        if (::fstat(fd, &now) == 0 && (now.st_uid != old.st_uid || now.st_gid != old.st_gid))
            (void)!::fchown(fd, old.st_uid, old.st_gid);
        if (::fchmod(fd, old.st_mode & 07777) != 0)
            return "cannot set the permissions of " + path + ": " + std::strerror(errno);
        return {};
    }
    if (::fchmod(fd, 0666 & ~currentUmask()) != 0)
        return "cannot set the permissions of " + path + ": " + std::strerror(errno);
    return {};
}

// Written in 8 MB pieces, each handed to the disk as soon as it is written (sync_file_range starts the
// write-back without waiting), so the fsync before the rename waits for the last piece only, not for the
// whole file (an 80 MB export at 1 GB of trace).
std::string writeAll(int fd, const std::vector<std::string_view>& pieces, const std::string& path) {
    constexpr std::size_t kPiece = 8u << 20;
    off_t started = 0, written = 0;
    auto startWriteBack = [&] {
#ifdef SYNC_FILE_RANGE_WRITE
        if (written > started) (void)::sync_file_range(fd, started, written - started, SYNC_FILE_RANGE_WRITE);
#endif
        started = written; // best effort
    };
    const int error = writePieces(fd, pieces, kPiece, [&](std::uint64_t total) {
        written = static_cast<off_t>(total);
        if (written - started >= static_cast<off_t>(kPiece)) startWriteBack();
    });
    if (error) return "cannot write " + path + ": " + std::strerror(error);
    startWriteBack();
    return {};
}

} // namespace

void testing::setAtomicWriteFailpoint(bool (*f)()) {
    gFailBeforeRename = f;
}

int writePieces(int fd, const std::vector<std::string_view>& pieces, std::size_t maxCall,
                const std::function<void(std::uint64_t)>& afterWrite) {
    std::uint64_t total = 0;
    for (const auto& piece : pieces) {
        const char* p = piece.data();
        std::size_t left = piece.size();
        while (left > 0) {
            const ssize_t n = ::write(fd, p, std::min(left, maxCall));
            if (n < 0) {
                if (errno == EINTR) continue;
                return errno;
            }
            p += n;
            left -= static_cast<std::size_t>(n);
            total += static_cast<std::uint64_t>(n);
            if (afterWrite) afterWrite(total);
        }
    }
    return 0;
}

std::string writeFileAtomically(const std::string& path, std::string_view content) {
    return writeFileAtomically(path, std::vector<std::string_view>{content});
}

std::string writeFileAtomically(const std::string& path, const std::vector<std::string_view>& pieces) {
    std::string tmp = temporaryNameFor(path);
    const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
    if (fd < 0) return "cannot create a temporary file beside " + path + ": " + std::strerror(errno);
    std::string err = writeAll(fd, pieces, path);
    if (err.empty()) err = applyTargetMode(fd, path);
    if (err.empty() && ::fsync(fd) != 0) err = "cannot flush " + path + ": " + std::strerror(errno);
    if (::close(fd) != 0 && err.empty()) err = "cannot close " + path + ": " + std::strerror(errno);
    if (err.empty() && gFailBeforeRename && gFailBeforeRename())
        err = "cannot move the finished file onto " + path + ": simulated failure before the rename";
    if (err.empty() && std::rename(tmp.c_str(), path.c_str()) != 0)
        err = "cannot move the finished file onto " + path + ": " + std::strerror(errno);
    if (!err.empty()) ::unlink(tmp.c_str());
    return err;
}

} // namespace bs

#include "io/file_buffer.h"

#include "i18n/message.h"

#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <algorithm>
#include <string>
#include <utility>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace bs {

namespace {

constexpr std::uint64_t kUnlimited = 1ULL << 40;

// First number in a small text file (e.g. a cgroup's memory.max); nullopt for "max" or unreadable.
std::optional<std::uint64_t> readNumberFile(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "r");
    if (!f) return std::nullopt;
    unsigned long long v = 0;
    const int got = std::fscanf(f, "%llu", &v);
    std::fclose(f);
    if (got != 1) return std::nullopt;
    return static_cast<std::uint64_t>(v);
}

// MemAvailable of /proc/meminfo.
std::uint64_t systemAvailable() {
    std::FILE* f = std::fopen("/proc/meminfo", "r");
    if (!f) return kUnlimited;
    char line[256];
    unsigned long long kb = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
    std::fclose(f);
    return kb ? static_cast<std::uint64_t>(kb) * 1024 : kUnlimited;
}

// Headroom under an address-space limit (ulimit -v, prlimit --as): the limit minus what is mapped now.
std::uint64_t addressSpaceHeadroom() {
    struct rlimit rl {};
    if (::getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return kUnlimited;
    std::uint64_t mapped = 0;
    if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
        unsigned long long pages = 0;
        if (std::fscanf(f, "%llu", &pages) == 1)
            mapped = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
        std::fclose(f);
    }
    const auto limit = static_cast<std::uint64_t>(rl.rlim_cur);
    return limit > mapped ? limit - mapped : 0;
}

// Headroom under the cgroup memory limit of this process and its parents: v2 (memory.max −
// memory.current, unified hierarchy) and v1 (memory.limit_in_bytes − memory.usage_in_bytes).
std::uint64_t cgroupHeadroom() {
    std::FILE* f = std::fopen("/proc/self/cgroup", "r");
    if (!f) return kUnlimited;
    char line[4096];
    std::string v2, v1;
    while (std::fgets(line, sizeof line, f)) {
        std::string l(line);
        while (!l.empty() && (l.back() == '\n' || l.back() == '\r'))
            l.pop_back();
        if (l.rfind("0::", 0) == 0) v2 = l.substr(3);
        const auto m = l.find(":memory:");
        if (m != std::string::npos) v1 = l.substr(m + 8);
    }
    std::fclose(f);
    std::uint64_t best = kUnlimited;
    auto walk = [&](std::string dir, const std::string& root, const char* maxFile, const char* curFile) {
        if (dir.empty() || dir[0] != '/') return;
        for (;;) {
            const std::string base = root + (dir == "/" ? std::string() : dir);
            if (auto max = readNumberFile(base + maxFile)) {
                const std::uint64_t cur = readNumberFile(base + curFile).value_or(0);
                best = std::min(best, *max > cur ? *max - cur : 0);
            }
            if (dir == "/") break;
            const auto slash = dir.rfind('/');
            dir = slash == 0 ? std::string("/") : dir.substr(0, slash);
        }
    };
    walk(v2, "/sys/fs/cgroup", "/memory.max", "/memory.current");
    walk(v1, "/sys/fs/cgroup/memory", "/memory.limit_in_bytes", "/memory.usage_in_bytes");
    return best;
}

} // namespace

std::uint64_t availableMemoryBytes() {
    if (const char* env = std::getenv("BUBBLESCOPE_MEMORY_LIMIT_MB")) {
        char* end = nullptr;
        const unsigned long long mb = std::strtoull(env, &end, 10);
        if (end != env) return static_cast<std::uint64_t>(mb) << 20;
    }
    return std::min({systemAvailable(), addressSpaceHeadroom(), cgroupHeadroom()});
}

void yieldCpuToOtherThreads() {
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    errno = 0;
    const int now = ::getpriority(PRIO_PROCESS, tid);
    if (now == -1 && errno != 0) return;
    (void)::setpriority(PRIO_PROCESS, tid, std::min(now + 5, 19)); // best effort: raising nice needs no privilege
}

CheckedFile::CheckedFile(CheckedFile&& other) noexcept
    : fd(std::exchange(other.fd, -1)), size(other.size), error(std::move(other.error)) {}

CheckedFile& CheckedFile::operator=(CheckedFile&& other) noexcept {
    if (this != &other) {
        if (fd >= 0) ::close(fd);
        fd = std::exchange(other.fd, -1);
        size = other.size;
        error = std::move(other.error);
    }
    return *this;
}

CheckedFile::~CheckedFile() {
    if (fd >= 0) ::close(fd);
}

CheckedFile openCheckedFile(const std::string& path, std::uint64_t maxBytes, bool rejectBinary) {
    CheckedFile cf;
    cf.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (cf.fd < 0) {
        cf.error = msg("cannot read {}: {}", path, std::strerror(errno));
        return cf;
    }
    auto refuse = [&](std::string why) {
        ::close(std::exchange(cf.fd, -1));
        cf.error = std::move(why);
        return std::move(cf);
    };
    struct stat st {};
    if (::fstat(cf.fd, &st) != 0 || !S_ISREG(st.st_mode)) return refuse(msg("{} is not a regular file", path));
    if (static_cast<std::uint64_t>(st.st_size) > maxBytes)
        return refuse(msg("{} is {} bytes, larger than the {} bytes this reader accepts", path,
                          static_cast<long long>(st.st_size), maxBytes));
    ::fcntl(cf.fd, F_SETFL, ::fcntl(cf.fd, F_GETFL) & ~O_NONBLOCK);
    if (rejectBinary) {
        char head[65536];
        std::size_t n = 0;
        while (n < sizeof head) {
            const ssize_t got = ::pread(cf.fd, head + n, sizeof head - n, static_cast<off_t>(n));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;
            n += static_cast<std::size_t>(got);
        }
        if (std::memchr(head, '\0', n))
            return refuse(msg("{} holds NUL bytes in its first {} bytes: it is binary or a sparse/corrupt file, "
                              "not text",
                              path, n));
    }
    cf.size = static_cast<std::uint64_t>(st.st_size);
    return cf;
}

void BufferRelease::operator()(char* p) const noexcept {
    if (mappedBytes)
        ::munmap(p, mappedBytes);
    else
        delete[] p;
}

namespace {

// From this size on, a buffer is mapped on its own with all its pages made present at once (MAP_POPULATE):
// read() into fresh pages otherwise faults once per 4 KiB page, and the faults cost about as much as the
// copy (communication.json of a 1 GB profile: 72 MB, 17 600 faults). Small pages, not huge ones: on VMs
// whose host takes freed memory back (free page reporting) huge pages come from the blocks handed back and
// sometimes cost 30-50 x more to fill (core/README.md, "Whole-file buffers"). Populating is best effort:
// a page the kernel could not make present is faulted in by read() as before.
constexpr std::size_t kMappedBufferBytes = std::size_t(8) << 20;

std::unique_ptr<char[], BufferRelease> allocateBuffer(std::size_t bytes) {
    if (bytes >= kMappedBufferBytes) {
        const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        const std::size_t mapped = (bytes + page - 1) / page * page;
        void* p = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
                         -1, 0);
        if (p != MAP_FAILED)
            return std::unique_ptr<char[], BufferRelease>(static_cast<char*>(p), BufferRelease{mapped});
    }
    return std::unique_ptr<char[], BufferRelease>(new char[bytes], BufferRelease{});
}

} // namespace

FileBuffer readWholeFile(const std::string& path, std::uint64_t maxBytes, bool rejectBinary) {
    FileBuffer fb;
    const CheckedFile cf = openCheckedFile(path, maxBytes, rejectBinary);
    if (cf.fd < 0) {
        fb.error = cf.error;
        return fb;
    }
    const std::uint64_t avail = availableMemoryBytes();
    if (cf.size > avail / 2) {
        fb.error = msg("{} is {} MiB, more than half of the memory available ({} MiB); it is not read", path,
                       static_cast<long long>(cf.size >> 20), avail >> 20);
        return fb;
    }
    const std::size_t size = static_cast<std::size_t>(cf.size);
    fb.data = allocateBuffer(size + kReadPadding);
    std::size_t got = 0;
    while (got < size) {
        const ssize_t n = ::read(cf.fd, fb.data.get() + got, size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            fb.error = msg("read error on {}: {}", path, std::strerror(errno));
            break;
        }
        if (n == 0) break; // the file shrank meanwhile: what was read
        got += static_cast<std::size_t>(n);
    }
    fb.length = got;
    std::memset(fb.data.get() + got, 0, size + kReadPadding - got);
    return fb;
}

} // namespace bs

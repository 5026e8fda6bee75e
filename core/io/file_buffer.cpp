#include "io/file_buffer.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

namespace bs {

std::uint64_t availableMemoryBytes() {
    if (const char* env = std::getenv("BUBBLESCOPE_MEMORY_LIMIT_MB")) {
        char* end = nullptr;
        const unsigned long long mb = std::strtoull(env, &end, 10);
        if (end != env) return static_cast<std::uint64_t>(mb) << 20;
    }
    std::FILE* f = std::fopen("/proc/meminfo", "r");
    if (!f) return 1ULL << 40;
    char line[256];
    std::uint64_t kb = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "MemAvailable: %llu kB", reinterpret_cast<unsigned long long*>(&kb)) == 1)
            break;
    std::fclose(f);
    return kb ? kb * 1024 : (1ULL << 40);
}

FileBuffer readWholeFile(const std::string& path, std::uint64_t maxBytes, bool rejectBinary) {
    FileBuffer fb;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        fb.error = "cannot read " + path + ": " + std::strerror(errno);
        return fb;
    }
    if (!S_ISREG(st.st_mode)) {
        fb.error = path + " is not a regular file";
        return fb;
    }
    if (static_cast<std::uint64_t>(st.st_size) > maxBytes) {
        fb.error = path + " is " + std::to_string(st.st_size) + " bytes, larger than the " +
                   std::to_string(maxBytes) + " bytes this reader accepts";
        return fb;
    }
    if (static_cast<std::uint64_t>(st.st_size) > availableMemoryBytes() / 2) {
        fb.error = path + " is " + std::to_string(st.st_size >> 20) +
                   " MiB, more than half of the memory available (" +
                   std::to_string(availableMemoryBytes() >> 20) + " MiB); it is not read";
        return fb;
    }
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        fb.error = "cannot open " + path + ": " + std::strerror(errno);
        return fb;
    }
    if (rejectBinary) {
        char head[65536];
        const std::size_t n = std::fread(head, 1, sizeof head, f);
        if (std::memchr(head, '\0', n)) {
            std::fclose(f);
            fb.error = path + " holds NUL bytes in its first " + std::to_string(n) +
                       " bytes: it is binary or a sparse/corrupt file, not text";
            return fb;
        }
        std::rewind(f);
    }
    const std::size_t size = static_cast<std::size_t>(st.st_size);
    fb.data.reset(new char[size + kReadPadding]);
    std::size_t got = std::fread(fb.data.get(), 1, size, f);
    if (std::ferror(f)) fb.error = "read error on " + path + ": " + std::strerror(errno);
    std::fclose(f);
    fb.length = got;
    std::memset(fb.data.get() + got, 0, size + kReadPadding - got);
    return fb;
}

} // namespace bs

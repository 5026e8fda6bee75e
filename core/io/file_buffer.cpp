#include "io/file_buffer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace bs {

FileBuffer readWholeFile(const std::string& path, std::uint64_t maxBytes) {
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
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        fb.error = "cannot open " + path + ": " + std::strerror(errno);
        return fb;
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

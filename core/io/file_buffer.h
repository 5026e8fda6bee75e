#pragma once
// Whole-file reads for the (small to medium) CSV/JSON side files, with zeroed padding so that
// simdjson can parse in place. Trace files are streamed in chunks instead (trace_json_reader).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bs {

// Frees a FileBuffer's bytes: munmap for a large buffer (mapped on its own, its pages made present
// before the read), delete[] otherwise.
struct BufferRelease {
    std::size_t mappedBytes = 0; // 0: allocated with new[]
    void operator()(char* p) const noexcept;
};

struct FileBuffer {
    std::unique_ptr<char[], BufferRelease> data; // length + kReadPadding bytes; not value-initialised
                                                 // (no extra pass)
    std::size_t length = 0;
    std::string error; // non-empty when the read failed
    const char* begin() const { return data.get(); }
    std::string_view view() const { return data ? std::string_view(data.get(), length) : std::string_view(); }
};

constexpr std::size_t kReadPadding = 64;

// A file opened for reading after the checks every side-file reader makes: open first, then check what
// was opened (fstat; a path checked before opening could be swapped for a FIFO in between, and O_NONBLOCK
// keeps open() from waiting for a FIFO's writer), a regular file, at most maxBytes, and (rejectBinary) no NUL
// byte in its first 64 KiB. On success fd >= 0 (blocking again) and error is empty; otherwise fd is -1 and
// error says why, with the path. It owns the descriptor: closed when it goes (also when an exception
// passes, e.g. a buffer that cannot be allocated).
struct CheckedFile {
    int fd = -1;
    std::uint64_t size = 0;
    std::string error;
    CheckedFile() = default;
    CheckedFile(CheckedFile&& other) noexcept;
    CheckedFile& operator=(CheckedFile&& other) noexcept;
    CheckedFile(const CheckedFile&) = delete;
    CheckedFile& operator=(const CheckedFile&) = delete;
    ~CheckedFile();
};
CheckedFile openCheckedFile(const std::string& path, std::uint64_t maxBytes, bool rejectBinary);

// Reads a file fully. Refuses, with a message and before allocating, files larger than maxBytes or
// than half the memory available, and (rejectBinary) files whose first 64 KiB hold NUL bytes —
// a sparse or binary file is never read into memory.
FileBuffer readWholeFile(const std::string& path, std::uint64_t maxBytes = (4ULL << 30),
                         bool rejectBinary = false);

// Memory available to this process in bytes: the smallest of MemAvailable (/proc/meminfo), the headroom
// under an address-space limit (RLIMIT_AS, e.g. `ulimit -v`) and under the cgroup v2 memory.max of this
// process and its parents; or the BUBBLESCOPE_MEMORY_LIMIT_MB environment variable when set.
std::uint64_t availableMemoryBytes();

// Makes the calling thread yield the CPU to its process's other threads when they compete for it (Linux's
// nice value is per thread: +5 here). For a helper thread that is not on the load's critical path, e.g. the
// side tables read while the timeline is parsed: on a 2-core machine three busy threads otherwise share
// the cores evenly and the parse, which everything waits for, runs at two thirds of its speed.
void yieldCpuToOtherThreads();

} // namespace bs

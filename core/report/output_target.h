#pragma once
// Where an output named by the user really goes. Symbolic links are followed first, then:
// a regular file or a new path is replaced atomically (report/atomic_write.h); a character device or a
// FIFO is opened and written straight (never replaced by a regular file); `-`, /dev/stdout, /dev/fd/N
// and /proc/self/fd/N are our own open descriptor, written straight too — also when the shell redirected
// it to a regular file, which must not be renamed over. Folders, block devices and sockets are refused.
#include <string>
#include <string_view>
#include <vector>

namespace bs {

struct OutputTarget {
    enum class Kind { File, Stream, Descriptor, Refused };
    Kind kind = Kind::Refused;
    std::string given;                   // as the user wrote it
    std::string path;                    // File / Stream: the path after following symbolic links
    int fd = -1;                         // Descriptor: the descriptor written to (1 for `-`)
    bool exists = false;                 // File: replaces an existing regular file
    unsigned long long dev = 0, ino = 0; // identity of what exists there (file, node, open descriptor)
    bool isFolder = false;               // Refused because it is a folder (`--arch DIR` wants that)
    std::string refusal;                 // Refused: why, as the end of a sentence ("is a folder")

    bool isStandardOutput() const { return kind == Kind::Descriptor && fd == 1; }
    // How messages name it: the path as given, or "standard output" for `-`.
    std::string displayName() const { return given == "-" ? "standard output" : given; }
    // Equal for two names of the same output (used to refuse writing one file twice).
    std::string identity() const;
};

OutputTarget resolveOutputTarget(const std::string& given);

// Why writing is already known to fail (the folder does not exist, the name is too long, the
// descriptor is not open), as a sentence; empty when nothing is known against it. Lets a run fail
// before it writes anything.
std::string knownWriteProblem(const OutputTarget& target);

// Writes the whole content; returns an empty string on success, else a sentence
// ("cannot write /dev/full: No space left on device").
std::string writeOutput(const OutputTarget& target, std::string_view content);
// The same for content given in pieces, written one after another.
std::string writeOutput(const OutputTarget& target, const std::vector<std::string_view>& pieces);

// resolveOutputTarget + writeOutput, for callers that name one file (the window's File ▸ Export).
std::string writeOutput(const std::string& path, std::string_view content);

} // namespace bs

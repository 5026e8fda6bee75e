#include "report/output_target.h"

#include "report/atomic_write.h"

#include "io/discovery.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace bs {

namespace {

constexpr int kMaxSymlinkHops = 40; // the kernel's own limit

bool allDigits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

// "/proc/<our pid>/fd/N" (what /dev/stdout, /dev/fd/N and /proc/self/fd/N resolve to) → N, else -1.
// Following that last link would name the file behind the descriptor, which is not the same thing:
// the descriptor has its own offset, and a pipe has no path at all.
int ownDescriptorNumber(const std::string& canonical) {
    const std::string prefix = "/proc/" + std::to_string(::getpid()) + "/fd/";
    if (canonical.rfind(prefix, 0) != 0) return -1;
    const std::string_view n = std::string_view(canonical).substr(prefix.size());
    if (!allDigits(n) || n.size() > 9) return -1;
    return std::atoi(std::string(n).c_str());
}

std::string realPath(const std::string& p) {
    char* r = ::realpath(p.c_str(), nullptr);
    if (!r) return {};
    std::string s(r);
    std::free(r);
    return s;
}

OutputTarget descriptorTarget(const std::string& given, int fd) {
    OutputTarget t;
    t.kind = OutputTarget::Kind::Descriptor;
    t.given = given;
    t.fd = fd;
    struct stat st {};
    if (::fstat(fd, &st) == 0) {
        t.dev = st.st_dev;
        t.ino = st.st_ino;
    }
    return t;
}

OutputTarget refused(const std::string& given, std::string why, bool isFolder = false) {
    OutputTarget t;
    t.given = given;
    t.refusal = std::move(why);
    t.isFolder = isFolder;
    return t;
}

// A name without a last component ("out/", ".", ".."): only a folder can be meant.
OutputTarget resolveFolderName(const std::string& given, const fs::path& p) {
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
        OutputTarget t = refused(given, "is a folder", true);
        t.path = realPath(p.string());
        return t;
    }
    return refused(given, "names a folder that does not exist");
}

// Classifies what exists at a canonical path (its parent has no symbolic links left); `next` receives
// the link's target when it is a symbolic link.
OutputTarget classify(const std::string& given, const std::string& canonical, std::string& next) {
    struct stat st {};
    if (::lstat(canonical.c_str(), &st) != 0) {
        // A name too long to exist is a new path that cannot be created: knownWriteProblem says so.
        if (errno != ENOENT && errno != ENAMETOOLONG)
            return refused(given, std::string("cannot be examined: ") + std::strerror(errno));
        OutputTarget t;
        t.kind = OutputTarget::Kind::File;
        t.given = given;
        t.path = canonical;
        return t;
    }
    if (S_ISLNK(st.st_mode)) {
        std::error_code ec;
        const fs::path target = fs::read_symlink(canonical, ec);
        if (ec) return refused(given, "is a symbolic link that cannot be read: " + ec.message());
        next = target.is_absolute() ? target.string() : (fs::path(canonical).parent_path() / target).string();
        return {};
    }
    OutputTarget t;
    t.given = given;
    t.path = canonical;
    t.dev = st.st_dev;
    t.ino = st.st_ino;
    if (S_ISREG(st.st_mode)) {
        // The one guard every writer passes: whatever the command and option, a profile's file is never
        // replaced by an output (the profile would be lost with exit 0).
        if (const std::string profile = profileOwningFile(canonical); !profile.empty()) {
            t.refusal = "is a file of the profile " + profile + "; choose another output";
            return t;
        }
        t.kind = OutputTarget::Kind::File;
        t.exists = true;
    } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        t.kind = OutputTarget::Kind::Stream;
    } else if (S_ISDIR(st.st_mode)) {
        t.refusal = "is a folder";
        t.isFolder = true;
    } else {
        t.refusal = S_ISBLK(st.st_mode) ? "is a block device" : "is a socket";
        t.refusal += "; outputs are regular files, character devices or FIFOs";
    }
    return t;
}

std::string writeAllTo(int fd, const std::vector<std::string_view>& pieces, const OutputTarget& t) {
    if (const int error = writePieces(fd, pieces, SSIZE_MAX))
        return "cannot write " + t.displayName() + ": " + std::strerror(error);
    return {};
}

} // namespace

std::string OutputTarget::identity() const {
    switch (kind) {
    case Kind::File:
    case Kind::Stream:
        return "path:" + path;
    case Kind::Descriptor:
        return "fd:" + std::to_string(fd);
    case Kind::Refused:
        break;
    }
    return "given:" + given;
}

OutputTarget resolveOutputTarget(const std::string& given) {
    if (given.empty()) return refused(given, "is empty");
    if (given == "-") return descriptorTarget(given, 1);
    std::error_code ec;
    std::string current = given;
    for (int hop = 0; hop < kMaxSymlinkHops; ++hop) {
        fs::path p = fs::absolute(current, ec);
        if (ec) return refused(given, "cannot be made absolute: " + ec.message());
        const std::string name = p.filename().string();
        if (name.empty() || name == "." || name == "..") return resolveFolderName(given, p);
        const std::string parent = realPath(p.parent_path().string());
        if (parent.empty()) {
            // The folder is missing (knownWriteProblem says so): nothing there to protect.
            OutputTarget t;
            t.kind = OutputTarget::Kind::File;
            t.given = given;
            t.path = p.lexically_normal().string();
            return t;
        }
        const std::string canonical = (parent == "/" ? "" : parent) + "/" + name;
        if (const int fd = ownDescriptorNumber(canonical); fd >= 0) return descriptorTarget(given, fd);
        std::string next;
        OutputTarget t = classify(given, canonical, next);
        if (next.empty()) return t;
        current = next;
    }
    return refused(given, "has too many levels of symbolic links");
}

std::string knownWriteProblem(const OutputTarget& t) {
    if (t.kind == OutputTarget::Kind::Descriptor) {
        const int flags = ::fcntl(t.fd, F_GETFL);
        if (flags < 0)
            return "cannot write " + t.displayName() + ": descriptor " + std::to_string(t.fd) +
                   " is not open";
        if ((flags & O_ACCMODE) == O_RDONLY)
            return "cannot write " + t.displayName() + ": it is open for reading only";
        return {};
    }
    if (t.kind != OutputTarget::Kind::File) return {};
    const fs::path p(t.path);
    const std::string folder = p.parent_path().string();
    struct stat st {};
    if (::stat(folder.c_str(), &st) != 0)
        return "cannot write " + t.given + ": the folder " + folder + " does not exist";
    if (!S_ISDIR(st.st_mode)) return "cannot write " + t.given + ": " + folder + " is not a folder";
    if (p.filename().string().size() > NAME_MAX)
        return "cannot write " + t.given + ": the file name is longer than " + std::to_string(NAME_MAX) +
               " bytes";
    if (::access(folder.c_str(), W_OK) != 0)
        return "cannot write " + t.given + ": cannot create files in " + folder + ": " + std::strerror(errno);
    return {};
}

std::string writeOutput(const OutputTarget& t, std::string_view content) {
    return writeOutput(t, std::vector<std::string_view>{content});
}

std::string writeOutput(const OutputTarget& t, const std::vector<std::string_view>& content) {
    // The content is written byte for byte (pictures too): the renderers wrote sentences in their language.
    switch (t.kind) {
    case OutputTarget::Kind::File:
        return writeFileAtomically(t.path, content);
    case OutputTarget::Kind::Stream: {
        // No O_CREAT (it exists), no O_TRUNC (meaningless for a device or FIFO); a FIFO blocks here until
        // someone reads it, as it does for any writer.
        const int fd = ::open(t.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) return "cannot open " + t.displayName() + ": " + std::strerror(errno);
        std::string err = writeAllTo(fd, content, t);
        if (::close(fd) != 0 && err.empty())
            err = "cannot write " + t.displayName() + ": " + std::strerror(errno);
        return err;
    }
    case OutputTarget::Kind::Descriptor:
        // Whatever stdio still holds goes first, so the order on the terminal is the order of writing.
        if (t.fd == 1) std::fflush(stdout);
        if (t.fd == 2) std::fflush(stderr);
        return writeAllTo(t.fd, content, t);
    case OutputTarget::Kind::Refused:
        break;
    }
    return "cannot write " + t.displayName() + ": it " + t.refusal;
}

std::string writeOutput(const std::string& path, std::string_view content) {
    return writeOutput(resolveOutputTarget(path), content);
}

} // namespace bs

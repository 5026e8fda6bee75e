#pragma once
// Exports are written to a temporary file beside the target and renamed over it, so a reader
// (or a crash) sees either the old file or the complete new one, never a half-written file.
// Only for regular files and new paths: devices, FIFOs and standard output go through
// report/output_target.h, which decides.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace bs {

// Writes `path` (taken literally: the caller resolves symbolic links) through a temporary file in the
// same folder. An existing file keeps its permission bits (and, when we may, its owner); a new file
// gets 0666 minus the umask, as if created by a shell redirection. Returns an empty string on success,
// else a sentence saying what failed; the temporary file never stays behind.
std::string writeFileAtomically(const std::string& path, std::string_view content);
// The same for content given in pieces, written one after another.
std::string writeFileAtomically(const std::string& path, const std::vector<std::string_view>& pieces);

// Writes the pieces to fd one after another, in write() calls of at most maxCall bytes, again after EINTR
// and after a partial write; afterWrite (if set) gets the bytes written so far after each call. Returns 0,
// or the errno of the write that failed.
int writePieces(int fd, const std::vector<std::string_view>& pieces, std::size_t maxCall,
                const std::function<void(std::uint64_t)>& afterWrite = {});

namespace testing {
// Test hook: when set and returning true, the write fails after the temp file is complete and
// before the rename — the moment a crash would hurt most. Pass nullptr to clear.
void setAtomicWriteFailpoint(bool (*failBeforeRename)());
} // namespace testing

} // namespace bs

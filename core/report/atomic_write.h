#pragma once
// Exports are written to a temporary file beside the target and renamed over it, so a reader
// (or a crash) sees either the old file or the complete new one, never a half-written file.
#include <string>
#include <string_view>

namespace bs {

// Returns an empty string on success, else a sentence saying what failed.
std::string writeFileAtomically(const std::string& path, std::string_view content);

namespace testing {
// Test hook: when set and returning true, the write fails after the temp file is complete and
// before the rename — the moment a crash would hurt most. Pass nullptr to clear.
void setAtomicWriteFailpoint(bool (*failBeforeRename)());
} // namespace testing

} // namespace bs

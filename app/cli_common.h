#pragma once
// Pieces the headless commands share (`analyze`, `cluster`): standard output that remembers its first
// failure, the checks of the cluster outputs, and one output written whole or not at all.
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace bs {
struct OutputTarget;
namespace cli {

class Progress;

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitNoData = 3;
constexpr int kExitWriteFailed = 4;
constexpr int kExitIncomplete = 5; // `cluster`: merged, but a rank has no summary or a summary was refused

// Standard output through stdio, remembering the first failure (a full disk, a closed descriptor) so
// the exit status can say the output was not written.
class StandardOutput {
  public:
    void put(const std::string& s);
    // Flushes; the reason of the first failure, or 0.
    int finish();

  private:
    int error_ = 0;
};

// The cluster JSON / report outputs (--cluster-json/--cluster-report of analyze, --json/--report of cluster):
// refused before anything is read when unwritable, a stream, or the same as another output (`seen`: the
// identities of the other outputs). `command` prefixes the messages ("bubblescope analyze").
std::optional<int> checkClusterOutputs(const char* command,
                                       const std::vector<std::pair<const char*, std::string>>& outputs,
                                       std::vector<std::string> seen);

// Writes one output (a file atomically; Ctrl+C waits for it, see progress.h); prints "wrote NAME" or the
// error. False when it was not written.
bool writeOneOutput(const OutputTarget& target, const std::string& what, const std::string& content, Progress& progress);

} // namespace cli
} // namespace bs

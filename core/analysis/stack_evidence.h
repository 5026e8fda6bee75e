#pragma once
// From a bubble window to the lines of the user's code behind it: the host events overlapping the window,
// their call stacks split into frames, each frame user code or library, host time attributed to the
// innermost user frame and to the innermost frame of each event (core/README.md, "Stack evidence").
#include "analysis/anomaly_model.h"
#include "analysis/host_evidence.h"
#include "model/profile.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace bs {

struct StackFrame {
    std::string_view text; // the frame as written: "/home/u/main.py(350): train"
    std::string_view file; // "/home/u/main.py" (empty when the frame has no "file(line): " form)
    std::string_view function;
    long line = 0;
    bool user = false;
};

// The frames of a stack, innermost first. Frames are separated by ";" followed by a line break (the
// profiler writes ";\r\n"); at most kMaxFrames are kept. Views point into `stack`.
std::vector<StackFrame> splitStack(std::string_view stack);
constexpr std::size_t kMaxFrames = 256;

// Library code: a file under a site-packages / dist-packages folder, in the Python standard library
// (…/lib/pythonX.Y/, …/lib64/pythonX.Y/), in a torch / torch_npu package folder, or a pseudo-file such
// as <string> / <frozen …>. Everything else is user code.
bool isLibraryFile(std::string_view file);
// The rule above in one sentence, for the report.
const char* libraryRuleText();

// "main.py:350 train" for a frame.
std::string frameLabel(const StackFrame& f);

// Fills each step group's recurringUserLines from its windows' top user lines (capture-boundary windows
// left out): a line counts once per step, and is kept from kMinRecurringSteps steps on.
void aggregateGroupStackLines(AnomalyResult& a);
constexpr std::size_t kMinRecurringSteps = 2;

class StackEvidenceBuilder {
  public:
    StackEvidenceBuilder(const Profile& p, const HostIndex& host);
    StackEvidence evidence(Interval window) const;

  private:
    const Profile& p_;
    const HostIndex& host_;
    bool collected_ = false;
    mutable std::unordered_map<StrId, std::vector<StackFrame>> frames_; // per distinct stack
    const std::vector<StackFrame>& framesOf(StrId stack) const;
};

} // namespace bs

#pragma once
// Decides, before anything is loaded or written, every file a headless run will write: one per rank
// when several ranks are analysed (the rank's label in the name, made unique), one shared stream when
// the output is a device, a FIFO or standard output. Refuses outputs that name a file of the profile
// being analysed, the same output twice, and outputs already known to be unwritable, so a run either
// can write everything it plans or writes nothing.
#include "io/discovery.h"
#include "report/output_target.h"

#include <cstddef>
#include <string>
#include <vector>

namespace bs {

struct OutputRequest {
    std::string option; // "--json" (for messages)
    std::string what;   // "the JSON" (for "… was not written")
    std::string given;  // the value, as the user wrote it; empty: this output is not asked for
    // --arch DIR: a folder receives model_architecture_report_<rank>.md
    bool folderAllowed = false;
};

struct PlannedOutput {
    std::size_t request = 0; // index into the requests
    OutputTarget target;
    bool shared = false; // a stream receiving every rank's output in turn (several ranks)
};

struct OutputPlan {
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::vector<PlannedOutput> outputs;
    std::vector<std::vector<std::size_t>> forRank; // [rank][request] → index into outputs, or kNone
    bool usesStandardOutput = false;               // some output is written straight to descriptor 1
    std::string error;                             // one message when the run must not start
    bool usageError = true;                        // error kind: usage (exit 2) or unwritable (exit 4)
};

OutputPlan planOutputs(const std::vector<OutputRequest>& requests, const std::vector<RankFolder>& ranks);

// The part of a per-rank file name that names the rank: its label with '/' as '_' and control
// characters dropped (other bytes, UTF-8 letters included, are kept), "-2", "-3"… appended when two
// ranks would still get the same name. Same order as `labels`.
std::vector<std::string> uniqueRankTags(const std::vector<std::string>& labels);

// "out/a.json" + "rank0" → "out/a.rank0.json".
std::string perRankFileName(const std::string& given, const std::string& tag);

} // namespace bs

#include "cli_common.h"
#include "progress.h"

#include "report/escape.h"
#include "report/output_target.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>

namespace bs::cli {

void StandardOutput::put(const std::string& s) {
    if (std::fwrite(s.data(), 1, s.size(), stdout) != s.size() && error_ == 0) error_ = errno ? errno : EIO;
}

int StandardOutput::finish() {
    errno = 0;
    if (std::fflush(stdout) != 0 && error_ == 0) error_ = errno ? errno : EIO;
    if (std::ferror(stdout) && error_ == 0) error_ = EIO;
    return error_;
}

std::optional<int> checkClusterOutputs(const char* command,
                                       const std::vector<std::pair<const char*, std::string>>& outputs,
                                       std::vector<std::string> seen) {
    for (const auto& [option, given] : outputs) {
        if (given.empty()) continue;
        const OutputTarget t = resolveOutputTarget(given);
        if (t.kind == OutputTarget::Kind::Refused) {
            std::fprintf(stderr, "%s: %s %s %s.\n", command, option, term(given).c_str(), t.refusal.c_str());
            return kExitUsage;
        }
        if (t.kind == OutputTarget::Kind::Descriptor) {
            std::fprintf(stderr, "%s: %s writes a file or a device; for standard output use --format json (its "
                                 "document holds \"cluster\").\n", command, option);
            return kExitUsage;
        }
        const std::string id = t.identity();
        if (std::find(seen.begin(), seen.end(), id) != seen.end()) {
            std::fprintf(stderr, "%s: %s and another option name the same output (%s).\n", command, option,
                         term(given).c_str());
            return kExitUsage;
        }
        seen.push_back(id);
        if (const std::string why = knownWriteProblem(t); !why.empty()) {
            std::fprintf(stderr, "bubblescope: %s %s cannot be written: %s\n", option, term(given).c_str(),
                         term(why).c_str());
            return kExitWriteFailed;
        }
    }
    return std::nullopt;
}

bool writeOneOutput(const OutputTarget& target, const std::string& what, const std::string& content, Progress& progress) {
    progress.writing(target.displayName());
    std::string err;
    {
        OutputWriteGuard guard(target.kind == OutputTarget::Kind::File);
        err = writeOutput(target, content);
    }
    if (!err.empty())
        progress.error("bubblescope: " + what + " was not written: " + term(err));
    else
        progress.note("bubblescope: wrote " + term(target.displayName()));
    progress.pause(); // until the next phase: "writing" is over
    return err.empty();
}

} // namespace bs::cli

#include "report/output_plan.h"

#include "io/discovery.h"

#include <filesystem>
#include <map>
#include <set>
#include <sys/stat.h>
#include <utility>

namespace fs = std::filesystem;

namespace bs {

namespace {

using FileId = std::pair<unsigned long long, unsigned long long>; // (st_dev, st_ino)

// Every file of the analysed ranks by identity, so an output reached through another name (a symbolic
// link, a hard link, "..") is still recognised. The profile's files are what the loader reads, everything
// inside the rank's sub-folders (ASCEND_PROFILER_OUTPUT, FRAMEWORK, PROF_*/device_*, …) and the
// profiler's own files beside them (profiler_info_*.json, profiler_metadata.json). Other files at the
// top of the rank folder (an analysis.json written there by a previous run) are not the profile's, so
// naming them again works. Links are followed (the loader follows them too); a folder seen twice is
// not entered again.
class ProfileFiles {
  public:
    explicit ProfileFiles(const std::vector<RankFolder>& ranks) {
        for (const auto& r : ranks) {
            const RankFiles in = listRankFiles(r);
            for (const std::string* p :
                 {&in.kernelDetails, &in.stepTraceTime, &in.communication, &in.traceView, &in.opStatistic})
                add(*p);
            for (const auto* list : {&in.opSummary, &in.taskTime, &in.msprofJson, &in.profilerInfo,
                                     &in.sqliteExports, &in.otherCsv})
                for (const auto& p : *list)
                    add(p);
            struct stat st {};
            if (r.layout == "loose" || ::stat(r.root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
            if (!seenFolders_.insert({st.st_dev, st.st_ino}).second) continue;
            walk(r.root, 0);
        }
    }
    // The path of the profile file `id` is, or nullptr.
    const std::string* find(FileId id) const {
        const auto it = files_.find(id);
        return it == files_.end() ? nullptr : &it->second;
    }

  private:
    static constexpr int kMaxDepth = 32;
    static constexpr std::size_t kMaxEntries = 2'000'000;

    void add(const std::string& path) {
        struct stat st {};
        if (!path.empty() && ::stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
            files_.emplace(FileId{st.st_dev, st.st_ino}, path);
    }

    void walk(const fs::path& dir, int depth) {
        std::error_code ec;
        for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
             !ec && it != end && entries_ < kMaxEntries; it.increment(ec)) {
            ++entries_;
            struct stat st {};
            if (::stat(it->path().c_str(), &st) != 0) continue;
            if (!S_ISDIR(st.st_mode)) {
                if (depth > 0 || it->path().filename().string().rfind("profiler_", 0) == 0)
                    files_.emplace(FileId{st.st_dev, st.st_ino}, it->path().string());
            } else if (depth < kMaxDepth && seenFolders_.insert({st.st_dev, st.st_ino}).second) {
                walk(it->path(), depth + 1);
            }
        }
    }

    std::map<FileId, std::string> files_;
    std::set<FileId> seenFolders_;
    std::size_t entries_ = 0;
};

std::string architectureReportName(const std::string& rankName) {
    return "model_architecture_report_" + rankName + ".md";
}

// Where one request goes for each rank; empty `error` when every name could be resolved.
struct RequestPlan {
    std::vector<OutputTarget> perRank; // one per rank, or a single shared one
    bool shared = false;
    std::string error;
};

std::string refusalMessage(const OutputRequest& q, const OutputTarget& t) {
    std::string m =
        "bubblescope analyze: " + q.option + " " + (q.given.empty() ? "\"\"" : t.given) + " " + t.refusal;
    if (t.isFolder && !q.folderAllowed) m += "; " + q.option + " needs a file name";
    return m + ".";
}

RequestPlan planRequest(const OutputRequest& q, const std::vector<RankFolder>& ranks,
                        const std::vector<std::string>& tags) {
    RequestPlan plan;
    const OutputTarget asGiven = resolveOutputTarget(q.given);
    const bool folder = asGiven.kind == OutputTarget::Kind::Refused && asGiven.isFolder && q.folderAllowed;
    if (asGiven.kind == OutputTarget::Kind::Refused && !folder) {
        plan.error = refusalMessage(q, asGiven);
        return plan;
    }
    if (!folder && (ranks.size() == 1 || asGiven.kind != OutputTarget::Kind::File)) {
        plan.perRank.push_back(asGiven);
        plan.shared = ranks.size() > 1;
        return plan;
    }
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        std::string name;
        if (!folder)
            name = perRankFileName(q.given, tags[r]);
        else if (ranks.size() == 1)
            name = (fs::path(q.given) / architectureReportName(fs::path(ranks[r].root).filename().string()))
                       .string();
        else
            name = (fs::path(q.given) / architectureReportName(tags[r])).string();
        OutputTarget t = resolveOutputTarget(name);
        if (t.kind == OutputTarget::Kind::Refused) {
            plan.error = refusalMessage(q, t);
            return plan;
        }
        plan.perRank.push_back(std::move(t));
    }
    return plan;
}

std::string rankList(const std::vector<std::size_t>& rankIdx, const std::vector<RankFolder>& ranks) {
    std::string s;
    for (std::size_t i : rankIdx)
        s += (s.empty() ? "" : ", ") + ranks[i].label;
    return s;
}

// Two requests (or two ranks) writing the same output: one would silently replace the other.
std::string findDuplicate(const OutputPlan& plan, const std::vector<OutputRequest>& requests,
                          const std::vector<RankFolder>& ranks) {
    std::map<std::string, std::pair<std::size_t, std::size_t>> seen; // identity → (output, first rank)
    for (std::size_t r = 0; r < plan.forRank.size(); ++r) {
        for (std::size_t q = 0; q < requests.size(); ++q) {
            const std::size_t o = plan.forRank[r][q];
            if (o == OutputPlan::kNone) continue;
            const auto [it, inserted] = seen.emplace(plan.outputs[o].target.identity(), std::pair{o, r});
            if (inserted || it->second.first == o) continue;
            const PlannedOutput& first = plan.outputs[it->second.first];
            const OutputRequest& q1 = requests[first.request];
            if (ranks.size() == 1 || first.request != q)
                return "bubblescope analyze: " + q1.option + " and " + requests[q].option +
                       " name the same output (" + plan.outputs[o].target.displayName() +
                       "); give each its own.";
            return "bubblescope analyze: " + q1.option + " would write " +
                   plan.outputs[o].target.displayName() + " for two ranks (" +
                   rankList({it->second.second, r}, ranks) + "); give another name.";
        }
    }
    return {};
}

std::string findProfileFile(const OutputPlan& plan, const std::vector<OutputRequest>& requests,
                            const std::vector<RankFolder>& ranks) {
    bool anyExisting = false;
    for (const auto& o : plan.outputs)
        anyExisting |= o.target.exists || o.target.kind == OutputTarget::Kind::Stream;
    if (!anyExisting) return {};
    const ProfileFiles files(ranks);
    for (const auto& o : plan.outputs) {
        if (!o.target.exists && o.target.kind != OutputTarget::Kind::Stream) continue;
        if (const std::string* input = files.find({o.target.dev, o.target.ino}))
            return "bubblescope analyze: " + requests[o.request].option + " " + o.target.displayName() +
                   " is a file of the profile being analysed (" + *input + "); choose another output.";
    }
    return {};
}

// A regular file the shell already opened as standard output (`> out.json`) and named again as an
// output: replacing it would leave what is printed in a file nobody can see.
std::string findStandardOutputFile(const OutputPlan& plan, const std::vector<OutputRequest>& requests) {
    struct stat out {};
    if (::fstat(1, &out) != 0 || !S_ISREG(out.st_mode)) return {};
    for (const auto& o : plan.outputs)
        if (o.target.exists && o.target.dev == out.st_dev && o.target.ino == out.st_ino)
            return "bubblescope analyze: " + requests[o.request].option + " " + o.target.displayName() +
                   " is also where standard output is redirected; use " + requests[o.request].option +
                   " - to write it there, or choose another file.";
    return {};
}

} // namespace

std::vector<std::string> uniqueRankTags(const std::vector<std::string>& labels) {
    std::vector<std::string> tags;
    std::set<std::string> used;
    for (const auto& label : labels) {
        std::string tag;
        for (char c : label) {
            const auto u = static_cast<unsigned char>(c);
            if (c == '/')
                tag += '_';
            else if (u >= 0x20 && u != 0x7f)
                tag += c;
        }
        if (tag.empty() || tag == "." || tag == "..") tag = "rank";
        std::string unique = tag;
        for (int n = 2; used.count(unique); ++n)
            unique = tag + "-" + std::to_string(n);
        used.insert(unique);
        tags.push_back(std::move(unique));
    }
    return tags;
}

std::string perRankFileName(const std::string& given, const std::string& tag) {
    const fs::path p(given);
    const std::string name = p.stem().string() + "." + tag + p.extension().string();
    return p.has_parent_path() ? (p.parent_path() / name).string() : name;
}

OutputPlan planOutputs(const std::vector<OutputRequest>& requests, const std::vector<RankFolder>& ranks) {
    OutputPlan plan;
    plan.forRank.assign(ranks.size(), std::vector<std::size_t>(requests.size(), OutputPlan::kNone));
    std::vector<std::string> labels;
    for (const auto& r : ranks)
        labels.push_back(r.label);
    const std::vector<std::string> tags = uniqueRankTags(labels);
    for (std::size_t q = 0; q < requests.size(); ++q) {
        if (requests[q].given.empty()) continue; // not asked for
        RequestPlan rp = planRequest(requests[q], ranks, tags);
        if (!rp.error.empty()) {
            plan.error = rp.error;
            return plan;
        }
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            if (r == 0 || !rp.shared) plan.outputs.push_back({q, rp.perRank[rp.shared ? 0 : r], rp.shared});
            plan.forRank[r][q] = plan.outputs.size() - 1;
        }
    }
    for (const auto& o : plan.outputs)
        plan.usesStandardOutput |= o.target.isStandardOutput();
    for (auto check : {&findDuplicate, &findProfileFile}) {
        plan.error = check(plan, requests, ranks);
        if (!plan.error.empty()) return plan;
    }
    plan.error = findStandardOutputFile(plan, requests);
    if (!plan.error.empty()) return plan;
    for (const auto& o : plan.outputs) {
        const std::string problem = knownWriteProblem(o.target);
        if (problem.empty()) continue;
        plan.error = "bubblescope: " + requests[o.request].what + " was not written: " + problem + ".";
        plan.usageError = false;
        return plan;
    }
    return plan;
}

} // namespace bs

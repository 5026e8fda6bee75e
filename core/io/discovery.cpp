#include "io/discovery.h"

#include "i18n/message.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <sys/stat.h>
#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace bs {

namespace {

bool startsWith(const std::string& s, const char* p) {
    return s.rfind(p, 0) == 0;
}
bool endsWith(const std::string& s, const std::string& suf) {
    return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

bool isDataFileName(const std::string& n) {
    return n == "kernel_details.csv" || n == "trace_view.json" || n == "step_trace_time.csv" ||
           (startsWith(n, "msprof_") && endsWith(n, ".json")) ||
           (startsWith(n, "op_summary") && endsWith(n, ".csv")) ||
           (startsWith(n, "task_time") && endsWith(n, ".csv")) ||
           // The SQLite export (export_type=db): the profiler's own database, not any .db file.
           (endsWith(n, ".db") && (startsWith(n, "ascend_pytorch_profiler") || startsWith(n, "msprof_")));
}

bool isDir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

bool holdsDataFiles(const fs::path& dir) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        std::error_code e2;
        if (it->is_regular_file(e2) && isDataFileName(it->path().filename().string())) return true;
    }
    return false;
}

// Classifies one folder as a rank; false when it is not one.
bool classify(const fs::path& dir, RankFolder& out) {
    const std::string name = dir.filename().string();
    if (name == "ASCEND_PROFILER_OUTPUT") {
        out = {dir.parent_path().string(), dir.string(), "torch_npu", ""};
        return true;
    }
    if (name == "mindstudio_profiler_output") {
        out = {dir.parent_path().string(), dir.string(), "msprof", ""};
        return true;
    }
    if (isDir(dir / "ASCEND_PROFILER_OUTPUT")) {
        out = {dir.string(), (dir / "ASCEND_PROFILER_OUTPUT").string(), "torch_npu", ""};
        return true;
    }
    if (isDir(dir / "mindstudio_profiler_output")) {
        out = {dir.string(), (dir / "mindstudio_profiler_output").string(), "msprof", ""};
        return true;
    }
    if (holdsDataFiles(dir)) {
        out = {dir.string(), dir.string(), "loose", ""};
        return true;
    }
    if (endsWith(name, "_ascend_pt")) {
        out = {dir.string(), "", "torch_npu", ""}; // output folder missing: reported by the health check
        return true;
    }
    if (startsWith(name, "PROF_")) {
        out = {dir.string(), "", "msprof", ""};
        return true;
    }
    return false;
}

void searchChildren(const fs::path& dir, const fs::path& top, int depth, std::vector<RankFolder>& out,
                    std::size_t& visited) {
    if (depth > 5 || visited > 200000) return;
    std::vector<fs::path> children;
    std::error_code ec;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        ++visited;
        std::error_code e2;
        // Symlinked folders are not followed: they can form loops.
        if (it->is_symlink(e2)) continue;
        if (it->is_directory(e2)) children.push_back(it->path());
    }
    // Natural order: rank2 before rank10, so reports and the cluster list ranks as people count them.
    std::sort(children.begin(), children.end(), [](const fs::path& a, const fs::path& b) {
        return naturalLess(a.filename().string(), b.filename().string());
    });
    for (const auto& c : children) {
        RankFolder r;
        if (classify(c, r)) {
            r.label = fs::relative(c, top, ec).string();
            if (ec || r.label.empty()) r.label = c.filename().string();
            out.push_back(r);
        } else {
            searchChildren(c, top, depth + 1, out, visited);
        }
    }
}

} // namespace

DiscoveryResult discoverProfiles(const std::string& input) {
    DiscoveryResult res;
    std::error_code ec;
    fs::path p(input);
    if (!fs::exists(p, ec)) {
        res.error = msg("'{}' does not exist; expected a profiling folder (*_ascend_pt, PROF_*, "
                        "ASCEND_PROFILER_OUTPUT) or a file inside one.",
                        input);
        return res;
    }
    p = fs::weakly_canonical(p, ec);
    if (!isDir(p)) p = p.parent_path();
    RankFolder r;
    if (classify(p, r)) {
        r.label = fs::path(r.root).filename().string();
        res.ranks.push_back(r);
        return res;
    }
    std::size_t visited = 0;
    searchChildren(p, p, 0, res.ranks, visited);
    if (res.ranks.empty()) {
        res.error = msg("'{}' holds no Ascend profiling data; expected a *_ascend_pt folder with "
                        "ASCEND_PROFILER_OUTPUT/ (kernel_details.csv, trace_view.json) or a msprof PROF_* folder "
                        "with mindstudio_profiler_output/.",
                        input);
    }
    return res;
}

RankFiles listRankFiles(const RankFolder& rank) {
    RankFiles f;
    auto scan = [&](const fs::path& dir, bool isOutput) {
        std::error_code ec;
        std::vector<fs::path> entries;
        for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
             !ec && it != end; it.increment(ec)) {
            std::error_code e2;
            const std::string n = it->path().filename().string();
            // A data file's name on something that is not a regular file is kept, so that reading it
            // reports the problem instead of the file silently not being there.
            if (it->is_regular_file(e2) || n == "kernel_details.csv" || n == "trace_view.json" ||
                n == "step_trace_time.csv" || n == "communication.json")
                entries.push_back(it->path());
        }
        std::sort(entries.begin(), entries.end());
        for (const auto& e : entries) {
            const std::string n = e.filename().string();
            const std::string s = e.string();
            if (startsWith(n, "profiler_info") && endsWith(n, ".json"))
                f.profilerInfo.push_back(s);
            else if (n == "profiler_metadata.json")
                f.profilerInfo.push_back(s);
            else if (endsWith(n, ".db"))
                f.sqliteExports.push_back(s);
            if (!isOutput) continue;
            if (n == "kernel_details.csv")
                f.kernelDetails = s;
            else if (n == "step_trace_time.csv")
                f.stepTraceTime = s;
            else if (n == "communication.json")
                f.communication = s;
            else if (n == "trace_view.json")
                f.traceView = s;
            else if (n == "op_statistic.csv" || (startsWith(n, "op_statistic") && endsWith(n, ".csv")))
                f.opStatistic = s;
            else if (startsWith(n, "op_summary") && endsWith(n, ".csv"))
                f.opSummary.push_back(s);
            else if (startsWith(n, "task_time") && endsWith(n, ".csv"))
                f.taskTime.push_back(s);
            else if (startsWith(n, "msprof_") && endsWith(n, ".json"))
                f.msprofJson.push_back(s);
            else if (endsWith(n, ".csv"))
                f.otherCsv.push_back(s);
        }
    };
    if (!rank.outputDir.empty()) scan(rank.outputDir, true);
    if (rank.root != rank.outputDir) scan(rank.root, false);
    return f;
}

bool hasTextExport(const RankFiles& f) {
    return !f.kernelDetails.empty() || !f.opSummary.empty() || !f.taskTime.empty() || !f.traceView.empty() ||
           !f.msprofJson.empty();
}

// Digit runs compare as numbers ("rank2" < "rank10"), the rest byte by byte; equal runs fall back to bytes.
bool naturalLess(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && digit(a[ie])) ++ie;
            while (je < b.size() && digit(b[je])) ++je;
            std::size_t is = i, js = j; // skip leading zeros
            while (is + 1 < ie && a[is] == '0') ++is;
            while (js + 1 < je && b[js] == '0') ++js;
            if (ie - is != je - js) return ie - is < je - js;
            if (const int c = a.compare(is, ie - is, b, js, je - js); c != 0) return c < 0;
            i = ie, j = je;
            continue;
        }
        if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
        ++i, ++j;
    }
    if ((a.size() - i) != (b.size() - j)) return a.size() - i < b.size() - j;
    return a < b;
}

namespace {

bool isProfilerOwnName(const std::string& n) {
    return isDataFileName(n) || n == "communication.json" || n == "communication_matrix.json" ||
           (startsWith(n, "op_statistic") && endsWith(n, ".csv")) ||
           (startsWith(n, "profiler_") && endsWith(n, ".json"));
}

// A folder that is a rank's root by its name or by its output folder, without listing it: cheap enough to
// ask of every folder above an output.
bool isRankRootByShape(const fs::path& dir) {
    const std::string name = dir.filename().string();
    return endsWith(name, "_ascend_pt") || startsWith(name, "PROF_") || isDir(dir / "ASCEND_PROFILER_OUTPUT") ||
           isDir(dir / "mindstudio_profiler_output");
}

} // namespace

std::string folderReadProblem(const RankFolder& rank) {
    for (const std::string* dir : {&rank.root, &rank.outputDir}) {
        if (dir->empty()) continue;
        DIR* d = ::opendir(dir->c_str());
        if (!d) return msg("cannot open the folder {}: {}", *dir, std::strerror(errno));
        ::closedir(d);
    }
    return {};
}

std::string irregularDataFile(const RankFolder& rank) {
    for (const std::string* dir : {&rank.outputDir, &rank.root}) {
        if (dir->empty()) continue;
        std::error_code ec;
        for (fs::directory_iterator it(*dir, fs::directory_options::skip_permission_denied, ec), end;
             !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (!isDataFileName(name) && name != "communication.json") continue;
            const std::string path = it->path().string();
            struct stat st {};
            if (::stat(path.c_str(), &st) != 0) return msg("{} cannot be opened: {}", path, std::strerror(errno));
            if (S_ISREG(st.st_mode)) continue;
            const std::string kind = S_ISDIR(st.st_mode)    ? msg("a folder")
                                     : S_ISFIFO(st.st_mode) ? msg("a FIFO")
                                     : S_ISCHR(st.st_mode)  ? msg("a character device")
                                     : S_ISBLK(st.st_mode)  ? msg("a block device")
                                                            : msg("a socket");
            return msg("{} is {}, not a regular file", path, kind);
        }
    }
    return {};
}

std::string profileOwningFile(const std::string& canonicalFile) {
    const fs::path file(canonicalFile);
    const fs::path dir = file.parent_path();
    const std::string name = file.filename().string();
    // In any sub-folder of a rank (its output folder included: a folder holding ASCEND_PROFILER_OUTPUT or
    // mindstudio_profiler_output is a rank by its shape): the profiler's, whatever its name. At the top of a
    // rank folder only the profiler's own names are (an analysis.json written there is ours), unless that
    // folder sits inside another rank (PROF_* inside *_ascend_pt).
    for (fs::path a = dir; !a.empty(); a = a.parent_path()) {
        if (isRankRootByShape(a) && (a != dir || isProfilerOwnName(name))) return a.string();
        if (a == a.root_path()) break;
    }
    // A loose folder: its data files and the profiler's files beside them.
    if (isProfilerOwnName(name) && holdsDataFiles(dir)) return dir.string();
    return {};
}

} // namespace bs

#include "io/kernel_table_reader.h"

#include "io/csv_reader.h"
#include "i18n/message.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>

namespace bs {

namespace {

bool isNA(std::string_view v) {
    v = trimField(v);
    return v.empty() || v == "N/A" || v == "NA" || v == "n/a";
}

bool isPmuColumn(const std::string& name) {
    return name.rfind("aic_", 0) == 0 || name.rfind("aiv_", 0) == 0 || name.rfind("aicore_time", 0) == 0 ||
           name.rfind("cube_utilization", 0) == 0;
}

// Plausible ranges of the numeric columns besides start and duration (those are csv_bad_time). Block dim:
// CANN launches 1 … 65535 blocks. Ids fit int32. PMU figures are times (≤ 1000 s like any duration),
// cycles, ratios, rates or flop counts: never negative, and they must fit the float they are kept in.
constexpr std::int64_t kMaxBlockDim = 65535;
constexpr double kMaxPmuTimeUs = 1e9;

// A numeric field outside its plausible range: the row keeps its interval, the field is dropped.
void outOfRange(FindingSink& sink, const std::string& path, long long line, const std::string& column,
                std::string_view value, const std::string& expected, const std::string& dropped) {
    sink.add(
        {"csv_value_out_of_range", Severity::Warning, path, line, -1,
         msg("Column '{}' holds '{}'; expected {}.", column, trimField(value), expected),
         msg("The row is kept (start and duration are valid); {}.", dropped),
         msg("A value this far out comes from a corrupted, cut or hand-edited export, not from the device: "
             "re-export the table from the profiler (torch_npu.profiler.profiler.analyse, or msprof --export "
             "on the PROF_* folder)."),
         ""});
}

// For each entry, the position of the first entry with the same text. Sorting (hash, position) pairs
// keeps this O(n log n) and cache-friendly for 10^6 names; equal hashes are settled on the text.
std::vector<std::size_t> firstOccurrences(const std::vector<std::string_view>& names) {
    std::vector<std::pair<std::size_t, std::size_t>> byHash(names.size());
    for (std::size_t i = 0; i < names.size(); ++i)
        byHash[i] = {std::hash<std::string_view>{}(names[i]), i};
    std::sort(byHash.begin(), byHash.end());
    std::vector<std::size_t> first(names.size());
    for (std::size_t a = 0; a < byHash.size();) {
        std::size_t b = a + 1;
        while (b < byHash.size() && byHash[b].first == byHash[a].first)
            ++b;
        // A run of equal hashes (nearly always one name): by text, then position.
        std::sort(byHash.begin() + static_cast<long>(a), byHash.begin() + static_cast<long>(b),
                  [&](const auto& x, const auto& y) {
                      return names[x.second] != names[y.second] ? names[x.second] < names[y.second]
                                                                : x.second < y.second;
                  });
        for (std::size_t k = a; k < b; ++k)
            first[byHash[k].second] = k > a && names[byHash[k].second] == names[byHash[k - 1].second]
                                          ? first[byHash[k - 1].second]
                                          : byHash[k].second;
        a = b;
    }
    return first;
}

struct PmuColumnMap {
    std::vector<int> cols;           // header index of each PMU column read
    std::vector<std::size_t> target; // its column in the PmuTable
    std::vector<char> isTime;        // a "(us)" column: bounded like durations
};

// Maps the header's PMU columns onto profile.pmu.columns: a name already there keeps its column; new
// names are added only while the table holds no values (the first PMU-bearing table defines them), so
// a later table's unknown columns are not read. Linear in the header up to a sort: a header of 10^6
// aic_* columns took minutes with a lookup per column. False when cancelled.
bool mapPmuColumns(const CsvHeader& h, PmuTable& table, PmuColumnMap& out, const LoadControl* control) {
    const std::size_t known = table.columns.size();
    std::vector<std::string_view> names; // the table's columns, then the header's PMU columns
    std::vector<std::size_t> headerIndex;
    const std::vector<std::string> before = table.columns; // views stay valid while columns grow
    for (const auto& c : before)
        names.push_back(c);
    for (std::size_t i = 0; i < h.size(); ++i) {
        if ((i & 0xFFFF) == 0xFFFF && control && control->cancelled()) return false;
        if (!isPmuColumn(h.names()[i])) continue;
        names.push_back(h.names()[i]);
        headerIndex.push_back(i);
    }
    const auto first = firstOccurrences(names);
    const bool mayAdd = table.values.empty();
    std::vector<std::size_t> added(names.size(), SIZE_MAX); // first occurrence → new column
    for (std::size_t k = 0; k < headerIndex.size(); ++k) {
        const std::size_t pos = known + k, f = first[pos];
        std::size_t target;
        if (f < known) {
            target = f;
        } else if (!mayAdd) {
            continue;
        } else {
            if (added[f] == SIZE_MAX) {
                table.columns.emplace_back(names[f]);
                added[f] = table.columns.size() - 1;
            }
            target = added[f];
        }
        out.cols.push_back(static_cast<int>(headerIndex[k]));
        out.target.push_back(target);
        out.isTime.push_back(CsvHeader::normalise(names[pos]).find("(us)") != std::string::npos);
    }
    return true;
}

// Room for one kernel (and PMU row) per line, estimated before reading (CsvFileReader: exact for a file
// that fits in its first chunk, else scaled from it with 1 % to spare): growing the vectors by doubling
// copied them and could hold twice their size at the peak.
void reserveRows(std::uint64_t lines, std::size_t pmuColumns, Profile& profile) {
    profile.kernels.reserve(profile.kernels.size() + lines);
    if (pmuColumns) profile.pmu.values.reserve(profile.pmu.values.size() + lines * pmuColumns);
}

} // namespace

KernelTableResult readKernelTable(const std::string& path, KernelSource kind, Profile& profile,
                                  FindingSink& sink, const LoadControl* control) {
    KernelTableResult res;
    // Read a chunk at a time (a 177 MB table at 1 GB of trace is never held whole).
    CsvFileReader csv(path, 4ULL << 30, true);
    auto unreadable = [&] {
        sink.add({"file_unreadable", Severity::Error, path, -1, -1, csv.error(),
                  msg("This file is ignored; a lower-priority kernel source is used if one exists."),
                  msg("Check the file's permissions and that the collection finished writing it."), ""});
    };
    if (!csv.error().empty()) {
        unreadable();
        return res;
    }
    const std::size_t kernelsBefore = profile.kernels.size(), pmuBefore = profile.pmu.values.size(),
                      pmuColumnsBefore = profile.pmu.columns.size();
    std::vector<std::string_view> f;
    if (!csv.next(f)) {
        if (!csv.error().empty()) {
            unreadable();
            return res;
        }
        sink.add({"csv_empty", Severity::Warning, path, 1, -1, msg("The file is empty (no header line)."),
                  msg("No kernels are read from it."),
                  msg("Re-run the profiler's offline analysis; see collection-problems.md, \"Only the timeline, no "
                      "CSV\"."),
                  "collection-problems.md#only-the-timeline-no-csv"});
        return res;
    }
    CsvHeader h(f);
    const int cName = h.find({"Name", "Op Name", "kernel_name"});
    const int cType = h.find({"Type", "OP Type"});
    const int cTaskType = h.find({"Task Type", "kernel_type"});
    const int cCore = h.find({"Accelerator Core"});
    const int cStream = h.find({"Stream ID", "stream_id"});
    const int cStart = h.find({"Start Time(us)", "Task Start Time(us)", "task_start(us)"});
    const int cDur = h.find({"Duration(us)", "Task Duration(us)", "task_time(us)"});
    const int cWait = h.find({"Wait Time(us)", "Task Wait Time(us)"});
    const int cBlock = h.find({"Block Dim", "Block Num"});
    const int cStep = h.find({"Step Id", "Step ID"});
    const int cInShape = h.find({"Input Shapes"});
    const int cInType = h.find({"Input Data Types"});
    const int cOutShape = h.find({"Output Shapes"});
    const int cOutType = h.find({"Output Data Types"});
    if (cStart < 0 || cDur < 0 || (cName < 0 && cTaskType < 0)) {
        sink.add({"csv_header_unknown", Severity::Error, path, 1, -1,
                  msg("The header has no start-time / duration / name columns (expected e.g. 'Start Time(us)', "
                      "'Duration(us)', 'Name')."),
                  msg("No kernels are read from this file."),
                  msg("Make sure this is a profiler-written kernel_details.csv / op_summary / task_time file."),
                  ""});
        return res;
    }
    res.ok = true;
    res.hasStream = cStream >= 0;
    res.hasShapes = cInShape >= 0;
    res.hasTaskTypeColumn = cTaskType >= 0;
    res.hasStepId = cStep >= 0;
    PmuColumnMap pmu;
    if (!mapPmuColumns(h, profile.pmu, pmu, control)) {
        res.cancelled = true;
        return res;
    }
    const std::vector<int>& pmuCols = pmu.cols;
    const std::vector<std::size_t>& pmuTarget = pmu.target;
    const std::vector<char>& pmuIsTime = pmu.isTime;
    res.hasPmu = !pmuCols.empty();
    if (kind == KernelSource::KernelDetails) {
        if (!res.hasStream)
            res.level = "Level0";
        else if (h.find({"OP State"}) < 0)
            res.level = "2023";
        else
            res.level = "Level1/2";
    } else {
        res.level = "msprof";
    }
    bool anyPmuNonZero = false;
    const std::size_t expected = h.size();
    reserveRows(csv.estimatedLines(), pmuCols.empty() ? 0 : profile.pmu.columns.size(), profile);
    while (csv.next(f)) {
        if ((++res.rows & 0xFFFF) == 0 && control && control->cancelled()) {
            res.cancelled = true;
            break;
        }
        const auto line = static_cast<long long>(csv.line());
        if (f.size() != expected) {
            // A trailing empty field from a trailing comma is tolerated.
            if (!(f.size() == expected + 1 && trimField(f.back()).empty())) {
                sink.add({"csv_field_count", Severity::Warning, path, line, -1,
                          msg("Row has {} fields; the header has {}.", f.size(), expected),
                          msg("This row is skipped; the other rows are read."),
                          msg("The file was probably edited or cut; re-export it from the profiler."), ""});
                continue;
            }
        }
        auto at = [&](int c) -> std::string_view {
            return c >= 0 && c < static_cast<int>(f.size()) ? f[c] : std::string_view{};
        };
        auto start = parseMicrosToNs(at(cStart));
        auto dur = parseMicrosToNs(at(cDur));
        if (!start || !dur || !plausibleStart(*start) || !plausibleDuration(*dur)) {
            const std::string startText(trimField(at(cStart)));
            const bool nsScale = startText.find('.') == std::string::npos && startText.size() >= 18;
            sink.add({nsScale ? "timestamp_scale_mixed" : "csv_bad_time", Severity::Warning, path, line, -1,
                      nsScale ? msg("Start time '{}' or duration '{}' is not a valid non-negative decimal in µs (it "
                                    "looks like a nanosecond value in a microsecond column).",
                                    startText, trimField(at(cDur)))
                              : msg("Start time '{}' or duration '{}' is not a valid non-negative decimal in µs.",
                                    startText, trimField(at(cDur))),
                      msg("This row is skipped."), msg("Re-export the file from the profiler."), ""});
            continue;
        }
        Kernel k;
        k.start = *start;
        k.dur = *dur;
        if (cWait >= 0 && !isNA(at(cWait))) {
            auto w = parseMicrosToNs(at(cWait));
            if (w && plausibleDuration(*w))
                k.wait = *w;
            else
                outOfRange(sink, path, line, h.names()[static_cast<std::size_t>(cWait)], at(cWait),
                           msg("a non-negative decimal in µs of at most 1000 s (1e9 µs)"),
                           msg("its wait is counted as 0 (unknown)"));
        }
        std::string_view name = cName >= 0 ? trimField(at(cName)) : std::string_view{};
        std::string_view taskType;
        if (cTaskType >= 0 && !isNA(at(cTaskType)))
            taskType = trimField(at(cTaskType));
        else if (cCore >= 0 && !isNA(at(cCore)))
            taskType = trimField(at(cCore));
        if (isNA(name)) name = taskType; // task_time rows of runtime tasks have kernel_name N/A
        k.name = profile.strings.intern(name);
        if (cType >= 0 && !isNA(at(cType))) k.opType = profile.strings.intern(trimField(at(cType)));
        k.taskType = profile.strings.intern(taskType);
        // The message is built only for a bad value (this runs for every row).
        auto readId = [&](int c, std::int32_t& to, bool isStream) {
            if (c < 0 || isNA(at(c))) return;
            if (auto v = parseInt(at(c)); v && *v >= 0 && *v < std::numeric_limits<std::int32_t>::max())
                to = static_cast<std::int32_t>(*v);
            else
                outOfRange(sink, path, line, h.names()[static_cast<std::size_t>(c)], at(c),
                           msg("an integer id from 0 to 2147483646"),
                           isStream ? msg("its stream is unknown (filled from the trace when it has the kernel)")
                                    : msg("its step id is unknown, so steps do not come from the Step Id column"));
        };
        readId(cStream, k.stream, true);
        readId(cStep, k.stepId, false);
        if (cBlock >= 0 && !isNA(at(cBlock))) {
            if (auto b = parseInt(at(cBlock)); b && *b >= 0 && *b <= kMaxBlockDim)
                k.blockDim = static_cast<std::uint32_t>(*b);
            else
                outOfRange(sink, path, line, h.names()[static_cast<std::size_t>(cBlock)], at(cBlock),
                           msg("an integer block count from 0 to 65535"), msg("its block dim is shown as 0"));
        }
        if (cInShape >= 0 && !isNA(at(cInShape)))
            k.inputShapes = profile.strings.intern(trimField(at(cInShape)));
        if (cInType >= 0 && !isNA(at(cInType)))
            k.inputDtypes = profile.strings.intern(trimField(at(cInType)));
        if (cOutShape >= 0 && !isNA(at(cOutShape)))
            k.outputShapes = profile.strings.intern(trimField(at(cOutShape)));
        if (cOutType >= 0 && !isNA(at(cOutType)))
            k.outputDtypes = profile.strings.intern(trimField(at(cOutType)));
        k.cls = classifyTaskType(taskType, name);
        k.sourceLine = static_cast<std::uint32_t>(line);
        if (!pmuCols.empty()) {
            k.pmuRow = static_cast<std::int32_t>(profile.pmu.values.size() / profile.pmu.columns.size());
            profile.pmu.values.resize(profile.pmu.values.size() + profile.pmu.columns.size(),
                                      std::numeric_limits<float>::quiet_NaN());
            float* row =
                profile.pmu.values.data() + static_cast<std::size_t>(k.pmuRow) * profile.pmu.columns.size();
            for (std::size_t i = 0; i < pmuCols.size(); ++i) {
                const std::string_view text = at(pmuCols[i]);
                const double limit = pmuIsTime[i] ? kMaxPmuTimeUs : static_cast<double>(FLT_MAX);
                auto v = parseDouble(text);
                if (!v && isNA(text)) continue;
                if (!v || *v < 0 || *v > limit) {
                    outOfRange(sink, path, line, h.names()[static_cast<std::size_t>(pmuCols[i])], text,
                               pmuIsTime[i] ? msg("a non-negative PMU time in µs of at most 1000 s (1e9 µs)")
                                            : msg("a non-negative PMU figure that fits a float (<= 3.4e38)"),
                               msg("this PMU value is treated as N/A"));
                    continue;
                }
                row[pmuTarget[i]] = static_cast<float>(*v);
                if (*v != 0.0) anyPmuNonZero = true;
            }
        }
        profile.kernels.push_back(k);
        ++res.kept;
    }
    if (!csv.error().empty()) {
        // A read error part way: the file is ignored as a whole, as when it cannot be read at all.
        profile.kernels.resize(kernelsBefore);
        profile.pmu.values.resize(pmuBefore);
        profile.pmu.columns.resize(pmuColumnsBefore);
        unreadable();
        return KernelTableResult{};
    }
    res.pmuAllZero = res.hasPmu && res.kept > 0 && !anyPmuNonZero;
    return res;
}

} // namespace bs

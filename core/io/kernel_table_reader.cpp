#include "io/kernel_table_reader.h"

#include "io/csv_reader.h"
#include "io/file_buffer.h"

#include <cmath>
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

} // namespace

KernelTableResult readKernelTable(const std::string& path, KernelSource kind, Profile& profile,
                                  FindingSink& sink, const LoadControl* control) {
    KernelTableResult res;
    FileBuffer fb = readWholeFile(path, 4ULL << 30, true);
    if (!fb.error.empty()) {
        sink.add({"file_unreadable", Severity::Error, path, -1, -1, fb.error,
                  "This file is ignored; a lower-priority kernel source is used if one exists.",
                  "Check the file's permissions and that the collection finished writing it.", ""});
        return res;
    }
    CsvReader csv(fb.view());
    std::vector<std::string_view> f;
    if (!csv.next(f)) {
        sink.add({"csv_empty", Severity::Warning, path, 1, -1, "The file is empty (no header line).",
                  "No kernels are read from it.",
                  "Re-run the profiler's offline analysis; see collection-problems.md, \"Only the timeline, no CSV\".", "collection-problems.md#only-the-timeline-no-csv"});
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
                  "The header has no start-time / duration / name columns (expected e.g. 'Start Time(us)', "
                  "'Duration(us)', 'Name').",
                  "No kernels are read from this file.",
                  "Make sure this is a profiler-written kernel_details.csv / op_summary / task_time file.",
                  ""});
        return res;
    }
    res.ok = true;
    res.hasStream = cStream >= 0;
    res.hasShapes = cInShape >= 0;
    res.hasTaskTypeColumn = cTaskType >= 0;
    res.hasStepId = cStep >= 0;
    std::vector<int> pmuCols;
    std::vector<std::size_t> pmuTarget;
    for (std::size_t i = 0; i < h.size(); ++i) {
        if (isPmuColumn(h.names()[i])) {
            pmuCols.push_back(static_cast<int>(i));
            auto existing = profile.pmu.column(h.names()[i]);
            if (!existing) {
                // Only the first PMU-bearing table defines the PMU columns.
                if (!profile.pmu.values.empty()) continue;
                profile.pmu.columns.push_back(h.names()[i]);
                existing = profile.pmu.columns.size() - 1;
            }
            pmuTarget.push_back(*existing);
        }
    }
    if (pmuTarget.size() < pmuCols.size()) pmuCols.resize(pmuTarget.size());
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
                          "Row has " + std::to_string(f.size()) + " fields; the header has " +
                              std::to_string(expected) + ".",
                          "This row is skipped; the other rows are read.",
                          "The file was probably edited or cut; re-export it from the profiler.", ""});
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
                      "Start time '" + startText + "' or duration '" + std::string(trimField(at(cDur))) +
                          "' is not a valid non-negative decimal in µs" +
                          (nsScale ? " (it looks like a nanosecond value in a microsecond column)." : "."),
                      "This row is skipped.", "Re-export the file from the profiler.", ""});
            continue;
        }
        Kernel k;
        k.start = *start;
        k.dur = *dur;
        if (cWait >= 0) {
            auto w = parseMicrosToNs(at(cWait));
            if (w && *w >= 0) k.wait = *w;
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
        if (cStream >= 0) {
            if (auto s = parseInt(at(cStream)); s && *s >= 0 && *s < std::numeric_limits<std::int32_t>::max())
                k.stream = static_cast<std::int32_t>(*s);
        }
        if (cStep >= 0) {
            if (auto s = parseInt(at(cStep)); s && *s >= 0 && *s < std::numeric_limits<std::int32_t>::max())
                k.stepId = static_cast<std::int32_t>(*s);
        }
        if (cBlock >= 0) {
            if (auto b = parseInt(at(cBlock)); b && *b >= 0 && *b < (1LL << 31))
                k.blockDim = static_cast<std::uint32_t>(*b);
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
                if (auto v = parseDouble(at(pmuCols[i]))) {
                    row[pmuTarget[i]] = static_cast<float>(*v);
                    if (*v != 0.0) anyPmuNonZero = true;
                }
            }
        }
        profile.kernels.push_back(k);
        ++res.kept;
    }
    res.pmuAllZero = res.hasPmu && res.kept > 0 && !anyPmuNonZero;
    return res;
}

} // namespace bs

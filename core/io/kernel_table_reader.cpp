#include "io/kernel_table_reader.h"

#include "i18n/message.h"
#include "io/csv_reader.h"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace bs {

namespace {

inline bool isTrimmedNA(std::string_view v) {
    if (v.size() > 3) return false; // the usual field: no comparison
    return v.empty() || v == "N/A" || v == "NA" || v == "n/a";
}
inline bool isNA(std::string_view v) {
    return isTrimmedNA(trimField(v));
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
    std::vector<double> limit;       // its largest plausible value: kMaxPmuTimeUs for a "(us)" column
                                     // (bounded like durations), else FLT_MAX
    std::vector<float> nanRow;       // a row of the PmuTable with no value (NaN in every column)
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
        const bool isTime = CsvHeader::normalise(names[pos]).find("(us)") != std::string::npos;
        out.limit.push_back(isTime ? kMaxPmuTimeUs : static_cast<double>(FLT_MAX));
    }
    out.nanRow.assign(table.columns.size(), std::numeric_limits<float>::quiet_NaN());
    return true;
}

// Room for one kernel (and PMU row) per line, estimated before reading (CsvFileReader: exact for a file
// that fits in its first chunk, else scaled from it with 1 % to spare): growing the vectors by doubling
// copied them and could hold twice their size at the peak.
void reserveRows(std::uint64_t lines, std::size_t pmuColumns, Profile& profile) {
    profile.kernels.reserve(profile.kernels.size() + lines);
    if (pmuColumns) profile.pmu.values.reserve(profile.pmu.values.size() + lines * pmuColumns);
}

// The columns of a table, found in its header.
struct Columns {
    const CsvHeader& h;
    int cName, cType, cTaskType, cCore, cStream, cStart, cDur, cWait, cBlock, cStep, cInShape, cInType,
        cOutShape, cOutType;
    std::size_t expected; // fields per row
    const PmuColumnMap& pmu;
    std::size_t pmuColumns; // of the PMU table (a row's width)
    // The PMU figures after every other column read: a row's fields from tailFrom on are taken from the
    // text uncut (CsvReader::setRawTailFrom), tailMap[j] the PMU column (index into pmu.cols) of field
    // tailFrom + j or -1; the PMU columns before tailFrom are pmu.cols[0, pmuBeforeTail). SIZE_MAX: none.
    std::size_t tailFrom = SIZE_MAX;
    struct TailField {
        std::int32_t pmu;    // index into pmu.cols, or -1: a field not read
        std::int32_t target; // pmu.target[pmu]
    };
    std::vector<TailField> tailMap;
    std::size_t pmuBeforeTail = 0;
};

// Where the raw tail starts (Columns::tailFrom): after the last column read as text, when PMU columns follow
// it and each PMU column has a PmuTable column of its own (a name twice would make the later one win, which
// the tail, read before the columns ahead of it, would not keep).
void planTail(Columns& col) {
    int last = -1;
    for (const int c :
         {col.cName, col.cType, col.cTaskType, col.cCore, col.cStream, col.cStart, col.cDur, col.cWait,
          col.cBlock, col.cStep, col.cInShape, col.cInType, col.cOutShape, col.cOutType})
        last = std::max(last, c);
    const std::size_t from = static_cast<std::size_t>(last + 1);
    const auto& cols = col.pmu.cols;
    if (from >= col.expected || cols.empty() || static_cast<std::size_t>(cols.back()) < from) return;
    std::vector<std::size_t> targets = col.pmu.target;
    std::sort(targets.begin(), targets.end());
    if (std::adjacent_find(targets.begin(), targets.end()) != targets.end()) return;
    col.tailFrom = from;
    col.tailMap.assign(col.expected - from, {-1, -1});
    col.pmuBeforeTail = 0;
    for (std::size_t i = 0; i < cols.size(); ++i) {
        const auto c = static_cast<std::size_t>(cols[i]);
        if (c < from)
            col.pmuBeforeTail = i + 1; // header order: the columns before the tail come first
        else
            col.tailMap[c - from] = {static_cast<std::int32_t>(i),
                                     static_cast<std::int32_t>(col.pmu.target[i])};
    }
}

// What scanTail found: the raw tail's field count, its last field, whether a figure was not 0.
struct TailScan {
    std::size_t fields;
    std::string_view last;
    bool nonZero;
};

// The raw tail's fields cut at each ',': a PMU figure of plainDecimalToFloat's shape ("digits[.digits]" of
// at most 9 bytes, below 2^24; "digits." too, which parseDouble reads as the integer) goes straight into
// row; any other PMU field is left in `slow` (with its index into pmu.cols) for the general path; other
// fields are passed over. The byte after the tail is its line's CR or LF, inside the text
// (CsvReader::rawTail): the digit loops stop there with no bound check. Out of line: inlined in readRows,
// its pointers went to the stack in the digit loops.
[[gnu::noinline]] TailScan scanTail(std::string_view tail, const Columns& col, float* row,
                                    std::vector<std::pair<std::size_t, std::string_view>>& slow) {
    const char* p = tail.data();
    const char* const e = p + tail.size();
    std::uint32_t nonZero = 0;
    auto fieldEnd = [e](const char* from) {
        const void* comma = std::memchr(from, ',', static_cast<std::size_t>(e - from));
        return comma ? static_cast<const char*>(comma) : e;
    };
    const Columns::TailField* map = col.tailMap.data();
    std::size_t j = 0;
    for (const std::size_t mapped = col.tailMap.size();; ++j) {
        const char* const fieldStart = p;
        const char* q = p;
        if (j >= mapped) { // past the header's width: the row is refused for its field count
            q = fieldEnd(p);
        } else if (const Columns::TailField tf = map[j]; tf.pmu >= 0) {
            std::uint32_t m = 0; // wraps only past 9 digits, which are refused below
            for (unsigned d; (d = static_cast<unsigned char>(*q) - 48u) < 10; ++q)
                m = m * 10 + d;
            const char* const intEnd = q;
            std::size_t decimals = 0;
            if (*q == '.') {
                const char* const frac = ++q;
                for (unsigned d; (d = static_cast<unsigned char>(*q) - 48u) < 10; ++q)
                    m = m * 10 + d;
                decimals = static_cast<std::size_t>(q - frac); // "1." is 1 here, as parseDouble reads it
            }
            if (intEnd != p && q - p <= 9 && (q == e || *q == ',') && m < (1u << 24)) {
                row[tf.target] = decimalToFloat(m, decimals); // decimals <= 7
                nonZero |= m; // the float is 0 exactly when m is
            } else {
                q = fieldEnd(p);
                slow.emplace_back(static_cast<std::size_t>(tf.pmu),
                                  std::string_view(p, static_cast<std::size_t>(q - p)));
            }
        } else {
            q = fieldEnd(p);
        }
        if (q == e)
            return {j + 1, std::string_view(fieldStart, static_cast<std::size_t>(e - fieldStart)),
                    nonZero != 0};
        p = q + 1;
    }
}

// Where rows go: the profile itself, or a second part of the file read beside it (its own vectors,
// strings and findings, joined to the profile's afterwards).
struct RowsOut {
    std::vector<Kernel>& kernels;
    std::vector<float>& pmuValues;
    StringPool& strings;
    FindingSink& sink;
    std::size_t rows = 0, kept = 0;
    bool anyPmuNonZero = false, cancelled = false;
};

// The rows csv has left (up to its limit, if any).
void readRows(CsvFileReader& csv, const std::string& path, const Columns& col, RowsOut& out,
              const LoadControl* control) {
    csv.setRawTailFrom(col.tailFrom);
    std::vector<std::string_view> f;
    std::vector<std::pair<std::size_t, std::string_view>> slow; // a raw tail's figures for the general path
    while (csv.next(f)) {
        if ((++out.rows & 0xFFFF) == 0 && control && control->cancelled()) {
            out.cancelled = true;
            break;
        }
        const auto line = static_cast<long long>(csv.line());
        // A raw tail: its figures are read now, into the row this record will have (taken back if the record
        // is skipped), and its fields counted.
        const bool tail = csv.rawTail();
        std::size_t fieldCount = f.size();
        std::string_view lastField = f.empty() ? std::string_view{} : f.back();
        bool tailNonZero = false;
        slow.clear();
        if (tail) {
            out.pmuValues.insert(out.pmuValues.end(), col.pmu.nanRow.begin(), col.pmu.nanRow.end());
            const TailScan ts =
                scanTail(f.back(), col, out.pmuValues.data() + out.pmuValues.size() - col.pmuColumns, slow);
            fieldCount = col.tailFrom + ts.fields;
            lastField = ts.last;
            tailNonZero = ts.nonZero;
        }
        auto skipRow = [&] {
            if (tail) out.pmuValues.resize(out.pmuValues.size() - col.pmuColumns);
        };
        if (fieldCount != col.expected) {
            // A trailing empty field from a trailing comma is tolerated.
            if (!(fieldCount == col.expected + 1 && trimField(lastField).empty())) {
                out.sink.add({"csv_field_count", Severity::Warning, path, line, -1,
                              msg("Row has {} fields; the header has {}.", fieldCount, col.expected),
                              msg("This row is skipped; the other rows are read."),
                              msg("The file was probably edited or cut; re-export it from the profiler."),
                              ""});
                skipRow();
                continue;
            }
        }
        // Every column index is below col.expected (found in the header), and f has that many fields.
        auto at = [&](int c) -> std::string_view {
            return c >= 0 ? f[static_cast<std::size_t>(c)] : std::string_view{};
        };
        auto start = parseMicrosToNs(at(col.cStart));
        auto dur = parseMicrosToNs(at(col.cDur));
        if (!start || !dur || !plausibleStart(*start) || !plausibleDuration(*dur)) {
            const std::string startText(trimField(at(col.cStart)));
            const bool nsScale = startText.find('.') == std::string::npos && startText.size() >= 18;
            out.sink.add(
                {nsScale ? "timestamp_scale_mixed" : "csv_bad_time", Severity::Warning, path, line, -1,
                 nsScale
                     ? msg("Start time '{}' or duration '{}' is not a valid non-negative decimal in µs (it "
                           "looks like a nanosecond value in a microsecond column).",
                           startText, trimField(at(col.cDur)))
                     : msg("Start time '{}' or duration '{}' is not a valid non-negative decimal in µs.",
                           startText, trimField(at(col.cDur))),
                 msg("This row is skipped."), msg("Re-export the file from the profiler."), ""});
            skipRow();
            continue;
        }
        Kernel k;
        k.start = *start;
        k.dur = *dur;
        if (col.cWait >= 0 && !isNA(at(col.cWait))) {
            auto w = parseMicrosToNs(at(col.cWait));
            if (w && plausibleDuration(*w))
                k.wait = *w;
            else
                outOfRange(out.sink, path, line, col.h.names()[static_cast<std::size_t>(col.cWait)],
                           at(col.cWait), msg("a non-negative decimal in µs of at most 1000 s (1e9 µs)"),
                           msg("its wait is counted as 0 (unknown)"));
        }
        std::string_view name = col.cName >= 0 ? trimField(at(col.cName)) : std::string_view{};
        std::string_view taskType;
        if (col.cTaskType >= 0 && !isNA(at(col.cTaskType)))
            taskType = trimField(at(col.cTaskType));
        else if (col.cCore >= 0 && !isNA(at(col.cCore)))
            taskType = trimField(at(col.cCore));
        if (isNA(name)) name = taskType; // task_time rows of runtime tasks have kernel_name N/A
        k.name = out.strings.intern(name);
        if (col.cType >= 0 && !isNA(at(col.cType))) k.opType = out.strings.intern(trimField(at(col.cType)));
        k.taskType = out.strings.intern(taskType);
        // The message is built only for a bad value (this runs for every row).
        auto readId = [&](int c, std::int32_t& to, bool isStream) {
            if (c < 0 || isNA(at(c))) return;
            if (auto v = parseInt(at(c)); v && *v >= 0 && *v < std::numeric_limits<std::int32_t>::max())
                to = static_cast<std::int32_t>(*v);
            else
                outOfRange(out.sink, path, line, col.h.names()[static_cast<std::size_t>(c)], at(c),
                           msg("an integer id from 0 to 2147483646"),
                           isStream
                               ? msg("its stream is unknown (filled from the trace when it has the kernel)")
                               : msg("its step id is unknown, so steps do not come from the Step Id column"));
        };
        readId(col.cStream, k.stream, true);
        readId(col.cStep, k.stepId, false);
        if (col.cBlock >= 0 && !isNA(at(col.cBlock))) {
            if (auto b = parseInt(at(col.cBlock)); b && *b >= 0 && *b <= kMaxBlockDim)
                k.blockDim = static_cast<std::uint32_t>(*b);
            else
                outOfRange(out.sink, path, line, col.h.names()[static_cast<std::size_t>(col.cBlock)],
                           at(col.cBlock), msg("an integer block count from 0 to 65535"),
                           msg("its block dim is shown as 0"));
        }
        // A text column: its trimmed text interned (trimmed once: a shape is a quoted field, """8,2048""",
        // which the slow trim strips), nothing for N/A.
        auto readText = [&](int c, StrId& to) {
            if (c < 0) return;
            const std::string_view v = trimField(at(c));
            if (!isTrimmedNA(v)) to = out.strings.intern(v);
        };
        readText(col.cInShape, k.inputShapes);
        readText(col.cInType, k.inputDtypes);
        readText(col.cOutShape, k.outputShapes);
        readText(col.cOutType, k.outputDtypes);
        k.cls = classifyTaskType(taskType, name);
        k.sourceLine = static_cast<std::uint32_t>(line);
        if (!col.pmu.cols.empty()) {
            // A PMU figure off the usual shape: parsed in full, range-checked, N/A left as NaN.
            // Kept in a register: through `row`, each figure's store was read back.
            bool nonZero = tailNonZero;
            float* row = nullptr;
            auto general = [&](std::size_t i, std::string_view text) {
                const double limit = col.pmu.limit[i];
                double v = 0;
                const bool parsed = parsePlainDecimal(text, v) || parseDouble(text, v);
                if (!parsed && isNA(text)) return;
                if (!parsed || v < 0 || v > limit) {
                    outOfRange(
                        out.sink, path, line, col.h.names()[static_cast<std::size_t>(col.pmu.cols[i])], text,
                        limit == kMaxPmuTimeUs ? msg("a non-negative PMU time in µs of at most 1000 s (1e9 µs)")
                                          : msg("a non-negative PMU figure that fits a float (<= 3.4e38)"),
                        msg("this PMU value is treated as N/A"));
                    return;
                }
                row[col.pmu.target[i]] = static_cast<float>(v);
                nonZero |= v != 0.0;
            };
            // A copy of a row of NaN (a memcpy; resize's fill went value by value), then each value read. A
            // raw tail's row is there already, with the tail's usual figures in it.
            if (!tail)
                out.pmuValues.insert(out.pmuValues.end(), col.pmu.nanRow.begin(), col.pmu.nanRow.end());
            k.pmuRow = static_cast<std::int32_t>(out.pmuValues.size() / col.pmuColumns - 1);
            row = out.pmuValues.data() + static_cast<std::size_t>(k.pmuRow) * col.pmuColumns;
            const std::size_t fromFields = tail ? col.pmuBeforeTail : col.pmu.cols.size();
            for (std::size_t i = 0; i < fromFields; ++i) {
                const std::string_view text = f[static_cast<std::size_t>(col.pmu.cols[i])]; // a header column
                float value;
                if (plainDecimalToFloat(text, value)) { // the usual figure: below 2^24, never out of range
                    row[col.pmu.target[i]] = value;
                    nonZero |= value != 0.0f;
                    continue;
                }
                general(i, text);
            }
            for (const auto& [i, text] : slow) // the tail's, after the columns before it (header order)
                general(i, text);
            out.anyPmuNonZero |= nonZero;
        }
        out.kernels.push_back(k);
        ++out.kept;
    }
}

// Tables this large are read in two parts, one per thread: the second from the first record start after
// the middle of the file, and kept only when the first part's reader ends exactly there.
constexpr std::uint64_t kSplitBytes = 16ULL << 20;

// The byte after the first LF at or past the middle of the file (0 if none within 1 MB).
std::uint64_t secondPartStart(const std::string& path, std::uint64_t size) {
    CheckedFile file = openCheckedFile(path, size, false);
    if (file.fd < 0 || file.size != size) return 0;
    std::vector<char> buf(64 * 1024);
    for (std::uint64_t at = size / 2; at < size && at < size / 2 + (1 << 20);) {
        const ssize_t got = ::pread(file.fd, buf.data(), buf.size(), static_cast<off_t>(at));
        if (got <= 0) return 0;
        if (const void* lf = std::memchr(buf.data(), '\n', static_cast<std::size_t>(got))) {
            const std::uint64_t next =
                at + static_cast<std::uint64_t>(static_cast<const char*>(lf) - buf.data()) + 1;
            return next < size ? next : 0;
        }
        at += static_cast<std::uint64_t>(got);
    }
    return 0;
}

struct SecondPart {
    std::vector<Kernel> kernels;
    std::vector<float> pmuValues;
    StringPool strings;
    FindingSink sink; // one more kept per kind than the profile's sink (FindingSink::join)
    explicit SecondPart(std::size_t cap) : sink(cap) {}
    RowsOut out{kernels, pmuValues, strings, sink};
    std::string error;
    std::exception_ptr thrown;
    std::atomic<bool> abandon{false}; // set when the first part does not end where this one starts
};

} // namespace

KernelTableResult readKernelTable(const std::string& path, KernelSource kind, Profile& profile,
                                  FindingSink& sink, const LoadControl* control, int threads) {
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
                  msg("Re-run the profiler's offline analysis; see collection-problems.md, \"Only the "
                      "timeline, no "
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
        sink.add(
            {"csv_header_unknown", Severity::Error, path, 1, -1,
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
    const std::size_t expected = h.size();
    reserveRows(csv.estimatedLines(), pmuCols.empty() ? 0 : profile.pmu.columns.size(), profile);
    Columns columns{
        h,        cName,     cType,    cTaskType, cCore, cStream,
        cStart,   cDur,      cWait,    cBlock,    cStep, cInShape,
        cInType,  cOutShape, cOutType, expected,  pmu,   pmuCols.empty() ? 0 : profile.pmu.columns.size(),
        SIZE_MAX, {},        0};
    planTail(columns);
    RowsOut out{profile.kernels, profile.pmu.values, profile.strings, sink};
    // A large table: its second half read on a second thread.
    std::unique_ptr<SecondPart> second;
    std::thread secondThread;
    const std::uint64_t split = sideFileThreads(threads) > 1 && csv.fileSize() >= kSplitBytes
                                    ? secondPartStart(path, csv.fileSize())
                                    : 0;
    if (split && csv.limitTo(split)) {
        second = std::make_unique<SecondPart>(sink.capForParts());
        second->kernels.reserve(csv.estimatedLines() / 2 + 1);
        if (columns.pmuColumns)
            second->pmuValues.reserve((csv.estimatedLines() / 2 + 1) * columns.pmuColumns);
        try {
            secondThread = std::thread([&, part = second.get()] {
                try {
                    CsvFileReader rest(path, 4ULL << 30, split, std::size_t(4) << 20);
                    rest.abandonWhen(&part->abandon);
                    if (rest.error().empty()) readRows(rest, path, columns, part->out, control);
                    part->error = rest.error();
                } catch (...) {
                    part->thrown = std::current_exception();
                }
            });
        } catch (const std::system_error&) {
            second.reset();
            csv.unlimit();
        }
    }
    auto joinSecond = [&] {
        if (secondThread.joinable()) secondThread.join();
    };
    try {
        readRows(csv, path, columns, out, control);
        if (second && !out.cancelled && csv.error().empty()) {
            // The middle of the file was not a record start (a quoted field with line breaks): the second
            // part is told to stop (it may be reading the rest of the file as one field) and dropped, and
            // this reader goes on to the end. So too when the second part could not read its bytes (not
            // opened, a read error): this reader then meets the same error or reads them itself.
            if (!csv.endedAtLimit()) second->abandon = true;
            joinSecond();
            if (!csv.endedAtLimit() || (!second->thrown && !second->error.empty())) {
                second.reset();
                csv.unlimit();
                readRows(csv, path, columns, out, control);
            }
        }
    } catch (...) {
        if (second) second->abandon = true;
        joinSecond();
        throw;
    }
    if (second && (out.cancelled || !csv.error().empty())) second->abandon = true;
    joinSecond();
    if (second && second->thrown) std::rethrow_exception(second->thrown);
    if (second && !out.cancelled && csv.error().empty()) {
        // Joined as one reader would have read them: lines counted on from the first part's, strings
        // interned in the order they first appear, findings after the first part's (under the sink's cap).
        SecondPart& part = *second;
        const std::uint64_t lineDelta = csv.nextLine() - 1;
        std::vector<StrId> id(part.strings.size());
        for (std::size_t i = 0; i < id.size(); ++i)
            id[i] = profile.strings.intern(part.strings.view(static_cast<StrId>(i)));
        const std::int32_t pmuRowBase =
            columns.pmuColumns ? static_cast<std::int32_t>(profile.pmu.values.size() / columns.pmuColumns)
                               : 0;
        for (Kernel& k : part.kernels) {
            for (StrId* s : {&k.name, &k.opType, &k.taskType, &k.inputShapes, &k.inputDtypes, &k.outputShapes,
                             &k.outputDtypes})
                *s = id[*s];
            k.sourceLine = static_cast<std::uint32_t>(k.sourceLine + lineDelta);
            if (k.pmuRow >= 0) k.pmuRow += pmuRowBase;
        }
        profile.kernels.insert(profile.kernels.end(), part.kernels.begin(), part.kernels.end());
        profile.pmu.values.insert(profile.pmu.values.end(), part.pmuValues.begin(), part.pmuValues.end());
        sink.join(part.sink, static_cast<long long>(lineDelta));
        out.rows += part.out.rows;
        out.kept += part.out.kept;
        out.anyPmuNonZero = out.anyPmuNonZero || part.out.anyPmuNonZero;
        out.cancelled = out.cancelled || part.out.cancelled;
        res.parts = 2;
    }
    res.rows = out.rows;
    res.kept = out.kept;
    res.cancelled = out.cancelled;
    const bool anyPmuNonZero = out.anyPmuNonZero;
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

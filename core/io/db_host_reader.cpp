// The host side of the SQLite export (PYTORCH_API, CANN_API, flows, step markers, Overlap Analysis) and
// analysis.db (StepTraceTime, CommAnalyzerTime / Bandwidth). The device side is in db_reader.cpp.
#include "i18n/message.h"
#include "io/db_reader_impl.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <unordered_map>

namespace bs::dbimpl {

namespace {

// ENUM_API_TYPE ids of PYTORCH_API.type; the categories the trace gives the same events.
const char* torchCategory(std::int64_t type, std::string_view name) {
    switch (type) {
    case 50001:
        return "cpu_op";
    case 50002:
        return name.rfind("Dequeue", 0) == 0 ? "dequeue" : "enqueue";
    case 50003:
        return "python_function";
    case 50004:
        return "mstx";
    default:
        return "";
    }
}

bool isStepMarker(std::string_view n) {
    return n.rfind("ProfilerStep#", 0) == 0;
}

} // namespace

void DbReader::startHost() {
    host_ = std::make_unique<HostSide>();
    host_->reader = std::make_unique<DbReader>(files_, host_->prof, host_->sink, control_);
    DbReader& h = *host_->reader;
    h.onHostThread_ = true;
    h.msprof_ = msprof_;
    h.stepTimes_ = stepTimes_; // the step markers when PYTORCH_API has none
    h.stepIds_ = stepIds_;
    hostThread_ = std::thread([this] {
        try {
            host_->reader->readHostSide();
        } catch (...) {
            host_->error = std::current_exception();
        }
    });
}

// On the host thread: a connection of its own (SQLite connections are not shared between threads) and its
// own copy of STRING_IDS, whose findings the main reader already gives.
void DbReader::readHostSide() {
    SqliteDb db(files_.profilerDb);
    if (!db.ok()) {
        sink_.add(
            {"db_read_error", Severity::Error, files_.profilerDb, -1, -1,
             msg("The host tables (PYTORCH_API, CANN_API, CONNECTION_IDS, OVERLAP_ANALYSIS) of {} cannot be "
                 "read: {}.",
                 std::filesystem::path(files_.profilerDb).filename().string(), db.error()),
             msg("No host activity, flows or Overlap Analysis lanes come from this export."),
             msg("Copy the file again from the machine that collected it, or export again with the "
                 "profiler."),
             "collection-problems.md#sqlite-export"});
        return;
    }
    readStrings(db);
    tablesRead_.clear();
    tablesMissing_.clear();
    bad_.clear();
    (void)sink_.take();
    readHostApis(db);
    readFlowTables(db);
    readOverlap(db);
    readAnalysisDb();
}

// On the caller's thread, after the device tables: the host reader's strings are interned in its order
// (STRING_IDS, then what the host tables added) and its lanes created in its order, so ids, lanes and the
// order of tables and findings come out as a single-threaded read in that order gives them.
void DbReader::mergeHost() {
    if (hostThread_.joinable()) hostThread_.join();
    if (!host_) return;
    if (host_->error) std::rethrow_exception(host_->error);
    DbReader& h = *host_->reader;
    Profile& hp = host_->prof;
    if (h.cancelled_) cancelled_ = true;
    std::vector<StrId> str(hp.strings.size());
    for (std::size_t i = 0; i < str.size(); ++i)
        str[i] = prof_.strings.intern(hp.strings.view(static_cast<StrId>(i)));
    std::vector<std::uint32_t> lanes(hp.lanes.size());
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const Lane l = hp.lanes[i];
        const std::size_t before = prof_.lanes.size();
        lanes[i] = laneOf(l.pid, l.tid, l.kind);
        if (prof_.lanes.size() == before) continue;
        if (auto p = hp.processes.find(l.pid); p != hp.processes.end() && prof_.processes[l.pid].name.empty())
            prof_.processes[l.pid] = p->second;
        if (auto t = hp.threads.find({l.pid, l.tid}); t != hp.threads.end())
            prof_.threads[t->first] = t->second;
    }
    auto remap = [&](std::vector<TraceEvent>& from, std::vector<TraceEvent>& to) {
        for (TraceEvent& e : from) {
            e.lane = lanes[e.lane];
            e.name = str[e.name];
            e.cat = str[e.cat];
            e.taskType = str[e.taskType];
            e.stack = str[e.stack];
        }
        if (to.empty())
            to.swap(from);
        else
            to.insert(to.end(), from.begin(), from.end());
        from = {};
    };
    const std::size_t base = prof_.hostEvents.size();
    remap(hp.hostEvents, prof_.hostEvents);
    for (std::size_t r : h.hostRuns_)
        hostRuns_.push_back(base + r);
    remap(hp.overlapEvents, prof_.overlapEvents);
    for (auto* links : {&h.torchLinks_, &h.cannLinks_})
        for (HostLink& l : *links)
            l.lane = lanes[l.lane];
    torchLinks_ = std::move(h.torchLinks_);
    cannLinks_ = std::move(h.cannLinks_);
    for (auto& [c, cats] : h.flowCats_)
        cats.first = str[cats.first];
    flowCats_ = std::move(h.flowCats_);
    byApi_ = std::move(h.byApi_);
    for (auto& r : hp.stepTrace)
        prof_.stepTrace.push_back(std::move(r));
    for (auto& o : hp.commOps)
        prof_.commOps.push_back(std::move(o));
    prof_.hasCommunicationJson = prof_.hasCommunicationJson || hp.hasCommunicationJson;
    res_.hostRows += h.res_.hostRows;
    tablesRead_.insert(tablesRead_.end(), h.tablesRead_.begin(), h.tablesRead_.end());
    tablesMissing_.insert(tablesMissing_.end(), h.tablesMissing_.begin(), h.tablesMissing_.end());
    bad_.insert(bad_.end(), h.bad_.begin(), h.bad_.end());
    for (const Finding& f : host_->sink.findings())
        sink_.add(f);
    host_.reset();
}

void DbReader::readHostApis(const SqliteDb& db) {
    const bool callchains = db.hasTable("PYTORCH_CALLCHAINS");
    bool markers = false;
    std::unique_ptr<SqliteQuery> q;
    // PYTORCH_CALLCHAINS: one row per frame (id, stack = a STRING_IDS id, stackDepth 0 = innermost), joined
    // into the trace's "Call stack" text (";\r\n" between frames) and interned once per chain. Bounded like
    // the trace's stacks: at most 256 frames, 16 KiB of text (cut after the last whole frame).
    std::unordered_map<std::int64_t, std::vector<std::pair<std::int64_t, StrId>>> chains;
    if (callchains && select(db, "PYTORCH_CALLCHAINS", {"id", "stack", "stackDepth"}, 2, q)) {
        while (q->next() && !cancelled()) {
            std::int64_t id = 0, st = 0, depth = 0;
            if (!q->integer(0, id) || !q->integer(1, st)) continue;
            auto& frames = chains[id];
            if (!q->integer(2, depth)) depth = static_cast<std::int64_t>(frames.size());
            if (frames.size() < 256) frames.emplace_back(depth, sidOf(st));
        }
        endTable(db, "PYTORCH_CALLCHAINS", *q);
    }
    std::unordered_map<std::int64_t, StrId> chainText;
    auto stackOf = [&](std::int64_t id) -> StrId {
        if (auto it = chainText.find(id); it != chainText.end()) return it->second;
        StrId out = 0;
        if (auto it = chains.find(id); it != chains.end()) {
            auto& frames = it->second;
            std::stable_sort(frames.begin(), frames.end(),
                             [](const auto& x, const auto& y) { return x.first < y.first; });
            std::string text;
            for (const auto& [depth, frame] : frames) {
                const std::string_view f = prof_.str(frame);
                if (text.size() + f.size() + 3 > 16 * 1024) break;
                if (!text.empty()) text += ";\r\n";
                text += f;
            }
            out = text.empty() ? 0 : prof_.strings.intern(text);
        }
        return chainText[id] = out;
    };
    if (select(
            db, "PYTORCH_API",
            {"startNs", "endNs", "globalTid", "name", "type", "connectionId", "callchainId", "inputShapes"},
            3, q)) {
        std::map<std::int64_t, StrId> cats;
        while (q->next() && !cancelled()) {
            std::int64_t s = 0, e = 0, gt = 0, v = 0;
            if (!q->integer(0, s) || !q->integer(1, e) || !plausibleStart(s) || e < s ||
                !plausibleDuration(e - s)) {
                badValue(db, "PYTORCH_API", "startNs/endNs", q->rows(), *q, q->integer(0, s) ? 1 : 0,
                         msg("integer ns times (INTEGER or decimal TEXT) with endNs >= startNs").c_str());
                continue;
            }
            if (!q->integer(2, gt)) gt = 0;
            const std::uint64_t pid = static_cast<std::uint64_t>(gt) >> 32,
                                tid = static_cast<std::uint64_t>(gt) & 0xFFFFFFFFULL;
            TraceEvent ev;
            ev.ts = s;
            ev.dur = e - s;
            ev.lane = lane(pid, tid, LaneKind::Host, [&] {
                nameProcess(pid, "Python", "CPU", 0);
                prof_.threads[{pid, tid}] = {fmt::format("Thread {}", tid), static_cast<std::int64_t>(tid)};
            });
            if (firstPythonLane_ == UINT32_MAX) firstPythonLane_ = ev.lane;
            ev.name = sid(*q, 3);
            const std::int64_t type = q->integer(4, v) ? v : 0;
            const char* cat = torchCategory(type, prof_.str(ev.name));
            if (*cat) {
                auto it = cats.find(type * 2 + (cat[0] == 'd'));
                ev.cat = it != cats.end() ? it->second
                                          : (cats[type * 2 + (cat[0] == 'd')] = prof_.strings.intern(cat));
            }
            if (callchains && !q->isNull(6)) {
                ev.flags |= EvHasStack;
                if (q->integer(6, v)) ev.stack = stackOf(v);
            }
            if (!q->isNull(7) && !prof_.str(sid(*q, 7)).empty()) ev.flags |= EvHasShapes;
            if (isStepMarker(prof_.str(ev.name))) markers = true;
            if (q->integer(5, v)) torchLinks_.push_back({v, ev.lane, s, e});
            prof_.hostEvents.push_back(ev);
            ++res_.hostRows;
        }
        endTable(db, "PYTORCH_API", *q);
    }
    hostRuns_.push_back(prof_.hostEvents.size());
    if (select(db, "CANN_API", {"startNs", "endNs", "globalTid", "name", "connectionId"}, 3, q)) {
        while (q->next() && !cancelled()) {
            std::int64_t s = 0, e = 0, gt = 0, v = 0;
            if (!q->integer(0, s) || !q->integer(1, e) || !plausibleStart(s) || e < s ||
                !plausibleDuration(e - s)) {
                badValue(db, "CANN_API", "startNs/endNs", q->rows(), *q, q->integer(0, s) ? 1 : 0,
                         msg("integer ns times with endNs >= startNs").c_str());
                continue;
            }
            if (!q->integer(2, gt)) gt = 0;
            const std::uint64_t pid = kCannPidBase | (static_cast<std::uint64_t>(gt) >> 32),
                                tid = static_cast<std::uint64_t>(gt) & 0xFFFFFFFFULL;
            TraceEvent ev;
            ev.ts = s;
            ev.dur = e - s;
            ev.lane = lane(pid, tid, LaneKind::Host, [&] {
                nameProcess(pid, "CANN", "CPU", 7);
                prof_.threads[{pid, tid}] = {fmt::format("Thread {}", tid), static_cast<std::int64_t>(tid)};
            });
            ev.name = sid(*q, 3);
            if (q->integer(4, v)) cannLinks_.push_back({v, ev.lane, s, e});
            prof_.hostEvents.push_back(ev);
            ++res_.hostRows;
        }
        endTable(db, "CANN_API", *q);
    }
    hostRuns_.push_back(prof_.hostEvents.size());
    // STEP_TIME holds the ProfilerStep markers; exports without them in PYTORCH_API still get their steps.
    if (!markers && !stepTimes_.empty()) {
        std::uint32_t lane = firstPythonLane_;
        if (lane == UINT32_MAX) {
            nameProcess(0, "Python", "CPU", 0);
            prof_.threads[{0, 0}] = {"Step markers (STEP_TIME)", 0};
            lane = laneOf(0, 0, LaneKind::Host);
        }
        const StrId cat = prof_.strings.intern("cpu_op");
        for (std::size_t i = 0; i < stepTimes_.size(); ++i) {
            TraceEvent ev;
            ev.ts = stepTimes_[i].first;
            ev.dur = stepTimes_[i].second - stepTimes_[i].first;
            ev.lane = lane;
            ev.cat = cat;
            ev.name = prof_.strings.intern(fmt::format("ProfilerStep#{}", stepIds_[i]));
            prof_.hostEvents.push_back(ev);
        }
    }
}

void DbReader::readFlowTables(const SqliteDb& db) {
    // connectionCats (connectionId → flow category) when present; else the category follows the ends.
    std::unique_ptr<SqliteQuery> q;
    if (db.hasTable("connectionCats") && select(db, "connectionCats", {"connectionId", "cat"}, 2, q)) {
        while (q->next() && !cancelled()) {
            std::int64_t c = 0;
            if (!q->integer(0, c)) continue;
            const std::string_view text = q->text(1);
            // Every row's interned: string ids keep the order of first use.
            const StrId cat = prof_.strings.intern(text);
            const auto [it, fresh] = flowCats_.try_emplace(c);
            if (fresh) it->second.first = cat;
            it->second.hostToDevice |= text == "HostToDevice";
            it->second.npu |= text == "async_npu";
        }
        endTable(db, "connectionCats", *q);
    }
    // Interned where the single-threaded reader first used them: string ids keep the order of first use.
    for (const char* cat : {"HostToDevice", "async_npu", "async_task_queue"})
        prof_.strings.intern(cat);
    // PyTorch ops: CONNECTION_IDS maps the op's id to the connection ids it started (rows in id order).
    if (select(db, "CONNECTION_IDS", {"id", "connectionId"}, 2, q)) {
        while (q->next() && !cancelled()) {
            std::int64_t id = 0, c = 0;
            if (q->integer(0, id) && q->integer(1, c)) byApi_.emplace_back(id, c);
        }
        endTable(db, "CONNECTION_IDS", *q);
    }
    if (!std::is_sorted(byApi_.begin(), byApi_.end())) std::sort(byApi_.begin(), byApi_.end());
    // A row repeated says nothing more (it would only repeat the flow).
    byApi_.erase(std::unique(byApi_.begin(), byApi_.end()), byApi_.end());
}

void DbReader::buildFlows() {
    const auto& cats = flowCats_;
    const StrId h2d = prof_.strings.intern("HostToDevice"), npu = prof_.strings.intern("async_npu"),
                queue = prof_.strings.intern("async_task_queue");
    // Whether connection c is of a category (HostToDevice / async_npu): connectionCats names it for c, or
    // has no row for c (the category then follows the ends).
    auto carries = [&](std::int64_t c, bool FlowCategories::*category) {
        auto it = cats.find(c);
        return it == cats.end() || it->second.*category;
    };
    // Connection ids of device tasks, sorted: a binary search finds whether (and where) a host row launched
    // one.
    std::vector<std::int64_t> deviceConn;
    deviceConn.reserve(taskEnds_.size());
    for (const auto& [c, lane, ts] : taskEnds_)
        deviceConn.push_back(c);
    std::sort(deviceConn.begin(), deviceConn.end());
    deviceConn.erase(std::unique(deviceConn.begin(), deviceConn.end()), deviceConn.end());
    auto devIndex = [&](std::int64_t c) -> std::ptrdiff_t {
        auto it = std::lower_bound(deviceConn.begin(), deviceConn.end(), c);
        return it != deviceConn.end() && *it == c ? it - deviceConn.begin() : -1;
    };
    std::vector<unsigned char> started(deviceConn.size(), 0); // bit 0: HostToDevice, bit 1: async_npu
    // CANN launches: HostToDevice from the call's start.
    for (const auto& l : cannLinks_) {
        const auto d = devIndex(l.connectionId);
        if (d < 0) continue;
        if (!carries(l.connectionId, &FlowCategories::hostToDevice)) continue;
        prof_.flows.push_back({l.ts, static_cast<std::uint64_t>(l.connectionId), h2d, l.lane, 's'});
        started[static_cast<std::size_t>(d)] |= 1;
    }
    flowRuns_.push_back(prof_.flows.size());
    const auto& byApi = byApi_;
    std::map<std::int64_t, std::vector<std::pair<TimeNs, std::uint32_t>>> hostOnly; // both ends on the host
    // An API id is one op's (CONNECTION_IDS lists that op's connections): when PYTORCH_API rows repeat an id,
    // its connections are the first row's, in table order, and the later rows launch nothing — linking each
    // of them to each connection gave rows x connections flows.
    std::vector<char> claimed(byApi.size(), 0); // per CONNECTION_IDS row: a PyTorch op has taken it
    std::uint64_t repeated = 0;
    std::int64_t repeatedId = 0;
    for (const auto& l : torchLinks_) {
        auto it = std::lower_bound(byApi.begin(), byApi.end(), std::make_pair(l.connectionId, INT64_MIN));
        if (it == byApi.end() || it->first != l.connectionId) continue;
        char& taken = claimed[static_cast<std::size_t>(it - byApi.begin())];
        if (taken) {
            if (repeated++ == 0) repeatedId = l.connectionId;
            continue;
        }
        taken = 1;
        for (; it != byApi.end() && it->first == l.connectionId; ++it) {
            const std::int64_t c = it->second;
            if (const auto d = devIndex(c); d >= 0) {
                if (carries(c, &FlowCategories::npu)) {
                    prof_.flows.push_back({l.end, static_cast<std::uint64_t>(c), npu, l.lane, 's'});
                    started[static_cast<std::size_t>(d)] |= 2;
                }
            } else {
                hostOnly[c].emplace_back(l.ts, l.lane);
            }
        }
    }
    if (repeated)
        bad_.push_back({files_.profilerDb, "PYTORCH_API", "connectionId",
                        msg("id {} is also an earlier row's", repeatedId),
                        msg("an id no other row has (CONNECTION_IDS lists the connections of one op); the "
                            "connections go to the first row with the id"),
                        repeated});
    flowRuns_.push_back(prof_.flows.size());
    for (auto& [c, ends] : hostOnly) {
        if (ends.size() < 2) continue;
        std::sort(ends.begin(), ends.end());
        const auto known = cats.find(c);
        const StrId cat = known != cats.end() ? known->second.first : queue;
        for (std::size_t i = 0; i < ends.size(); ++i)
            prof_.flows.push_back(
                {ends[i].first, static_cast<std::uint64_t>(c), cat, ends[i].second, i ? 'f' : 's'});
    }
    flowRuns_.push_back(prof_.flows.size());
    // Device ends: the kernel's start on its stream, one per category that has a host start.
    for (const auto& [c, lane, ts] : taskEnds_) {
        const auto d = devIndex(c);
        if (d < 0) continue;
        const auto id = static_cast<std::uint64_t>(c);
        if (started[static_cast<std::size_t>(d)] & 1) prof_.flows.push_back({ts, id, h2d, lane, 'f'});
        if (started[static_cast<std::size_t>(d)] & 2) prof_.flows.push_back({ts, id, npu, lane, 'f'});
    }
}

void DbReader::readOverlap(const SqliteDb& db) {
    std::unique_ptr<SqliteQuery> q;
    if (!select(db, "OVERLAP_ANALYSIS", {"startNs", "endNs", "type", "deviceId"}, 3, q)) return;
    static const char* kNames[] = {"Computing", "Communication", "Communication(Not Overlapped)", "Free"};
    StrId names[4];
    for (int i = 0; i < 4; ++i)
        names[i] = prof_.strings.intern(kNames[i]);
    while (q->next() && !cancelled()) {
        std::int64_t s = 0, e = 0, type = 0, dev = 0;
        if (!q->integer(0, s) || !q->integer(1, e) || !q->integer(2, type) || type < 0 || type > 3 ||
            !plausibleStart(s) || e < s || !plausibleDuration(e - s)) {
            badValue(db, "OVERLAP_ANALYSIS", "startNs/endNs/type", q->rows(), *q, 0,
                     msg("integer ns times and a type 0 … 3").c_str());
            continue;
        }
        if (!q->integer(3, dev) || dev < 0 || dev > 65535) dev = 0;
        const std::uint64_t pid = kOverlapPidBase | static_cast<std::uint64_t>(dev);
        TraceEvent ev;
        ev.ts = s;
        ev.dur = e - s;
        ev.lane = lane(pid, static_cast<std::uint64_t>(type), LaneKind::Overlap, [&] {
            nameProcess(pid, "Overlap Analysis", "NPU", 23);
            prof_.threads[{pid, static_cast<std::uint64_t>(type)}] = {kNames[type], type};
        });
        ev.name = names[type];
        prof_.overlapEvents.push_back(ev);
    }
    endTable(db, "OVERLAP_ANALYSIS", *q);
}

namespace {

// A µs timestamp stored as INTEGER (exact) or REAL. A REAL is turned into text by the same JSON library
// that re-reads communication.json's number (side_file_readers.cpp), so both exports
// of one double give the same ns: a double near 1.7e15 µs has two shortest decimals when it lies halfway
// (…124.75 → "…124.7" or "…124.8"), and the two libraries would break that tie differently.
std::optional<TimeNs> microsAt(const SqliteQuery& q, int col) {
    if (q.type(col) == SqliteQuery::Type::Integer) {
        TimeNs ns;
        if (__builtin_mul_overflow(q.i64(col), 1000, &ns)) return std::nullopt;
        return ns;
    }
    if (q.type(col) == SqliteQuery::Type::Real) {
        return parseMicrosToNs(nlohmann::json(q.f64(col)).dump());
    }
    if (q.type(col) == SqliteQuery::Type::Text) return parseMicrosToNs(q.text(col));
    return std::nullopt;
}

// StepTraceTime's columns under step_trace_time.csv's names (the cross-check reads those).
std::string stepTraceColumn(const std::string& c) {
    static const std::pair<const char*, const char*> kMap[] = {
        {"computing", "Computing"},
        {"communication_not_overlapped", "Communication(Not Overlapped)"},
        {"overlapped", "Overlapped"},
        {"communication", "Communication"},
        {"free", "Free"},
        {"stage", "Stage"},
        {"bubble", "Bubble"},
        {"communication_not_overlapped_and_exclude_receive",
         "Communication(Not Overlapped and Exclude Receive)"},
        {"preparing", "Preparing"}};
    for (const auto& [db, csv] : kMap)
        if (c == db) return csv;
    return c;
}

} // namespace

void DbReader::readAnalysisDb() {
    if (files_.analysisDb.empty()) {
        if (!msprof_) tablesMissing_.push_back("analysis.db (StepTraceTime, CommAnalyzerTime)");
        return;
    }
    SqliteDb db(files_.analysisDb);
    walFindings(db,
                msg("There is no profiler cross-check (StepTraceTime) and no per-collective wait / transit "
                    "(CommAnalyzerTime); the profiler database itself is read."));
    if (!db.ok()) {
        if (!db.walPath().empty()) return;
        sink_.add(
            {"db_unreadable", Severity::Error, files_.analysisDb, -1, -1,
             msg("{} cannot be read as a SQLite database: {}.", "analysis.db", db.error()),
             msg("There is no profiler cross-check (StepTraceTime) and no per-collective wait / transit "
                 "(CommAnalyzerTime); the profiler database itself is read."),
             msg("Copy the file again from the machine that collected it, or export again with the "
                 "profiler."),
             "collection-problems.md#sqlite-export"});
        return;
    }
    std::unique_ptr<SqliteQuery> q;
    const auto cols = db.columns("StepTraceTime");
    if (select(db, "StepTraceTime", cols.empty() ? std::vector<std::string>{"step"} : cols, 1, q)) {
        const auto stepCol = std::find(cols.begin(), cols.end(), "step") - cols.begin();
        while (q->next() && !cancelled()) {
            StepTraceRow r;
            for (std::size_t i = 0; i < cols.size(); ++i) {
                const int c = static_cast<int>(i);
                if (static_cast<long>(i) == stepCol) {
                    r.step = q->type(c) == SqliteQuery::Type::Integer ? std::to_string(q->i64(c))
                                                                      : std::string(q->text(c));
                    continue;
                }
                const auto t = q->type(c);
                if (t == SqliteQuery::Type::Null) continue;
                if (t != SqliteQuery::Type::Integer && t != SqliteQuery::Type::Real) {
                    badValue(db, "StepTraceTime", cols[i], q->rows(), *q, c, msg("a number of µs").c_str());
                    continue;
                }
                const double v = q->f64(c);
                if (!(v >= 0) || v > static_cast<double>(kMaxAbsoluteNs) / 1000.0) {
                    badValue(db, "StepTraceTime", cols[i], q->rows(), *q, c,
                             msg("a per-step time in µs from 0 to 4e15").c_str());
                    continue;
                }
                r.values[stepTraceColumn(cols[i])] = v;
            }
            prof_.stepTrace.push_back(std::move(r));
        }
        endTable(db, "StepTraceTime", *q);
    }
    // Transit sizes per collective and link (one figure per link: the table repeats it per packet size).
    std::map<std::tuple<std::string, std::string, std::string>, std::map<std::string, double>> sizes;
    if (select(db, "CommAnalyzerBandwidth",
               {"hccl_op_name", "step", "type", "transport_type", "transit_size"}, 5, q)) {
        while (q->next() && !cancelled()) {
            const std::string transport(q->text(3));
            if (transport == "SDMA") continue; // repeats HCCS/SIO traffic, as in communication.json
            const double mb = q->f64(4);
            if (!(mb >= 0 && mb <= 1e9)) {
                badValue(db, "CommAnalyzerBandwidth", "transit_size", q->rows(), *q, 4,
                         msg("a size in MB from 0 to 1e9").c_str());
                continue;
            }
            sizes[{std::string(q->text(1)), std::string(q->text(2)), std::string(q->text(0))}].emplace(
                transport, mb);
        }
        endTable(db, "CommAnalyzerBandwidth", *q);
    }
    if (select(db, "CommAnalyzerTime",
               {"hccl_op_name", "step", "type", "start_timestamp", "elapse_time", "transit_time", "wait_time",
                "synchronization_time", "idle_time"},
               5, q)) {
        std::vector<CommOp> ops;
        while (q->next() && !cancelled()) {
            CommOp c;
            c.name = std::string(q->text(0));
            c.step = std::string(q->text(1));
            c.kind = std::string(q->text(2));
            if (!q->isNull(3)) {
                const auto ns = microsAt(*q, 3);
                if (ns && plausibleStart(*ns))
                    c.start = *ns;
                else
                    badValue(db, "CommAnalyzerTime", "start_timestamp", q->rows(), *q, 3,
                             msg("a timestamp in µs between 1970 and ~2096").c_str());
            }
            TimeNs* dst[] = {&c.elapse, &c.transit, &c.wait, &c.sync, &c.idle};
            static const char* names[] = {"elapse_time", "transit_time", "wait_time", "synchronization_time",
                                          "idle_time"};
            for (int i = 0; i < 5; ++i) {
                const int col = 4 + i;
                if (q->isNull(col)) continue;
                const double ms = q->f64(col);
                if (ms < 0 && ms > -1e-3) continue; // rounding noise of a difference, below 1 µs
                if (!(ms >= 0 && ms * 1e6 <= static_cast<double>(kMaxDurationNs))) {
                    badValue(db, "CommAnalyzerTime", names[i], q->rows(), *q, col,
                             msg("a duration in ms from 0 to 1e6").c_str());
                    continue;
                }
                *dst[i] = static_cast<TimeNs>(std::llround(ms * 1e6));
            }
            auto sz = sizes.find({c.step, c.kind, c.name});
            if (sz != sizes.end())
                for (const auto& [t, mb] : sz->second)
                    c.transitSizeMB += mb;
            ops.push_back(std::move(c));
        }
        endTable(db, "CommAnalyzerTime", *q);
        // communication.json is read in key order (step, kind, op name): the same order here.
        std::stable_sort(ops.begin(), ops.end(), [](const CommOp& a, const CommOp& b) {
            return std::tie(a.step, a.kind, a.name) < std::tie(b.step, b.kind, b.name);
        });
        for (auto& o : ops)
            prof_.commOps.push_back(std::move(o));
        prof_.hasCommunicationJson = true;
    }
}

} // namespace bs::dbimpl

// bubblescope-synth: CLI, file writers and ground truth (expected.json).
#include "db_writer.h"
#include "simulate.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace synth {

namespace {

constexpr std::uint64_t kPidPython = 2716001, kPidCann = 2716002, kPidDevice = 3170820512ULL,
                        kPidHccl = 3170820576ULL, kPidOverlap = 3170820832ULL, kPidFreq = 3170820544ULL;

std::string usStr(Ns ns) {
    if (ns < 0) return "-" + usStr(-ns); // exact below zero too ("-1.500", not "-1.-500")
    return fmt::format("{}.{:03}", ns / 1000, ns % 1000);
}

struct Iv {
    Ns a, b;
};
std::vector<Iv> merge(std::vector<Iv> v) {
    std::sort(v.begin(), v.end(), [](const Iv& x, const Iv& y) { return x.a < y.a; });
    std::vector<Iv> out;
    for (const auto& i : v) {
        if (i.b <= i.a) continue;
        if (!out.empty() && i.a <= out.back().b)
            out.back().b = std::max(out.back().b, i.b);
        else
            out.push_back(i);
    }
    return out;
}
Ns total(const std::vector<Iv>& m) {
    Ns t = 0;
    for (const auto& i : m)
        t += i.b - i.a;
    return t;
}
Ns intersect(const std::vector<Iv>& a, const std::vector<Iv>& b) {
    Ns t = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        Ns lo = std::max(a[i].a, b[j].a), hi = std::min(a[i].b, b[j].b);
        if (hi > lo) t += hi - lo;
        (a[i].b < b[j].b) ? ++i : ++j;
    }
    return t;
}
std::vector<Iv> subtract(const std::vector<Iv>& a, const std::vector<Iv>& b) {
    std::vector<Iv> out;
    std::size_t j = 0;
    for (auto cur : a) {
        while (j < b.size() && b[j].b <= cur.a)
            ++j;
        std::size_t k = j;
        while (k < b.size() && b[k].a < cur.b) {
            if (b[k].a > cur.a) out.push_back({cur.a, b[k].a});
            cur.a = std::max(cur.a, b[k].b);
            ++k;
        }
        if (cur.b > cur.a) out.push_back(cur);
    }
    return out;
}

const char* kLevel1Header =
    "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait "
    "Time(us),"
    "Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output "
    "Data Types,"
    "Output Formats,Context "
    "ID,aicore_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),"
    "aic_scalar_ratio,aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),"
    "aic_fixpipe_ratio,aic_icache_miss_rate,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,"
    "aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,"
    "aiv_icache_miss_rate,cube_utilization(%)\r\n";
const char* kLevel0Header =
    "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n";

struct OpStat {
    std::string core;
    std::uint64_t count = 0;
    Ns total = 0, min = INT64_MAX, max = 0;
};

class Writer {
  public:
    Writer(const Options& o, fs::path out) : o_(o), out_(std::move(out)) {
        fs::create_directories(out_);
        if (o_.db)
            db_ = std::make_unique<DbWriter>((out_ / "ascend_pytorch_profiler_0.db").string(),
                                             (out_ / "analysis.db").string(), o_.ranks > 1 ? o_.rank : 0);
        trace_ = std::fopen((out_ / "trace_view.json").c_str(), "wb");
        kd_ = std::fopen((out_ / "kernel_details.csv").c_str(), "wb");
        if (!trace_ || !kd_) throw std::runtime_error("cannot create files in " + out_.string());
        std::fputs("[", trace_);
        std::fputs(o_.level0 ? kLevel0Header : kLevel1Header, kd_);
        writeMetadata();
        stepTrace_ =
            "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
            "Communication(Not Overlapped and Exclude Receive),Preparing\r\n";
    }
    ~Writer() {
        if (trace_) std::fclose(trace_);
        if (kd_) std::fclose(kd_);
    }
    std::uint64_t traceBytes() const { return traceBytes_; }
    std::uint64_t dbBytes() const { return db_ ? db_->bytes() : 0; }

    template <typename... A> void emit(fmt::memory_buffer& b, fmt::format_string<A...> f, A&&... a) {
        if (!first_) b.push_back(',');
        first_ = false;
        b.push_back('\n');
        fmt::format_to(std::back_inserter(b), f, std::forward<A>(a)...);
    }

    // A call stack as trace_view.json writes it: frames joined by ";\r\n" (JSON-escaped), built once.
    const std::string& stackJson(const CallStack& c) {
        std::string& j = stackText_[&c];
        if (j.empty())
            for (const char* f = c.frames; *f; ++f)
                j += *f == '\n' ? std::string(R"(;\r\n)") : std::string(1, *f);
        return j;
    }

    void writeStep(const StepOut& s, Ns windowEnd, std::vector<Planted>& planted) {
        fmt::memory_buffer b;
        const Ns S = s.markerStart;
        emit(
            b,
            R"({{"ph": "X", "name": "ProfilerStep#{}", "pid": {}, "tid": {}, "ts": "{}", "dur": {}, "cat": "cpu_op", "args": {{"Sequence number": -1, "Fwd thread id": 0, "Call stack": "{}"}}}})",
            s.number, kPidPython, kPidPython, usStr(S), usStr(s.markerDur), stackJson(kStackStep));
        if (db_) db_->stepMarker(s.number, S, s.markerDur);
        for (const auto& h : s.host) {
            if (db_) db_->hostEvent(h, kPidPython);
            const std::uint64_t pid = h.lane == Lane::Cann ? kPidCann : kPidPython;
            std::string args;
            if (h.lane != Lane::Cann) {
                args = R"(, "args": {"Sequence number": -1, "Fwd thread id": 0)";
                if (!h.inputDims.empty()) args += fmt::format(R"(, "Input Dims": "[{}]")", h.inputDims);
                if (h.stack) args += fmt::format(R"(, "Call stack": "{}")", stackJson(*h.stack));
                args += "}";
            }
            const std::string cat = *h.cat ? fmt::format(R"(, "cat": "{}")", h.cat) : std::string();
            emit(b, R"({{"ph": "X", "name": "{}", "pid": {}, "tid": {}, "ts": "{}", "dur": {}{}{}}})", h.name,
                 pid, kPidPython, usStr(h.ts), usStr(h.dur), cat, args);
            if (h.flowOut) {
                if (h.lane == Lane::Cann)
                    emit(
                        b,
                        R"({{"ph": "s", "bp": "e", "name": "HostToDevice{}", "id": "{}", "pid": {}, "tid": {}, "ts": "{}", "cat": "HostToDevice"}})",
                        h.flowOut * 7919, h.flowOut * 7919, kPidCann, kPidPython, usStr(h.ts));
                else
                    emit(
                        b,
                        R"({{"ph": "s", "bp": "e", "name": "async_npu", "id": {}, "pid": {}, "tid": {}, "ts": "{}", "cat": "async_npu"}})",
                        h.flowOut, kPidPython, kPidPython, usStr(h.ts + h.dur));
            }
        }
        std::vector<Iv> compute, comm, all;
        std::string rows;
        for (const auto& k : s.kernels) {
            streams_.insert(k.stream);
            if (db_) db_->kernel(k, k.isComm ? std::vector<std::pair<std::string, std::string>>{} : pmuFields(k));
            emit(
                b,
                R"({{"name": "{}", "pid": {}, "tid": {}, "ts": "{}", "dur": {}, "args": {{"Model Id": 4294967295, "Task Type": "{}", "Physic Stream Id": {}, "Task Id": {}, "Batch Id": 0, "Subtask Id": 4294967295, "connection_id": {}}}, "ph": "X"}})",
                k.name, kPidDevice, k.stream, usStr(k.start), usStr(k.dur), k.traceTaskType, k.stream,
                k.taskId, k.flowId);
            emit(
                b,
                R"({{"ph": "f", "bp": "e", "name": "async_npu", "id": {}, "pid": {}, "tid": {}, "ts": "{}", "cat": "async_npu"}})",
                k.flowId, kPidDevice, k.stream, usStr(k.start));
            emit(
                b,
                R"({{"ph": "f", "bp": "e", "name": "HostToDevice{}", "id": "{}", "pid": {}, "tid": {}, "ts": "{}", "cat": "HostToDevice"}})",
                k.flowId * 7919, k.flowId * 7919, kPidDevice, k.stream, usStr(k.start));
            if (k.isComm) {
                emit(
                    b,
                    R"({{"name": "{}", "pid": {}, "tid": {}, "ts": "{}", "dur": {}, "args": {{"connection_id": {}, "model id": 4294967295, "data_type": "BF16", "alg_type": "MESH", "count": 0}}, "ph": "X"}})",
                    k.name, kPidHccl, k.stream == Simulator::kTp ? 0 : 1, usStr(k.start), usStr(k.dur),
                    k.flowId);
                comm.push_back({k.start, k.start + k.dur});
                commOps_[fmt::format("step{}", s.number)].push_back(k);
            } else {
                compute.push_back({k.start, k.start + k.dur});
            }
            all.push_back({k.start, k.start + k.dur});
            appendRow(rows, s.number, k);
            auto& st = stats_[k.opType];
            st.core = k.core;
            ++st.count;
            st.total += k.dur;
            st.min = std::min(st.min, k.dur);
            st.max = std::max(st.max, k.dur);
        }
        // Clip to the step window [S, windowEnd) — the same rule the profiler uses.
        auto clip = [&](std::vector<Iv> v) {
            for (auto& i : v) {
                i.a = std::max(i.a, S);
                i.b = std::min(i.b, windowEnd);
            }
            return merge(std::move(v));
        };
        const auto mc = clip(compute), mm = clip(comm), ma = clip(all);
        const Ns overlapped = intersect(mc, mm);
        Ns freeNs = 0;
        for (std::size_t i = 1; i < ma.size(); ++i)
            freeNs += ma[i].a - ma[i - 1].b;
        const Ns prep = ma.empty() ? windowEnd - S : ma.front().a - S;
        const Ns stage = ma.empty() ? 0 : ma.back().b - ma.front().a;
        const Ns commNo = total(mm) - overlapped;
        stepTrace_ += fmt::format("{},{},{},{},{},{},{},0,{},{}\r\n", s.number, usStr(total(mc)),
                                  usStr(commNo), usStr(overlapped), usStr(total(mm)), usStr(freeNs),
                                  usStr(stage), usStr(commNo), usStr(prep));
        if (db_) {
            auto us = [](Ns v) { return static_cast<double>(v) / 1000.0; };
            db_->stepTrace(std::to_string(s.number), {us(total(mc)), us(commNo), us(overlapped), us(total(mm)),
                                                      us(freeNs), us(stage), 0.0, us(commNo), us(prep)});
        }
        commTotal_ += total(mm);
        commOverlapped_ += overlapped;
        // The profiler's Overlap Analysis lanes.
        auto lane = [&](const std::vector<Iv>& v, int tid, const char* name) {
            for (const auto& i : v) {
                emit(b, R"({{"name": "{}", "pid": {}, "tid": {}, "ts": "{}", "dur": {}, "ph": "X"}})", name,
                     kPidOverlap, tid, usStr(i.a), usStr(i.b - i.a));
                if (db_) db_->overlap(tid, i.a, i.b);
            }
        };
        lane(mc, 0, "Computing");
        lane(mm, 1, "Communication");
        lane(subtract(mm, mc), 2, "Communication(Not Overlapped)");
        std::vector<Iv> gaps;
        for (std::size_t i = 1; i < ma.size(); ++i)
            gaps.push_back({ma[i - 1].b, ma[i].a});
        lane(gaps, 3, "Free");
        emit(
            b,
            R"({{"name": "AI Core Freq", "pid": {}, "tid": 0, "ts": "{}", "ph": "C", "args": {{"MHz": 1800}}}})",
            kPidFreq, usStr(S));
        // Resolve the planted bubble windows of this step.
        for (auto& p : planted) {
            if (p.kind != "bubble" || p.step != s.number || p.windowEnd != 0) continue;
            const Ns at = s.kernels.at(p.kernelIndex).start;
            for (std::size_t i = 1; i < ma.size(); ++i)
                if (ma[i].a == at) {
                    p.windowStart = ma[i - 1].b;
                    p.windowEnd = at;
                }
            if (p.windowEnd == 0) throw std::runtime_error("planted " + p.type + " produced no device gap");
        }
        std::fwrite(b.data(), 1, b.size(), trace_);
        traceBytes_ += b.size();
        std::fwrite(rows.data(), 1, rows.size(), kd_);
    }

    void finish() {
        fmt::memory_buffer b;
        b.append(std::string_view("\n]"));
        std::fwrite(b.data(), 1, b.size(), trace_);
        traceBytes_ += b.size();
        std::fclose(trace_);
        trace_ = nullptr;
        std::fclose(kd_);
        kd_ = nullptr;
        writeSmallFiles();
        if (db_) db_->finish();
    }

    // Lane metadata first, as the profiler groups it per process: a cut file still names its lanes.
    void writeMetadata() {
        fmt::memory_buffer b;
        auto meta = [&](const std::string& s) {
            if (!first_) b.push_back(',');
            first_ = false;
            b.push_back('\n');
            b.append(s);
        };
        auto proc = [&](std::uint64_t pid, const char* name, const char* labels, int sort) {
            meta(fmt::format(
                R"({{"name": "process_name", "ph": "M", "pid": {}, "tid": 0, "args": {{"name": "{}"}}}})",
                pid, name));
            meta(fmt::format(
                R"({{"name": "process_labels", "ph": "M", "pid": {}, "tid": 0, "args": {{"labels": "{}"}}}})",
                pid, labels));
            meta(fmt::format(
                R"({{"name": "process_sort_index", "ph": "M", "pid": {}, "tid": 0, "args": {{"sort_index": {}}}}})",
                pid, sort));
        };
        auto thread = [&](std::uint64_t pid, std::uint64_t tid, const std::string& name, long long sort) {
            meta(fmt::format(
                R"({{"name": "thread_name", "ph": "M", "pid": {}, "tid": {}, "args": {{"name": "{}"}}}})",
                pid, tid, name));
            meta(fmt::format(
                R"({{"name": "thread_sort_index", "ph": "M", "pid": {}, "tid": {}, "args": {{"sort_index": {}}}}})",
                pid, tid, sort));
        };
        proc(kPidPython, "Python", "CPU", 0);
        thread(kPidPython, kPidPython, fmt::format("Thread {}", kPidPython),
               static_cast<long long>(kPidPython));
        proc(kPidCann, "CANN", "CPU", 2);
        thread(kPidCann, kPidPython, fmt::format("Thread {}", kPidPython),
               static_cast<long long>(kPidPython));
        proc(kPidDevice, "Ascend Hardware", "NPU", 13);
        for (int s : {Simulator::kMain, Simulator::kTp, Simulator::kEp, Simulator::kSide})
            thread(kPidDevice, static_cast<std::uint64_t>(s), fmt::format("Stream {}", s), s);
        proc(kPidHccl, "HCCL", "NPU", 14);
        thread(kPidHccl, 0, "Group 0 Communication", 0);
        thread(kPidHccl, 1, "Group 1 Communication", 1);
        proc(kPidFreq, "AI Core Freq", "NPU", 15);
        proc(kPidOverlap, "Overlap Analysis", "NPU", 16);
        thread(kPidOverlap, 0, "Computing", 0);
        thread(kPidOverlap, 1, "Communication", 1);
        thread(kPidOverlap, 2, "Communication(Not Overlapped)", 2);
        thread(kPidOverlap, 3, "Free", 3);
        std::fwrite(b.data(), 1, b.size(), trace_);
        traceBytes_ += b.size();
    }

    double commOverlapShare() const {
        return commTotal_ > 0 ? static_cast<double>(commOverlapped_) / static_cast<double>(commTotal_) : 0.0;
    }

  private:
    void appendRow(std::string& rows, std::int64_t step, const Kernel& k) {
        if (o_.level0) {
            fmt::format_to(std::back_inserter(rows), "{},{},N/A,{},{}\t,{},{},{}\r\n", step, k.name,
                           k.isComm ? "HCCL" : "N/A", usStr(k.start), usStr(k.dur), usStr(k.wait),
                           k.blockDim);
            return;
        }
        const std::string taskId = k.isComm ? "N/A" : std::to_string(k.taskId);
        const std::string stream = k.isComm ? "N/A" : std::to_string(k.stream);
        fmt::format_to(std::back_inserter(rows), "{},4294967295,{},{},{},{},dynamic,{},{}\t,{},{},{},0,NO,",
                       step, taskId, stream, k.name, k.opType, k.core, usStr(k.start), usStr(k.dur),
                       usStr(k.wait), k.blockDim);
        if (k.isComm) {
            rows += "N/A,N/A,N/A,N/A,N/A,N/A,N/A";
            for (int i = 0; i < 25; ++i)
                rows += ",N/A";
            rows += "\r\n";
            return;
        }
        fmt::format_to(std::back_inserter(rows), "\"\"\"{}\"\"\",{},ND,\"\"\"{}\"\"\",{},ND,N/A,", k.inShapes,
                       k.inTypes, k.outShapes, k.outTypes);
        const auto pmu = pmuFields(k);
        for (std::size_t i = 0; i < pmu.size(); ++i)
            rows += (i ? "," : "") + pmu[i].second;
        rows += "\r\n";
    }

    // PMU (PipeUtilization) columns in kernel_details order with their text: cube kernels compute-bound,
    // attention / vector kernels memory-bound. The text table and the database get the same figures.
    static std::vector<std::pair<std::string, std::string>> pmuFields(const Kernel& k) {
        const double d = static_cast<double>(k.dur) / 1000.0;
        const std::string_view core(k.core);
        const bool cube = core == "AI_CORE";
        const bool mix = core == "MIX_AIC";
        const bool vec = core == "AI_VECTOR_CORE";
        const double mac = cube ? 0.82 : (mix ? 0.41 : 0.0), mte2 = cube ? 0.46 : (mix ? 0.73 : 0.0);
        const double aic = (cube || mix) ? d * 0.97 : 0.0;
        const double vecR = vec ? 0.31 : (mix ? 0.22 : 0.0), vmte2 = vec ? 0.86 : (mix ? 0.64 : 0.0);
        const double aiv = (vec || mix) ? d * 0.95 : 0.0;
        auto f3 = [](double v) { return fmt::format("{:.3f}", v); };
        return {{"aicore_time(us)", f3(aic)},
                {"aic_total_cycles", std::to_string(static_cast<long long>(aic * 1800))},
                {"aic_mac_time(us)", f3(aic * mac)},
                {"aic_mac_ratio", f3(mac)},
                {"aic_scalar_time(us)", f3(aic * 0.12)},
                {"aic_scalar_ratio", f3(0.12)},
                {"aic_mte1_time(us)", f3(aic * 0.3)},
                {"aic_mte1_ratio", f3(0.3)},
                {"aic_mte2_time(us)", f3(aic * mte2)},
                {"aic_mte2_ratio", f3(mte2)},
                {"aic_fixpipe_time(us)", f3(aic * 0.2)},
                {"aic_fixpipe_ratio", f3(0.2)},
                {"aic_icache_miss_rate", "0.002"},
                {"aiv_time(us)", f3(aiv)},
                {"aiv_total_cycles", std::to_string(static_cast<long long>(aiv * 1800))},
                {"aiv_vec_time(us)", f3(aiv * vecR)},
                {"aiv_vec_ratio", f3(vecR)},
                {"aiv_scalar_time(us)", f3(aiv * 0.1)},
                {"aiv_scalar_ratio", f3(0.1)},
                {"aiv_mte2_time(us)", f3(aiv * vmte2)},
                {"aiv_mte2_ratio", f3(vmte2)},
                {"aiv_mte3_time(us)", f3(aiv * 0.25)},
                {"aiv_mte3_ratio", f3(0.25)},
                {"aiv_icache_miss_rate", "0.001"},
                {"cube_utilization(%)", f3(cube ? 78.5 : (mix ? 41.0 : 0.0))}};
    }

    void writeSmallFiles() {
        auto put = [&](const char* name, const std::string& text) {
            std::FILE* f = std::fopen((out_ / name).c_str(), "wb");
            if (!f) throw std::runtime_error(std::string("cannot write ") + name);
            std::fwrite(text.data(), 1, text.size(), f);
            std::fclose(f);
        };
        put("step_trace_time.csv", stepTrace_);
        std::string st =
            "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\r\n";
        Ns all = 0;
        for (const auto& [t, s] : stats_)
            all += s.total;
        for (const auto& [t, s] : stats_)
            st += fmt::format(
                "{},{},{},{},{},{:.3f},{},{:.3f}\r\n", t, s.core, s.count, usStr(s.total), usStr(s.min),
                static_cast<double>(s.total) / 1000.0 / static_cast<double>(s.count), usStr(s.max),
                100.0 * static_cast<double>(s.total) / static_cast<double>(std::max<Ns>(all, 1)));
        if (!o_.level0) put("op_statistic.csv", st);
        nlohmann::ordered_json comm = nlohmann::ordered_json::object();
        for (const auto& [step, ops] : commOps_) {
            nlohmann::ordered_json coll = nlohmann::ordered_json::object();
            for (const auto& k : ops) {
                const double ms = static_cast<double>(k.dur) / 1e6;
                nlohmann::ordered_json info;
                info["Start Timestamp(us)"] = static_cast<double>(k.start) / 1000.0;
                info["Elapse Time(ms)"] = ms;
                const double waitMs = k.commWait >= 0 ? static_cast<double>(k.commWait) / 1e6 : ms * 0.5;
                const double transitMs = k.commTransit >= 0 ? static_cast<double>(k.commTransit) / 1e6 : ms * 0.35;
                info["Transit Time(ms)"] = transitMs;
                info["Wait Time(ms)"] = waitMs;
                // A single rank: 0.45 of the elapse. A cluster rank (commSync set): what it waited for a
                // late rank, 0 for most; the ratios then derived as the profiler does (x / (x + transit),
                // 4 places).
                const double syncMs = k.commSync >= 0 ? static_cast<double>(k.commSync) / 1e6 : ms * 0.45;
                auto ratio = [&](double v) {
                    return v + transitMs > 0 ? std::round(v / (v + transitMs) * 1e4) / 1e4 : 0.0;
                };
                info["Synchronization Time(ms)"] = syncMs;
                info["Idle Time(ms)"] = ms * 0.15;
                info["Wait Time Ratio"] = k.commSync >= 0 ? ratio(waitMs) : 0.5882;
                info["Synchronization Time Ratio"] = k.commSync >= 0 ? ratio(syncMs) : 0.5625;
                nlohmann::ordered_json bw;
                for (const char* t : {"RDMA", "HCCS", "PCIE", "SDMA", "SIO"}) {
                    const bool used = std::strcmp(t, "HCCS") == 0 || std::strcmp(t, "SDMA") == 0;
                    bw[t] = {{"Transit Size(MB)", used ? ms * 6.0 : 0.0},
                             {"Transit Time(ms)", used ? ms * 0.35 : 0.0},
                             {"Bandwidth(GB/s)", used ? 17.14 : 0.0},
                             {"Large Packet Ratio", 0.0},
                             {"Size Distribution", nlohmann::ordered_json::object()}};
                }
                const std::string key = fmt::format("{}@{}", k.name, 17522688603477080000ULL + k.taskId);
                coll[key] = {{"Communication Time Info", info}, {"Communication Bandwidth Info", bw}};
                if (db_)
                    db_->commOp(
                        step, key, static_cast<double>(k.start) / 1000.0, {ms, transitMs, waitMs, syncMs, ms * 0.15},
                        {{"HCCS", ms * 6.0}, {"PCIE", 0.0}, {"RDMA", 0.0}, {"SDMA", ms * 6.0}, {"SIO", 0.0}});
            }
            comm[step] = {{"p2p", nlohmann::ordered_json::object()}, {"collective", coll}};
        }
        if (!o_.level0) put("communication.json", comm.dump());
    }

    Options o_;
    fs::path out_;
    std::FILE* trace_ = nullptr;
    std::FILE* kd_ = nullptr;
    std::unique_ptr<DbWriter> db_;
    bool first_ = true;
    std::uint64_t traceBytes_ = 1;
    std::set<int> streams_;
    std::string stepTrace_;
    std::map<std::string, OpStat> stats_;
    std::map<std::string, std::vector<Kernel>> commOps_;
    std::map<const CallStack*, std::string> stackText_;
    Ns commTotal_ = 0, commOverlapped_ = 0;
};

std::string layerTypeName(LayerType t) {
    switch (t) {
    case LayerType::Dense:
        return "Dense";
    case LayerType::MoeDfc:
        return "MoE+DFC";
    case LayerType::MoeGmm:
        return "MoE+GMM";
    }
    return "";
}

void writeProfilerInfo(const fs::path& rankDir, const Options& o) {
    nlohmann::ordered_json j;
    j["config"]["common_config"] = {
        {"activities", {"ProfilerActivity.CPU", "ProfilerActivity.NPU"}},
        {"schedule", {{"wait", 0}, {"active", o.steps}, {"warmup", 1}, {"repeat", 1}, {"skip_first", 0}}},
        {"record_shapes", !o.level0},
        {"profile_memory", false},
        {"with_stack", true},
        {"with_flops", false},
        {"with_modules", false}};
    j["config"]["experimental_config"] = {
        {"_profiler_level", o.level0 ? "Level0" : "Level1"},
        {"_aic_metrics", o.level0 ? "ACL_AICORE_NONE" : "ACL_AICORE_PIPE_UTILIZATION"},
        {"_l2_cache", false},
        {"_export_type", "text"}};
    j["rank_id"] = o.rank;
    std::FILE* f = std::fopen((rankDir / fmt::format("profiler_info_{}.json", o.rank)).c_str(), "wb");
    const std::string s = j.dump(4);
    std::fwrite(s.data(), 1, s.size(), f);
    std::fclose(f);
    f = std::fopen((rankDir / "profiler_metadata.json").c_str(), "wb");
    std::fputs("{\n    \"ENV_VARIABLES\": {\n        \"ASCEND_GLOBAL_LOG_LEVEL\": \"\",\n        "
               "\"ASCEND_LAUNCH_BLOCKING\": \"\"\n    }\n}",
               f);
    std::fclose(f);
}

} // namespace

int run(const Options& o) {
    return o.ranks > 1 ? runCluster(o) : runRank(o);
}

std::vector<Ns> stepServices(const Options& o) {
    Simulator sim(o);
    std::vector<Ns> v;
    Ns start = 1736408883686740710LL; // as runRank
    for (int i = 0; i < o.steps; ++i) {
        const StepOut s = sim.simulateStep(i, start);
        const Ns next = s.markerStart + s.markerDur + 5000;
        v.push_back(i + 1 == o.steps ? s.markerDur : next - s.markerStart);
        start = next;
    }
    return v;
}

int runRank(const Options& o, std::vector<DelayedCollective>* delayed) {
    const fs::path rankDir =
        fs::path(o.outDir) / (o.ranks > 1 ? fmt::format("{}_rank{}_ascend_pt", o.name, o.rank) : o.name + "_ascend_pt");
    std::error_code ec;
    fs::remove_all(rankDir, ec);
    const fs::path out = rankDir / "ASCEND_PROFILER_OUTPUT";
    Simulator sim(o);
    Writer w(o, out);
    writeProfilerInfo(rankDir, o);
    std::vector<Planted> planted;
    Ns start = 1736408883686740710LL; // a real-looking epoch in ns
    int steps = 0;
    // --trace-mb grows the trace, --db-mb the database, to about N MB.
    const bool growing = o.traceMb > 0 || o.dbMb > 0;
    const double targetBytes = (o.dbMb > 0 ? o.dbMb : o.traceMb) * 1024.0 * 1024.0;
    auto grownBytes = [&] { return o.dbMb > 0 ? w.dbBytes() : w.traceBytes(); };
    std::uint64_t lastStepBytes = 0;
    std::vector<Ns> services; // per step: window length
    for (int i = 0; growing ? (static_cast<double>(grownBytes()) < targetBytes || i < o.steps) : i < o.steps;
         ++i) {
        const std::uint64_t before = grownBytes();
        StepOut s = sim.simulateStep(i, start);
        const std::ptrdiff_t inserted = o.ranks > 1 ? plantClusterDelay(s, o, i, delayed) : -1;
        const Ns next = s.markerStart + s.markerDur + 5000;
        // Each planted case once (the simulator keeps every case planted so far): a type is planted once
        // per step at most, --dispatch-gap once per layer of a pass — hence the step and kernel in the key.
        for (const auto& p : sim.planted())
            if (std::none_of(planted.begin(), planted.end(), [&](const Planted& q) {
                    return q.type == p.type && (p.type != "layer_dispatch_gap" ||
                                                (q.step == p.step && q.kernelIndex == p.kernelIndex));
                }))
                planted.push_back(p);
        // A kernel the cluster delay inserted moves the step's later kernels one place on.
        if (inserted >= 0)
            for (auto& p : planted)
                if (p.kind == "bubble" && p.step == s.number && p.windowEnd == 0 &&
                    p.kernelIndex >= static_cast<std::size_t>(inserted))
                    ++p.kernelIndex;
        const bool last =
            growing ? (i + 1 >= o.steps && static_cast<double>(before + lastStepBytes) >= targetBytes)
                    : i + 1 == o.steps;
        // Last step: E = max(S + marker duration, last kernel end) = S + marker duration here.
        const Ns windowEnd = last ? s.markerStart + s.markerDur : next;
        services.push_back(windowEnd - s.markerStart);
        // --clock-skew-us: the schedule stays; this rank's clock reads every time `skew` off.
        const Ns skew = o.ranks > 1 ? clockSkewNs(o, o.rank) : 0;
        if (skew != 0) shiftClock(s, skew);
        w.writeStep(s, windowEnd + skew, planted);
        lastStepBytes = grownBytes() - before;
        start = next;
        ++steps;
        if (last) break;
    }
    for (auto& p : sim.summaryTruth(steps))
        planted.push_back(std::move(p));
    // Each planted cause's step with and without it (the same seed, the cause left out): what removing it
    // buys, for the replay's predictions (ANALYSIS.md §15).
    if (o.leaveOut.empty() && !growing && o.ranks <= 1) {
        const std::pair<const char*, const char*> causes[] = {{"sync_bubble", "sync"},
                                                              {"host_launch_lag", "launch-lag"},
                                                              {"untraced_bubble", "untraced"},
                                                              {"first_step_prelaunch", "prelaunch"}};
        for (const auto& [type, cause] : causes)
            for (auto& p : planted)
                if (p.type == type) {
                    Options without = o;
                    without.leaveOut = cause;
                    const std::vector<Ns> after = stepServices(without);
                    const auto i = static_cast<std::size_t>(p.step - o.firstStepNumber);
                    if (i < services.size() && i < after.size()) {
                        p.ints.emplace_back("step_service_ns", services[i]);
                        p.ints.emplace_back("step_service_without_ns", after[i]);
                    }
                }
    }
    w.finish();

    nlohmann::ordered_json ex;
    ex["generator"] = "bubblescope-synth";
    ex["seed"] = o.seed;
    ex["profile_dir"] = rankDir.filename().string();
    const ModelShape shape = sim.shape();
    nlohmann::ordered_json model;
    model["layers_per_pass"] = shape.layers.size();
    model["prefill_passes_per_step"] = shape.prefillPasses;
    model["decode_passes_per_step"] = shape.decodePasses;
    model["steps"] = steps;
    model["passes_total"] = (shape.prefillPasses + shape.decodePasses) * steps;
    nlohmann::ordered_json types = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < shape.layers.size();) {
        std::size_t j = i;
        while (j < shape.layers.size() && shape.layers[j] == shape.layers[i])
            ++j;
        std::string t = layerTypeName(shape.layers[i]);
        if (o.sampling && j == shape.layers.size()) {
            // The last layer carries the sampling tail.
            if (j - 1 > i)
                types.push_back({{"type", t}, {"first", i}, {"last", j - 2}, {"count", j - 1 - i}});
            types.push_back(
                {{"type", t + " with sampling"}, {"first", j - 1}, {"last", j - 1}, {"count", 1}});
        } else {
            types.push_back({{"type", t}, {"first", i}, {"last", j - 1}, {"count", j - i}});
        }
        i = j;
    }
    model["layer_types"] = types;
    ex["model"] = model;
    ex["comm_overlap_share"] = std::round(w.commOverlapShare() * 1e6) / 1e6;
    nlohmann::ordered_json an = nlohmann::ordered_json::array();
    for (const auto& p : planted) {
        nlohmann::ordered_json a;
        a["type"] = p.type;
        a["kind"] = p.kind;
        a["expected_label"] = p.label;
        if (p.kind == "bubble") {
            a["step"] = std::to_string(p.step);
            a["scope"] = p.scope;
            if (p.captureBoundary >= 0) a["capture_boundary"] = p.captureBoundary != 0;
            a["start_ns"] = p.windowStart;
            a["end_ns"] = p.windowEnd;
            a["start_us"] = usStr(p.windowStart);
            a["end_us"] = usStr(p.windowEnd);
            a["duration_ms"] = static_cast<double>(p.windowEnd - p.windowStart) / 1e6;
        } else {
            a["op"] = p.op;
        }
        for (const auto& [k, v] : p.ints)
            a[k] = v;
        for (const auto& [k, v] : p.reals)
            a[k] = std::round(v * 1e3) / 1e3;
        for (const auto& [k, v] : p.strings)
            a[k] = v;
        an.push_back(a);
    }
    if (o.variableShapes && steps >= 3)
        an.push_back(
            {{"type", "variable_shapes"},
             {"kind", "group"},
             {"expected_label", "VARIABLE_SHAPE_SAME_TEMPLATE"},
             {"steps", {std::to_string(o.firstStepNumber + 1), std::to_string(o.firstStepNumber + 2)}}});
    ex["anomalies"] = an;
    nlohmann::ordered_json findings = nlohmann::ordered_json::array();
    if (o.compileFirstStep)
        findings.push_back({{"id", "first_step_compile"}, {"step", std::to_string(o.firstStepNumber)}});
    if (o.level0) {
        findings.push_back({{"id", "level0_kernel_details"}});
        findings.push_back({{"id", "no_communication_json"}}); // Level0 exports write none; a note
    }
    std::uint64_t cut = 0;
    if (o.truncateAt > 0 && o.truncateAt < 1) {
        const fs::path tv = out / "trace_view.json";
        const auto size = fs::file_size(tv);
        cut = static_cast<std::uint64_t>(static_cast<double>(size) * o.truncateAt);
        fs::resize_file(tv, cut);
        findings.push_back({{"id", "trace_truncated"}, {"file_bytes", cut}});
    }
    ex["findings"] = findings;
    if (o.ranks > 1) return 0; // the cluster writes one expected.json for all ranks
    const std::string exs = ex.dump(2) + "\n";
    std::FILE* f = std::fopen((fs::path(o.outDir) / "expected.json").c_str(), "wb");
    std::fwrite(exs.data(), 1, exs.size(), f);
    std::fclose(f);
    if (!o.quiet)
        std::fprintf(stderr, "bubblescope-synth: wrote %s (%d steps, trace_view.json %.1f MB%s)\n", rankDir.c_str(),
                     steps, static_cast<double>(w.traceBytes()) / 1048576.0,
                     o.db ? fmt::format(", ascend_pytorch_profiler_0.db {:.1f} MB",
                                        static_cast<double>(fs::file_size(out / "ascend_pytorch_profiler_0.db")) / 1048576.0)
                                .c_str()
                          : "");
    return 0;
}

} // namespace synth

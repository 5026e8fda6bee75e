#pragma once
// bubblescope-synth --db: the SQLite export (export_type=db) of the same generated capture —
// ascend_pytorch_profiler_0.db (STRING_IDS, TASK, COMPUTE_TASK_INFO, COMMUNICATION_OP,
// TASK_PMU_INFO, PYTORCH_API, CANN_API, CONNECTION_IDS, PYTORCH_CALLCHAINS, STEP_TIME,
// OVERLAP_ANALYSIS, …) and analysis.db (StepTraceTime, CommAnalyzerTime, CommAnalyzerBandwidth),
// schema as in the real exports (../shared/spec/FORMATS.md).
#include "synth.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace synth {

class DbWriter {
  public:
    // rank: RANK_DEVICE_MAP's rank and device (0 for a single rank).
    DbWriter(const std::string& profilerDb, const std::string& analysisDb, int rank = 0);
    ~DbWriter();
    DbWriter(const DbWriter&) = delete;
    DbWriter& operator=(const DbWriter&) = delete;

    // In the order the trace emits them, so that string ids follow the trace's first appearances.
    void stepMarker(std::int64_t number, Ns start, Ns dur);
    void hostEvent(const HostEvent& h, std::uint64_t pythonTid);
    // PMU fields as kernel_details names them ("aicore_time(us)", "aic_mac_ratio"…) with their text.
    void kernel(const Kernel& k, const std::vector<std::pair<std::string, std::string>>& pmu);
    void overlap(int type, Ns start, Ns end);
    // step_trace_time.csv's row, µs values in its column order (Computing … Preparing).
    void stepTrace(const std::string& step, const std::vector<double>& values);
    // communication.json's op: key "name@id", times in ms, transit size per transport in MB.
    void commOp(const std::string& step, const std::string& key, double startUs, const std::vector<double>& ms,
                const std::vector<std::pair<std::string, double>>& sizes);
    void finish();
    // Bytes of the profiler database so far.
    std::uint64_t bytes() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace synth

// libFuzzer target: the whole analysis on a small mutated profile. The input is split into a
// kernel_details.csv and a trace_view.json (separated by a NUL byte) in a temp rank folder.
#include "pipeline/analysis_run.h"
#include "io/profile_loader.h"
#include "report/anomaly_report.h"
#include "report/architecture_report.h"
#include "report/json_export.h"
#include "report/text_report.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fs::path out = fs::temp_directory_path() /
                         ("bs_fuzz_rank_" + std::to_string(getpid()) + "_ascend_pt") /
                         "ASCEND_PROFILER_OUTPUT";
    std::error_code ec;
    fs::create_directories(out, ec);
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto cut = text.find('\0');
    auto put = [&](const char* name, const std::string& s) {
        std::FILE* f = std::fopen((out / name).c_str(), "wb");
        if (!f) return;
        std::fwrite(s.data(), 1, s.size(), f);
        std::fclose(f);
    };
    put("kernel_details.csv", text.substr(0, cut));
    put("trace_view.json", cut == std::string::npos ? std::string() : text.substr(cut + 1));
    bs::RankFolder rank{out.parent_path().string(), out.string(), "torch_npu", "fuzz"};
    auto loaded = bs::loadRank(rank);
    auto r = bs::analyzeProfile(*loaded.profile);
    (void)bs::renderJson(*loaded.profile, r);
    (void)bs::renderTextReport(*loaded.profile, r);
    (void)bs::renderAnomalyReport(*loaded.profile, r);
    (void)bs::renderArchitectureReport(*loaded.profile, r);
    return 0;
}

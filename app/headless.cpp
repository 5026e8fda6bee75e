#include "headless.h"

#include "analysis/analysis_run.h"
#include "analysis/rulebook.h"
#include "io/discovery.h"
#include "io/file_buffer.h"
#include "io/profile_loader.h"
#include "report/anomaly_report.h"
#include "report/architecture_report.h"
#include "report/atomic_write.h"
#include "report/json_export.h"
#include "report/text_report.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitNoData = 3;
constexpr int kExitWriteFailed = 4;

void usage(std::FILE* to) {
    std::fputs(
        "Usage: bubblescope analyze PATH [--json FILE] [--report FILE] [--arch FILE|DIR] [--rules FILE] "
        "[--format text|json]\n"
        "  PATH     a profiling folder (*_ascend_pt, ASCEND_PROFILER_OUTPUT, PROF_*,\n"
        "           mindstudio_profiler_output), a parent of several ranks, or a file inside one\n"
        "  --json FILE     write the analysis JSON to FILE (one file per rank when PATH holds several:\n"
        "                  FILE's name gets the rank folder appended)\n"
        "  --report FILE   write the anomaly report (Markdown) to FILE (per rank like --json)\n"
        "  --arch FILE|DIR write the model architecture report (Markdown); given a folder, the file is\n"
        "                  model_architecture_report_<profiling folder name>.md inside it\n"
        "  --rules FILE    override analysis thresholds from a JSON object (see the report's\n"
        "                  \"Thresholds used\" table for the names and defaults)\n"
        "  --format text|json  what to print on standard output (default text)\n"
        "Exit status: 0 ok, 2 usage error, 3 no profiling data / unreadable, 4 output not written.\n",
        to);
}

std::string perRankPath(const std::string& file, const std::string& label, bool several) {
    if (!several) return file;
    std::filesystem::path p(file);
    std::string tag;
    for (char c : label)
        tag += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') ? c : '_';
    return (p.parent_path() / (p.stem().string() + "." + tag + p.extension().string())).string();
}

} // namespace

int runAnalyzeCommand(int argc, char** argv) {
    std::string path, jsonOut, reportOut, archOut, rulesFile, format = "text";
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        auto needValue = [&](const char* opt) -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "bubblescope analyze: %s needs a value.\n", opt);
                return nullptr;
            }
            return argv[++i];
        };
        if (a == "--json") {
            const char* v = needValue("--json");
            if (!v) return usage(stderr), kExitUsage;
            jsonOut = v;
        } else if (a == "--report") {
            const char* v = needValue("--report");
            if (!v) return usage(stderr), kExitUsage;
            reportOut = v;
        } else if (a == "--arch") {
            const char* v = needValue("--arch");
            if (!v) return usage(stderr), kExitUsage;
            archOut = v;
        } else if (a == "--rules") {
            const char* v = needValue("--rules");
            if (!v) return usage(stderr), kExitUsage;
            rulesFile = v;
        } else if (a == "--format") {
            const char* v = needValue("--format");
            if (!v) return usage(stderr), kExitUsage;
            format = v;
            if (format != "text" && format != "json") {
                std::fprintf(stderr, "bubblescope analyze: --format must be text or json, not '%s'.\n", v);
                return kExitUsage;
            }
        } else if (a == "-h" || a == "--help") {
            usage(stdout);
            return kExitOk;
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "bubblescope analyze: unknown option '%s'.\n", a.c_str());
            usage(stderr);
            return kExitUsage;
        } else if (path.empty()) {
            path = a;
        } else {
            std::fprintf(stderr, "bubblescope analyze: only one PATH is accepted ('%s' is extra).\n",
                         a.c_str());
            return kExitUsage;
        }
    }
    if (path.empty()) {
        std::fputs("bubblescope analyze: PATH is missing.\n", stderr);
        usage(stderr);
        return kExitUsage;
    }

    bs::Rulebook rules;
    if (!rulesFile.empty()) {
        bs::FileBuffer fb = bs::readWholeFile(rulesFile, 1 << 20);
        if (!fb.error.empty()) {
            std::fprintf(stderr, "bubblescope analyze: cannot read the rules file: %s\n", fb.error.c_str());
            return kExitUsage;
        }
        auto problems = rules.overrideFromJson(std::string(fb.view()));
        if (!problems.empty()) {
            for (const auto& pr : problems)
                std::fprintf(stderr, "bubblescope analyze: %s: %s\n", rulesFile.c_str(), pr.c_str());
            return kExitUsage;
        }
    }
    bs::DiscoveryResult found = bs::discoverProfiles(path);
    if (found.ranks.empty()) {
        std::fprintf(stderr, "bubblescope: %s\n", found.error.c_str());
        return kExitNoData;
    }
    const bool several = found.ranks.size() > 1;
    if (several) {
        std::fprintf(stderr, "bubblescope: %zu ranks found under %s:\n", found.ranks.size(), path.c_str());
        for (const auto& r : found.ranks)
            std::fprintf(stderr, "  %s\n", r.label.c_str());
    }
    int exitCode = kExitOk;
    std::size_t analysed = 0;
    for (const auto& rank : found.ranks) {
        bs::LoadResult loaded = bs::loadRank(rank);
        if (loaded.tooLarge) {
            std::fprintf(stderr, "bubblescope: %s was not loaded: %s %s\n", rank.root.c_str(),
                         loaded.profile->loadFindings.front().seen.c_str(),
                         loaded.profile->loadFindings.front().fix.c_str());
            continue;
        }
        if (!loaded.hasAnyData) {
            std::fprintf(stderr, "bubblescope: %s\n", bs::noDataMessage(rank, loaded).c_str());
            continue;
        }
        ++analysed;
        bs::AnalysisResult result = bs::analyzeProfile(*loaded.profile, rules);
        const std::string json = bs::renderJson(*loaded.profile, result);
        if (format == "json")
            std::fputs(json.c_str(), stdout);
        else
            std::fputs((bs::renderTextReport(*loaded.profile, result) + (several ? "\n" : "")).c_str(),
                       stdout);
        if (!jsonOut.empty()) {
            const std::string target = perRankPath(jsonOut, rank.label, several);
            std::string err = bs::writeFileAtomically(target, json);
            if (!err.empty()) {
                std::fprintf(stderr, "bubblescope: the JSON was not written: %s\n", err.c_str());
                exitCode = kExitWriteFailed;
            } else {
                std::fprintf(stderr, "bubblescope: wrote %s\n", target.c_str());
            }
        }
        if (!reportOut.empty()) {
            const std::string target = perRankPath(reportOut, rank.label, several);
            std::string err =
                bs::writeFileAtomically(target, bs::renderAnomalyReport(*loaded.profile, result));
            if (!err.empty()) {
                std::fprintf(stderr, "bubblescope: the report was not written: %s\n", err.c_str());
                exitCode = kExitWriteFailed;
            } else {
                std::fprintf(stderr, "bubblescope: wrote %s\n", target.c_str());
            }
        }
        if (!archOut.empty()) {
            std::error_code ec;
            const std::string target =
                std::filesystem::is_directory(archOut, ec)
                    ? (std::filesystem::path(archOut) / bs::defaultArchitectureReportName(*loaded.profile))
                          .string()
                    : perRankPath(archOut, rank.label, several);
            std::string err =
                bs::writeFileAtomically(target, bs::renderArchitectureReport(*loaded.profile, result));
            if (!err.empty()) {
                std::fprintf(stderr, "bubblescope: the architecture report was not written: %s\n",
                             err.c_str());
                exitCode = kExitWriteFailed;
            } else {
                std::fprintf(stderr, "bubblescope: wrote %s\n", target.c_str());
            }
        }
    }
    if (analysed == 0) return kExitNoData;
    return exitCode;
}

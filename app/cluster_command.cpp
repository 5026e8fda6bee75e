#include "cluster_command.h"
#include "cli_common.h"
#include "headless.h"
#include "progress.h"

#include "cluster/cluster_report.h"
#include "cluster/summary_json.h"
#include "i18n/escape.h"
#include "report/output_target.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace bs::cli;

void usage(std::FILE* to) {
    std::fputs(
        "Usage: bubblescope cluster [OPTIONS] [--] SOURCE\n"
        "  SOURCE   a folder of rank summaries (*.summary.json, written by 'bubblescope analyze PARENT\n"
        "           --shard I/N --summary DIR' in a job array): they are merged; or a parent of rank\n"
        "           folders: every rank is analysed here, one after another\n"
        "  --json FILE     write the cluster JSON ({\"cluster\": ...}: the same bytes as\n"
        "                  'bubblescope analyze PARENT --cluster-json FILE')\n"
        "  --report FILE   write the cluster report (Markdown)\n"
        "  --format text|json  what to print on standard output (default text)\n"
        "  --expect PARENT the collection the summaries come from: each of its ranks must have a summary,\n"
        "                  those without one are named (default: the folder the summaries record)\n"
        "  -q, --quiet     no progress and no \"wrote FILE\" lines; errors are still printed\n"
        "  --progress      progress as plain lines on standard error (batch logs)\n"
        ,
        to);
    std::fputs(bs::cli::kLangUsage, to);
    std::fputs(
        "  -h, --help      this help\n"
        "A summary is refused, by name, when it is unreadable, written by another BubbleScope version, holds\n"
        "a value no analysis writes (a negative duration, a reversed capture, a rank id below -1, ...), records\n"
        "another collection, is of a rank the collection does not have, does not overlap the others' capture,\n"
        "or is a second summary of one rank.\n"
        "Exit status: 0 ok, 2 usage error, 3 nothing to merge or compare, 4 output not written,\n"
        "5 merged and written, but a rank has no summary, a summary was refused, or a rank could not be analysed\n"
        "(named in the output),\n"
        "130 interrupted.\n",
        to);
}

struct Options {
    std::string source, json, report, expect, format = "text";
    bool formatGiven = false, quiet = false, progressLines = false;
    bs::Language language = bs::Language::English; // --lang
};

std::optional<int> parseArguments(int argc, char** argv, Options& o) {
    CommandLine line;
    const CommandSpec spec{"bubblescope cluster", {"--json", "--report", "--expect", "--lang"}, {}, {"SOURCE"}, usage};
    if (auto stop = parseCommandLine(argc, argv, spec, line)) return stop;
    o.source = line.operands[0];
    o.format = line.format;
    o.formatGiven = line.formatGiven;
    o.quiet = line.quiet;
    o.progressLines = line.progressLines;
    o.json = line.value("--json");
    o.report = line.value("--report");
    o.expect = line.value("--expect");
    o.language = line.language;
    return std::nullopt;
}

int merge(const Options& o, const std::vector<std::string>& files) {
    if (auto stop = checkClusterOutputs("bubblescope cluster", {{"--json", o.json}, {"--report", o.report}}, {}, files))
        return *stop;
    if (!o.expect.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(o.expect, ec)) {
            std::fprintf(stderr, "bubblescope cluster: --expect %s is not a folder.\n", bs::term(o.expect).c_str());
            return kExitUsage;
        }
    }
    const ProgressMode mode = chooseProgressMode(o.quiet, o.progressLines);
    clearLineOnInterrupt(mode == ProgressMode::Terminal);
    Progress progress(mode, o.quiet);
    progress.note("bubblescope: merging " + std::to_string(files.size()) + " rank summaries from " + bs::term(o.source));
    progress.setRankCount(files.size()); // "comparing N ranks": one summary per rank
    progress.comparingRanks();
    bs::SummaryMergeOptions options;
    options.producer = bs::summaryProducer();
    options.expectParent = o.expect;
    const bs::SummaryMerge m = bs::mergeSummaries(files, options);
    progress.pause();
    for (const auto& f : m.cluster.findings)
        if (f.id == "summary_refused" || f.id == "summary_missing" || f.id == "summary_collection_unreachable" ||
            f.id == "summary_collection_unknown")
            progress.error("bubblescope: " + bs::term(f.message));
    if (m.merged == 0) {
        progress.error("bubblescope: no summary of " + bs::term(o.source) + " could be merged.");
        return kExitNoData;
    }
    int code = kExitOk;
    const std::string document = bs::renderClusterDocument(m.cluster);
    if (!o.json.empty() && !writeOneOutput(bs::resolveOutputTarget(o.json), "the cluster JSON", document, progress))
        code = kExitWriteFailed;
    if (!o.report.empty() && !writeOneOutput(bs::resolveOutputTarget(o.report), "the cluster report",
                                             bs::renderClusterMarkdown(m.cluster), progress))
        code = kExitWriteFailed;
    StandardOutput out;
    progress.aside([&] { out.put(o.format == "json" ? document : bs::renderClusterText(m.cluster)); });
    progress.finish();
    if (const int e = out.finish(); e != 0) {
        progress.error(std::string("bubblescope: cannot write to standard output: ") + std::strerror(e));
        code = kExitWriteFailed;
    }
    const bool rankFailed = std::any_of(m.cluster.ranks.begin(), m.cluster.ranks.end(),
                                        [](const bs::RankSummary& r) { return !r.error.empty(); });
    if (code == kExitOk && (!m.missing.empty() || !m.refused.empty() || rankFailed)) code = kExitIncomplete;
    return code;
}

} // namespace

int runClusterCommand(int argc, char** argv) {
    installInterruptHandler(false);
    Options o;
    if (auto stop = parseArguments(argc, argv, o)) return *stop;
    const bs::ScopedLanguage language(o.language); // the outputs and the errors from core in --lang
    std::error_code ec;
    const std::vector<std::string> files =
        std::filesystem::is_directory(o.source, ec) ? bs::summaryFilesIn(o.source) : std::vector<std::string>{};
    if (!files.empty()) return merge(o, files);
    if (!o.expect.empty()) {
        std::fprintf(stderr, "bubblescope cluster: %s holds no rank summary (*%s); --expect applies to a folder of "
                             "summaries.\n", bs::term(o.source).c_str(), bs::kSummarySuffix);
        return kExitUsage;
    }
    ClusterOfRanks request;
    request.path = o.source;
    request.json = o.json;
    request.report = o.report;
    request.format = o.format;
    request.formatGiven = o.formatGiven;
    request.quiet = o.quiet;
    request.progressLines = o.progressLines;
    request.language = o.language;
    return runClusterOfRanks(request);
}

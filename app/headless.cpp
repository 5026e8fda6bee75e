#include "headless.h"
#include "cli_common.h"
#include "progress.h"

#include "pipeline/analysis_run.h"
#include "analysis/rulebook.h"
#include "cluster/cluster_analysis.h"
#include "cluster/cluster_report.h"
#include "cluster/summary_json.h"
#include "compare/compare.h"
#include "gate/gate.h"
#include "io/discovery.h"
#include "io/file_buffer.h"
#include "io/profile_loader.h"
#include "report/anomaly_report.h"
#include "report/architecture_report.h"
#include "i18n/escape.h"
#include "report/json_export.h"
#include "report/output_plan.h"
#include "report/output_target.h"
#include "report/ranks_json.h"
#include "report/text_report.h"

#include <cerrno>
#include <cstdio>
#include <new>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using bs::cli::kExitNoData;
using bs::cli::kExitOk;
using bs::cli::kExitUsage;
using bs::cli::kExitWriteFailed;

void usage(std::FILE* to) {
    std::fputs(
        "Usage: bubblescope analyze [OPTIONS] [--] PATH\n"
        "  PATH     a profiling folder (*_ascend_pt, ASCEND_PROFILER_OUTPUT, PROF_*,\n"
        "           mindstudio_profiler_output), a parent of several ranks, or a file inside one\n"
        "  --json FILE     write the analysis JSON to FILE\n"
        "  --report FILE   write the anomaly report (Markdown) to FILE\n"
        "  --arch FILE|DIR write the model architecture report (Markdown); given a folder, the file is\n"
        "                  model_architecture_report_<rank folder name>.md inside it\n"
        "  --rules FILE    override analysis thresholds from a JSON object (see the report's\n"
        "                  \"Thresholds used\" table for the names and defaults)\n"
        "  --format text|json  what to print on standard output (default text)\n"
        "  --cluster-json FILE, --cluster-report FILE  several ranks: the cluster comparison (JSON,\n"
        "                  Markdown)\n"
        "  --source db|text    which export to read when a folder holds both the text files and the\n"
        "                  SQLite export (.db); default: text when present, else the .db\n"
        "  --summary FILE|DIR  write each rank's summary (the input of 'bubblescope cluster'); for several\n"
        "                  ranks or with --shard, DIR gets one <rank>.summary.json per rank; with it, nothing\n"
        "                  is printed on standard output unless --format is given\n"
        "  --shard I/N     only the ranks I, I+N, I+2N, ... (from 0, in the order of --list-ranks): one task\n"
        "                  of a job array (Slurm, Kubernetes); the ranks are not compared (the merge does it)\n"
        "  --list-ranks    print the ranks found under PATH, one per line, and stop\n"
        "  --all-steps     the text output prints a row per step (and per step and figure for the\n"
        "                  cross-check) also for a capture of more than 50 steps, which is otherwise\n"
        "                  summarised per step group (P50 / P90 / P95)\n"
        "  -q, --quiet     print no progress, no \"wrote FILE\" lines and no list of the ranks found;\n"
        "                  errors are still printed\n"
        "  --progress      progress as plain lines on standard error (a line per phase, per 10 % of a\n"
        "                  file read, per rank), also when it is not a terminal (batch logs); on a\n"
        "                  terminal, one progress line is redrawn in place without this option\n"
        ,
        to);
    std::fputs(bs::cli::gateUsage(bs::GateCommand::Analyze).c_str(), to);
    std::fputs(bs::cli::kLangUsage, to);
    std::fputs(
        "  -h, --help      this help\n"
        "  --               end of options (for a PATH that starts with '-')\n"
        "What the outputs hold:\n"
        "  text (standard output): files found, health findings with their fix, per-step bubble table,\n"
        "    communication per step, the profiler cross-check, top bubble windows, the verdict, five answers\n"
        "  --json: the anomaly_discovery JSON (its schema is installed as\n"
        "    /usr/share/doc/bubblescope/anomaly_discovery.schema.json) plus steps, collectives, inventory,\n"
        "    data_quality, op_rankings, aicpu_ops, recommendations, profiler_crosscheck, structures,\n"
        "    architecture and rules; --format json prints the same document\n"
        "  --report: the anomaly report (Markdown); --arch: layers, passes and streams (Markdown)\n"
        "  --cluster-json / --cluster-report: slow ranks and their evidence, the step x rank table, the\n"
        "    collectives with the longest wait (JSON / Markdown)\n"
        "  See man bubblescope.\n"
        "Outputs: a regular file is replaced atomically and keeps its permissions; a character device, a\n"
        "FIFO, /dev/stdout or '-' (standard output) is written straight, and then nothing else is printed\n"
        "on standard output. A file of the profile being analysed is refused, as is one output named twice.\n"
        "Several ranks: each file gets the rank's name before its extension (out.json →\n"
        "out.level0_rank0_ascend_pt.json; --arch DIR: model_architecture_report_<rank>.md), made unique;\n"
        "a stream receives every rank in turn; --format json prints one document\n"
        "{\"ranks\": [{\"label\", \"folder\", \"analysis\" | \"error\"}, …], \"cluster\": {…}}.\n"
        "  The ranks are also compared (slow ranks, collectives, step x rank table): the text output ends\n"
        "  with a Cluster section, the one JSON document has \"cluster\", a shared report stream ends with it;\n"
        "  --cluster-json FILE writes {\"cluster\": {…}} and --cluster-report FILE its Markdown.\n"
        "Exit status: 0 ok, 2 usage error, 3 no profiling data / unreadable, 4 output not written,\n"
        "5 several ranks: the outputs were written, but a rank could not be analysed (named on standard error),\n"
        "6 a --fail-if gate failed (or could not be measured; the outputs were written),\n"
        "130 interrupted (Ctrl+C, SIGTERM; no output is left half written).\n"
        "Several ranks and --fail-if: a per-step gate is measured on each rank (one result per rank),\n"
        "slow_ranks and cost_ms on the cluster.\n",
        to);
}

struct Options {
    std::string path, rulesFile, format = "text";
    std::string summary;              // --summary FILE|DIR (empty: not asked for)
    std::size_t shardIndex = 0, shardCount = 0; // --shard I/N (count 0: no sharding)
    bool listRanks = false;           // --list-ranks
    bool allSteps = false;            // --all-steps
    bool clusterOnly = false;         // `bubblescope cluster PARENT`: only the cluster is printed
    std::string clusterJson, clusterReport; // --cluster-json / --cluster-report (empty: not asked for)
    bs::DataSource source = bs::DataSource::Auto;
    bool formatGiven = false;
    bool quiet = false, progressLines = false; // --quiet, --progress
    std::vector<bs::OutputRequest> outputs; // in the order --json, --report, --arch
    bs::Language language = bs::Language::English; // --lang
    std::vector<bs::GateExpr> gates;   // --fail-if
    std::string junit;                 // --junit FILE (empty: not asked for)
};

enum Output { kJson, kReport, kArch };

// Reads argv into `o`; returns an exit code when the command must stop here.
std::optional<int> parseArguments(int argc, char** argv, Options& o) {
    bs::cli::CommandLine line;
    const bs::cli::CommandSpec spec{"bubblescope analyze",
                                    {"--json", "--report", "--arch", "--rules", "--source", "--cluster-json",
                                     "--cluster-report", "--summary", "--shard", "--lang", "--junit"},
                                    {"--list-ranks", "--all-steps"},
                                    {"PATH"},
                                    usage,
                                    {"--fail-if"}};
    if (auto stop = bs::cli::parseCommandLine(argc, argv, spec, line)) return stop;
    o.path = line.operands[0];
    o.format = line.format;
    o.formatGiven = line.formatGiven;
    o.quiet = line.quiet;
    o.progressLines = line.progressLines;
    o.listRanks = line.has("--list-ranks");
    o.allSteps = line.has("--all-steps");
    o.language = line.language;
    std::map<std::string, std::optional<std::string>> values;
    for (const auto& [k, v] : line.values)
        values[k] = v;
    if (auto stop = bs::cli::parseSourceOption("bubblescope analyze", values["--source"].value_or(""), o.source)) return stop;
    if (values["--shard"]) {
        const std::string& v = *values["--shard"];
        unsigned long long i = 0, n = 0;
        int used = 0;
        if (std::sscanf(v.c_str(), "%llu/%llu%n", &i, &n, &used) != 2 || static_cast<std::size_t>(used) != v.size() ||
            v[0] == '-' || v.find('/') + 1 >= v.size() || v[v.find('/') + 1] == '-' || n == 0 || i >= n) {
            std::fprintf(stderr, "bubblescope analyze: --shard wants I/N with 0 <= I < N (e.g. 3/16), not '%s'.\n",
                         bs::term(v).c_str());
            return kExitUsage;
        }
        o.shardIndex = static_cast<std::size_t>(i);
        o.shardCount = static_cast<std::size_t>(n);
    }
    if (auto stop = bs::cli::parseGateOptions("bubblescope analyze", line.lists["--fail-if"], bs::GateCommand::Analyze,
                                              o.gates))
        return stop;
    o.junit = values["--junit"].value_or("");
    if (!o.junit.empty() && o.gates.empty()) {
        std::fputs("bubblescope analyze: --junit writes the gates as JUnit XML; give at least one --fail-if EXPR.\n",
                   stderr);
        return kExitUsage;
    }
    o.summary = values["--summary"].value_or("");
    o.rulesFile = values["--rules"].value_or("");
    o.clusterJson = values["--cluster-json"].value_or("");
    o.clusterReport = values["--cluster-report"].value_or("");
    // Always three requests (an empty one is not written), so kJson/kReport/kArch index them.
    o.outputs = {{"--json", "the JSON", values["--json"].value_or(""), false},
                 {"--report", "the report", values["--report"].value_or(""), false},
                 {"--arch", "the architecture report", values["--arch"].value_or(""), true}};
    return std::nullopt;
}

using bs::cli::StandardOutput;

// The last rank's model is not freed: the process ends next, and the kernel takes its pages back at once,
// whereas freeing it object by object took 0.08-0.15 s at 1 GB of trace (compilers skip the same work:
// clang's -disable-free). Reachable from this pointer until the exit, so leak checkers do not count it.
struct KeptUntilExit {
    bs::LoadResult loaded;
    bs::AnalysisResult result;
    bs::JsonPieces json;
};
KeptUntilExit* gKeptUntilExit = nullptr;

void keepUntilExit(bs::LoadResult loaded, bs::AnalysisResult result, bs::JsonPieces json) {
    delete gKeptUntilExit; // only one is kept (a second call would come from a second run in one process)
    gKeptUntilExit = new KeptUntilExit{std::move(loaded), std::move(result), std::move(json)};
}

// What one run produces besides the per-rank files: the streams shared by several ranks and the
// combined JSON document.
struct SharedOutputs {
    std::map<std::size_t, std::string> markdown; // output index → reports one after another
    std::vector<bs::RankJson> ranksJson;         // for a shared --json stream and --format json
};

class AnalyzeRun {
  public:
    // `summaryDir`: where --summary puts one file per rank (empty: o.summary is the file, or none).
    // `collection`: the folder the ranks were found under, recorded in each summary ("" for one rank alone).
    AnalyzeRun(const Options& o, const std::vector<bs::RankFolder>& ranks, const bs::OutputPlan& plan,
               const bs::Rulebook& rules, bs::cli::Progress& progress, std::string summaryDir, std::string collection)
        : o_(o), ranks_(ranks), plan_(plan), rules_(rules), several_(ranks.size() > 1),
          printing_(!plan.usesStandardOutput), printRanks_(printing_ && !o.clusterOnly && (o.summary.empty() || o.formatGiven)),
          progress_(progress), summaryDir_(std::move(summaryDir)), collection_(std::move(collection)) {}

    int run() {
        std::size_t analysed = 0;
        progress_.setRankCount(ranks_.size());
        for (std::size_t r = 0; r < ranks_.size(); ++r) {
            progress_.startRank(r, ranks_[r].label);
            analysed += analyseRank(r) ? 1 : 0;
            if (several_) bs::releaseFreedMemory();
            progress_.rankDone();
        }
        if (analysed == 0) return exitCode_ == kExitOk ? kExitNoData : exitCode_;
        if (summaries_.size() >= 2) progress_.comparingRanks();
        compareRanks();
        clusterGates(); // before the shared outputs: a --json stream of several ranks carries every gate
        writeSharedOutputs();
        if (printRanks_ && o_.format == "json" && several_) print(ranksDocument());
        if (printing_ && o_.clusterOnly && o_.format == "json" && clusterRan_) print(bs::renderClusterDocument(cluster_));
        if (printing_ && (printRanks_ || o_.clusterOnly) && o_.format == "text" && clusterRan_)
            print(bs::renderClusterText(cluster_));
        finishGates();
        progress_.finish();
        if (const int e = out_.finish(); e != 0) {
            progress_.error(std::string("bubblescope: cannot write to standard output: ") + std::strerror(e));
            exitCode_ = kExitWriteFailed;
        }
        // Several ranks, some not analysed (each named above): the outputs hold the others, but a script
        // must not take them for the whole collection.
        if (exitCode_ == kExitOk && failedRanks_ > 0) exitCode_ = bs::cli::kExitIncomplete;
        // Every output written, the capture did not pass a gate.
        if (exitCode_ == kExitOk && bs::anyGateFailed(gates_)) exitCode_ = bs::cli::kExitGateFailed;
        return exitCode_;
    }

  private:
    bool wantsJson() const { return !o_.outputs[kJson].given.empty() || (printRanks_ && o_.format == "json"); }
    // The combined document is needed for --format json or a --json stream over several ranks.
    bool keepsRanksJson() const {
        if (!several_) return false;
        if (printRanks_ && o_.format == "json") return true;
        const std::size_t o = plan_.forRank.empty() ? bs::OutputPlan::kNone : plan_.forRank[0][kJson];
        return o != bs::OutputPlan::kNone && plan_.outputs[o].shared;
    }

    void print(const std::string& text) {
        progress_.aside([&] { out_.put(text); });
    }

    bool analyseRank(std::size_t r) {
        const bs::RankFolder& rank = ranks_[r];
        bs::LoadControl control;
        control.source = o_.source;
        control.cancel = &bs::cli::cancelFlag();
        control.progress = [this](const std::string& stage, std::uint64_t done, std::uint64_t total) {
            progress_.loaded(stage, done, total);
        };
        bs::LoadResult loaded = bs::loadRank(rank, control);
        if (loaded.cancelled) bs::cli::exitInterrupted();
        std::string failure;
        if (loaded.tooLarge)
            failure = rank.root + " was not loaded: " + loaded.profile->loadFindings.front().seen + " " +
                      loaded.profile->loadFindings.front().fix;
        else if (!loaded.hasAnyData)
            failure = bs::noDataMessage(rank, loaded);
        if (!failure.empty()) {
            progress_.error("bubblescope: " + bs::term(failure));
            noteFailure(r, failure);
            return false;
        }
        const bs::Profile& profile = *loaded.profile;
        bs::AnalysisResult result;
        bs::JsonPieces json; // written piece by piece: a large export is not joined into one string
        progress_.analysing();
        try {
            result = bs::analyzeProfile(profile, rules_);
            if (wantsJson()) json = bs::renderJsonPieces(profile, result);
            if (!o_.gates.empty()) {
                const auto measured = bs::evaluateAnalysisGates(o_.gates, result, several_ ? rank.label : std::string());
                gates_.insert(gates_.end(), measured.begin(), measured.end());
                if (wantsJson()) addGates(json, measured);
            }
        } catch (const std::bad_alloc&) {
            // One rank that does not fit never takes the others down with it.
            failure = rank.root + " was not analysed: memory ran out during the analysis. Free memory or raise "
                                  "the process's memory limit, or profile fewer steps.";
            progress_.error("bubblescope: " + bs::term(failure));
            noteFailure(r, failure);
            return false;
        }
        if (bs::isRankFolder(rank) && (comparing() || !o_.summary.empty())) {
            bs::RankSummary summary = bs::summarizeRank(rank, profile, result);
            // A written summary also stores the rank as compare needs it: a stored baseline.
            writeSummary(summary, o_.summary.empty() ? std::string()
                                                     : bs::renderCompareDigestJson(bs::digestForCompare(
                                                           profile, result, rank.label, rank.root, summary.rankId)));
            if (comparing()) summaries_.add(std::move(summary));
        }
        if (keepsRanksJson()) shared_.ranksJson.push_back({rank.label, rank.root, json.joined(), {}});
        if (printRanks_) {
            if (o_.format == "json" && !several_)
                print(json.joined());
            else if (o_.format == "text")
                print(bs::renderTextReport(profile, result, o_.allSteps) + (several_ ? "\n" : ""));
        }
        if (const std::size_t o = plan_.forRank[r][kJson]; o != bs::OutputPlan::kNone && !plan_.outputs[o].shared) {
            writeTarget(plan_.outputs[o].target, o_.outputs[plan_.outputs[o].request].what, json.views());
        }
        emit(r, kReport, [&] { return bs::renderAnomalyReport(profile, result); });
        emit(r, kArch, [&] { return bs::renderArchitectureReport(profile, result); });
        if (r + 1 == ranks_.size()) keepUntilExit(std::move(loaded), std::move(result), std::move(json));
        return true;
    }

    // The ranks are compared here unless this is one shard of a job array (the merge compares them).
    bool comparing() const { return several_ && o_.shardCount == 0; }

    // --summary: the rank's summary file, written whole or not at all.
    void writeSummary(const bs::RankSummary& summary, const std::string& compareDigest = {}) {
        if (o_.summary.empty()) return;
        const std::string file =
            summaryDir_.empty() ? o_.summary : (std::filesystem::path(summaryDir_) / bs::summaryFileName(summary.label)).string();
        if (!bs::cli::writeOneOutput(bs::resolveOutputTarget(file), "the summary of " + summary.label,
                                     bs::renderRankSummaryJson(summary, bs::summaryProducer(), collection_, compareDigest),
                                     progress_))
            exitCode_ = kExitWriteFailed;
    }

    // The rank's gates as the last member of its JSON document (pieces: the last one is cut before its '}').
    static void addGates(bs::JsonPieces& json, const std::vector<bs::GateResult>& measured) {
        // The last part holding the closing '}' (a newline part follows it).
        for (std::size_t k = json.parts.size(); k-- > 0;) {
            bs::JsonPieces::Part& part = json.parts[k];
            const std::string_view view = std::string_view(json.texts[part.text]).substr(part.from, part.size);
            const std::size_t close = view.find_last_of('}');
            if (close == std::string_view::npos) continue;
            std::size_t cut = close; // the member follows the last value, not its line break
            while (cut > 0 && (view[cut - 1] == '\n' || view[cut - 1] == ' '))
                --cut;
            std::string rest =
                ",\n  \"gates\": " + bs::renderGatesJsonArray(measured) + "\n" + std::string(view.substr(close));
            part.size = cut;
            json.texts.push_back(std::move(rest));
            json.parts.insert(json.parts.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                              {json.texts.size() - 1, 0, json.texts.back().size()});
            return;
        }
    }

    // Several ranks: the combined document, with every gate when there are gates.
    std::string ranksDocument() const {
        const std::string doc = bs::renderRanksJson(shared_.ranksJson, clusterJson_);
        return o_.gates.empty() ? doc : bs::withGatesMember(doc, gates_);
    }

    // slow_ranks / cost_ms: measured on the cluster (unmeasured when the ranks were not compared).
    void clusterGates() {
        const auto measured = bs::evaluateClusterGates(o_.gates, clusterRan_ ? &cluster_ : nullptr);
        gates_.insert(gates_.end(), measured.begin(), measured.end());
    }

    // The Gates section ends the text output; --junit is written.
    void finishGates() {
        if (o_.gates.empty()) return;
        if (printing_ && o_.format == "text") print("\n" + bs::renderGatesText(gates_));
        if (!o_.junit.empty())
            writeTarget(bs::resolveOutputTarget(o_.junit), "the JUnit XML",
                        {bs::renderGatesJUnit(gates_, "bubblescope analyze")});
    }

    void noteFailure(std::size_t r, const std::string& failure) {
        for (const auto& g : o_.gates)
            if (g.metric != "slow_ranks" && g.metric != "cost_ms")
                gates_.push_back(bs::unmeasuredGate(g, ranks_[r].label, failure));
        if (bs::isRankFolder(ranks_[r])) ++failedRanks_;
        if (bs::isRankFolder(ranks_[r]) && !o_.summary.empty()) writeSummary(bs::failedRank(ranks_[r], failure));
        if (!several_) return;
        if (comparing() && bs::isRankFolder(ranks_[r])) summaries_.add(bs::failedRank(ranks_[r], failure));
        if (keepsRanksJson()) shared_.ranksJson.push_back({ranks_[r].label, ranks_[r].root, {}, failure});
        for (Output q : {kReport, kArch}) {
            const std::size_t o = plan_.forRank[r][q];
            if (o != bs::OutputPlan::kNone && plan_.outputs[o].shared)
                appendMarkdown(o, "# " + bs::mdText(ranks_[r].label) + "\n\nNot analysed: " + bs::mdText(failure) + "\n");
        }
    }

    void appendMarkdown(std::size_t o, const std::string& text) {
        std::string& m = shared_.markdown[o];
        m += (m.empty() ? "" : "\n") + text;
    }

    // Per-rank files are written now; a stream shared by several ranks collects its part.
    template <class Render> void emit(std::size_t r, Output q, Render render) {
        const std::size_t o = plan_.forRank[r][q];
        if (o == bs::OutputPlan::kNone) return;
        if (!plan_.outputs[o].shared) {
            write(o, render());
        } else if (q != kJson) {
            appendMarkdown(o, render());
        }
    }

    // Several ranks of one collection: compare their summaries (each rank's model is already freed).
    void compareRanks() {
        if (!comparing() || summaries_.size() < 2) return;
        std::error_code ec;
        std::filesystem::path parent(o_.path);
        if (!std::filesystem::is_directory(parent, ec)) parent = parent.parent_path();
        cluster_ = summaries_.finish(parent.string());
        clusterRan_ = true;
        clusterJson_ = bs::renderClusterJson(cluster_);
        const std::string markdown = bs::renderClusterMarkdown(cluster_);
        // A shared report stream gets the cluster last; --cluster-json / --cluster-report get their own file.
        const std::size_t o = plan_.forRank.empty() ? bs::OutputPlan::kNone : plan_.forRank[0][kReport];
        if (o != bs::OutputPlan::kNone && plan_.outputs[o].shared) appendMarkdown(o, markdown);
        writeCluster(o_.clusterJson, "the cluster JSON", bs::renderClusterDocument(cluster_));
        writeCluster(o_.clusterReport, "the cluster report", markdown);
    }

    void writeCluster(const std::string& given, const char* what, const std::string& content) {
        if (given.empty()) return;
        writeTarget(bs::resolveOutputTarget(given), what, {content});
    }

    // One output: a file is written whole or not at all, also when Ctrl+C comes (see progress.h).
    void writeTarget(const bs::OutputTarget& target, const std::string& what, const std::vector<std::string_view>& pieces) {
        if (!bs::cli::writeOneOutput(target, what, pieces, progress_)) exitCode_ = kExitWriteFailed;
    }

    void writeSharedOutputs() {
        for (std::size_t o = 0; o < plan_.outputs.size(); ++o) {
            if (!plan_.outputs[o].shared) continue;
            write(o, plan_.outputs[o].request == kJson ? ranksDocument() : shared_.markdown[o]);
        }
    }

    void write(std::size_t o, const std::string& content) {
        const bs::PlannedOutput& out = plan_.outputs[o];
        writeTarget(out.target, o_.outputs[out.request].what, {content});
    }

    const Options& o_;
    const std::vector<bs::RankFolder>& ranks_;
    const bs::OutputPlan& plan_;
    const bs::Rulebook& rules_;
    const bool several_;
    const bool printing_; // false when an output is standard output itself
    const bool printRanks_; // each rank's text / JSON on standard output (not with --summary alone, not for cluster)
    bs::cli::Progress& progress_;
    const std::string summaryDir_, collection_;
    StandardOutput out_;
    SharedOutputs shared_;
    bs::ClusterBuilder summaries_; // one summary per rank folder, kept after its model is freed
    bs::ClusterResult cluster_;
    bool clusterRan_ = false;
    std::string clusterJson_; // empty unless several ranks were compared
    int exitCode_ = kExitOk;
    std::vector<bs::GateResult> gates_; // every gate measured so far, in rank order, the cluster's last
    std::size_t failedRanks_ = 0; // rank folders not analysed (a loose folder beside them is not a rank)
};

} // namespace

namespace {

// Discovery onwards, for `analyze` and for `cluster PARENT` (o.clusterOnly). `command` prefixes usage errors.
int runAnalysis(const Options& o, const bs::Rulebook& rules, const char* command) {
    const bs::cli::ProgressMode mode = bs::cli::chooseProgressMode(o.quiet, o.progressLines);
    bs::cli::clearLineOnInterrupt(mode == bs::cli::ProgressMode::Terminal);
    bs::cli::Progress progress(mode, o.quiet);
    progress.discovering(bs::term(o.path));
    const bs::DiscoveryResult found = bs::discoverProfiles(o.path);
    progress.pause(); // the checks below print their errors on a clean line
    if (found.ranks.empty()) {
        std::fprintf(stderr, "bubblescope: %s\n", bs::term(found.error).c_str());
        return kExitNoData;
    }
    // The ranks in the order --shard numbers them (the profiler's cluster_analysis_output is not a rank).
    std::vector<bs::RankFolder> rankFolders;
    for (const auto& r : found.ranks)
        if (bs::isRankFolder(r)) rankFolders.push_back(r);
    std::vector<bs::RankFolder> ranks = found.ranks;
    if (o.shardCount > 0) {
        ranks.clear();
        for (std::size_t k = o.shardIndex; k < rankFolders.size(); k += o.shardCount)
            ranks.push_back(rankFolders[k]);
        if (ranks.empty()) {
            std::fprintf(stderr, "bubblescope: shard %zu/%zu holds no rank: %s has %zu rank%s.\n", o.shardIndex,
                         o.shardCount, bs::term(o.path).c_str(), rankFolders.size(), rankFolders.size() == 1 ? "" : "s");
            return kExitNoData;
        }
    }
    if (o.listRanks) {
        StandardOutput out;
        for (const auto& r : o.shardCount > 0 ? ranks : rankFolders)
            out.put(r.label + "\n");
        if (const int e = out.finish(); e != 0) {
            std::fprintf(stderr, "%s: cannot write the rank list to standard output: %s\n", command, std::strerror(e));
            return kExitWriteFailed;
        }
        if (rankFolders.empty())
            std::fprintf(stderr, "%s: %s holds no rank folder (only loose profile files).\n", command,
                         bs::term(o.path).c_str());
        return rankFolders.empty() ? kExitNoData : kExitOk;
    }
    if (o.clusterOnly && rankFolders.size() < 2) {
        std::fprintf(stderr, "%s: %s holds %zu rank folder%s: there is nothing to compare (bubblescope analyze PATH "
                             "analyses one rank).\n", command, bs::term(o.path).c_str(), rankFolders.size(),
                     rankFolders.size() == 1 ? "" : "s");
        return kExitNoData;
    }
    bs::OutputPlan plan = bs::planOutputs(o.outputs, ranks);
    if (!plan.error.empty()) {
        std::fprintf(stderr, "%s\n", bs::term(plan.error).c_str());
        return plan.usageError ? kExitUsage : kExitWriteFailed;
    }
    if (plan.usesStandardOutput && o.formatGiven) {
        std::fprintf(stderr,
                     "%s: --format prints on standard output, which an output (-, /dev/stdout) already uses; drop one "
                     "of them.\n", command);
        return kExitUsage;
    }
    std::vector<std::string> seen;
    for (const auto& out : plan.outputs)
        seen.push_back(out.target.identity());
    const char* jsonOption = o.clusterOnly ? "--json" : "--cluster-json";
    const char* reportOption = o.clusterOnly ? "--report" : "--cluster-report";
    if (auto stop = bs::cli::checkClusterOutputs(
            command, {{jsonOption, o.clusterJson}, {reportOption, o.clusterReport}, {"--junit", o.junit}}, seen))
        return *stop;
    for (const auto& g : o.gates)
        if ((g.metric == "slow_ranks" || g.metric == "cost_ms") && (rankFolders.size() < 2 || o.shardCount > 0)) {
            std::fprintf(stderr, "%s: --fail-if %s is measured on the cluster: give a parent of several ranks%s.\n",
                         command, bs::term(g.text).c_str(), o.shardCount > 0 ? " without --shard" : "");
            return kExitUsage;
        }
    // --summary: a folder (one file per rank) for several ranks, a shard, or a folder given; else the file.
    std::string summaryDir, collection;
    std::error_code ec;
    std::filesystem::path parent(o.path);
    if (!std::filesystem::is_directory(parent, ec)) parent = parent.parent_path();
    if (rankFolders.size() > 1 || o.shardCount > 0) collection = parent.string();
    if (!o.summary.empty()) {
        const bs::OutputTarget t = bs::resolveOutputTarget(o.summary);
        const bool dir = ranks.size() > 1 || o.shardCount > 0 || std::filesystem::is_directory(o.summary, ec) ||
                         o.summary.back() == '/';
        if (t.kind == bs::OutputTarget::Kind::Descriptor) {
            std::fprintf(stderr, "%s: --summary writes a file (or a folder of them), not a stream.\n", command);
            return kExitUsage;
        }
        if (dir) {
            std::filesystem::create_directories(o.summary, ec);
            if (!std::filesystem::is_directory(o.summary, ec)) {
                std::fprintf(stderr, "bubblescope: --summary %s: cannot make that folder%s%s.\n", bs::term(o.summary).c_str(),
                             ec ? ": " : "", ec ? ec.message().c_str() : " (a file of that name exists)");
                return kExitWriteFailed;
            }
            summaryDir = o.summary;
        } else if (t.kind == bs::OutputTarget::Kind::Refused) {
            std::fprintf(stderr, "%s: --summary %s %s.\n", command, bs::term(o.summary).c_str(), t.refusal.c_str());
            return kExitUsage;
        }
    }
    if (ranks.size() > 1) {
        std::string list = "bubblescope: " + std::to_string(ranks.size()) + " ranks " +
                           (o.shardCount > 0 ? "in shard " + std::to_string(o.shardIndex) + "/" + std::to_string(o.shardCount) + " of "
                                             : std::string("found under ")) +
                           bs::term(o.path) + ":";
        for (const auto& r : ranks)
            list += "\n  " + bs::term(r.label);
        progress.note(list);
    }
    return AnalyzeRun(o, ranks, plan, rules, progress, summaryDir, collection).run();
}

} // namespace

int runAnalyzeCommand(int argc, char** argv) {
    bs::cli::installInterruptHandler(false);
    Options o;
    if (auto stop = parseArguments(argc, argv, o)) return *stop;
    // Everything this command writes (reports, text, JSON, the errors from core) in the --lang language; the
    // outputs are rendered on this thread.
    const bs::ScopedLanguage language(o.language);
    if (o.shardCount > 0 && (!o.clusterJson.empty() || !o.clusterReport.empty())) {
        std::fputs("bubblescope analyze: the ranks of one shard are not compared; merge the summaries with "
                   "'bubblescope cluster DIR' for the cluster outputs.\n", stderr);
        return kExitUsage;
    }
    bs::Rulebook rules;
    if (auto stop = bs::cli::loadRulesFile("bubblescope analyze", o.rulesFile, rules)) return *stop;
    return runAnalysis(o, rules, "bubblescope analyze");
}

int runClusterOfRanks(const ClusterOfRanks& request) {
    bs::cli::installInterruptHandler(false);
    Options o;
    o.path = request.path;
    o.clusterOnly = true;
    o.clusterJson = request.json;
    o.clusterReport = request.report;
    o.format = request.format;
    o.formatGiven = request.formatGiven;
    o.quiet = request.quiet;
    o.progressLines = request.progressLines;
    o.language = request.language;
    const bs::ScopedLanguage language(o.language);
    o.outputs = {{"--json", "the JSON", "", false}, {"--report", "the report", "", false},
                 {"--arch", "the architecture report", "", true}};
    bs::Rulebook rules;
    return runAnalysis(o, rules, "bubblescope cluster");
}

#include "compare_command.h"
#include "cli_common.h"
#include "progress.h"

#include "pipeline/analysis_run.h"
#include "analysis/rulebook.h"
#include "cluster/cluster_analysis.h"
#include "compare/compare.h"
#include "compare/compare_report.h"
#include "gate/gate.h"
#include "io/discovery.h"
#include "io/file_buffer.h"
#include "io/profile_loader.h"
#include "i18n/escape.h"
#include "report/output_plan.h"
#include "report/output_target.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <new>
#include <sys/stat.h>
#include <optional>
#include <string>
#include <vector>

namespace {

using bs::cli::kExitNoData;
using bs::cli::kExitOk;
using bs::cli::kExitUsage;
using bs::cli::kExitWriteFailed;
constexpr const char* kCmd = "bubblescope compare";

void usage(std::FILE* to) {
    std::fputs(
        "Usage: bubblescope compare [OPTIONS] [--] BASE NEW\n"
        "  BASE, NEW  two profiling folders (before and after a change): rank folders (*_ascend_pt, PROF_*,\n"
        "           their output folders, a file inside one) or two parents of several ranks, compared rank by\n"
        "           rank (matched by rank id, else by folder name). BASE may also be a stored rank summary\n"
        "           (bubblescope analyze RANK --summary baseline.summary.json), compared with one rank as NEW;\n"
        "           a summary holds no layers, so layers are then not compared\n"
        "  --json FILE     write {\"comparison\": …} to FILE\n"
        "  --report FILE   write the before/after report (Markdown) to FILE\n"
        "  --format text|json  what to print on standard output (default text)\n"
        "  --rules FILE    analysis thresholds for both sides (as bubblescope analyze --rules)\n"
        "  --source db|text    which export to read when a folder holds both\n"
        "  -q, --quiet     print no progress and no \"wrote FILE\" lines; errors are still printed\n"
        ,
        to);
    std::fputs(bs::cli::gateUsage(bs::GateCommand::Compare).c_str(), to);
    std::fputs(bs::cli::kLangUsage, to);
    std::fputs(
        "  -h, --help      this help\n"
        "What it compares: the collection scope (profiler level, with_stack, record_shapes, activities, steps,\n"
        "rank; differences are warnings at the top), the dominant step group's figures (average and P50, base,\n"
        "new, delta, delta %), the ops of the dominant group (calls, total, average, wait; new and removed ops),\n"
        "the layer types when both have layers, and the bubble windows matched by position (kernel before,\n"
        "kernel after, occurrence in the step): removed, new, shrunk, grew or unchanged (|delta| < 5 %), with\n"
        "the fate of each of the base's top 5 windows.\n"
        "Outputs are written as by analyze (a regular file atomically; '-' or a device straight); a file of\n"
        "either profile is refused; the profiling folders are never written.\n"
        "Exit status: 0 ok, 2 usage error, 3 no profiling data on a side, 4 output not written, 6 a --fail-if\n"
        "gate failed (or could not be measured), 130 interrupted.\n",
        to);
}

struct Options {
    std::string base, next, rulesFile, format = "text";
    bs::DataSource source = bs::DataSource::Auto;
    bool formatGiven = false, quiet = false;
    std::vector<bs::OutputRequest> outputs; // --json, --report
    bs::Language language = bs::Language::English; // --lang
    std::vector<bs::GateExpr> gates;                // --fail-if
};

enum Output { kJson, kReport, kJunit };

std::optional<int> parseArguments(int argc, char** argv, Options& o) {
    bs::cli::CommandLine line;
    const bs::cli::CommandSpec spec{kCmd,  {"--json", "--report", "--rules", "--source", "--lang", "--junit"}, {},
                                    {"BASE", "NEW"}, usage, {"--fail-if"}};
    if (auto stop = bs::cli::parseCommandLine(argc, argv, spec, line)) return stop;
    if (line.progressLines) {
        std::fprintf(stderr, "%s: --progress is not an option of compare (it prints no progress).\n", kCmd);
        return kExitUsage;
    }
    o.base = line.operands[0];
    o.next = line.operands[1];
    o.format = line.format;
    o.formatGiven = line.formatGiven;
    o.quiet = line.quiet;
    o.language = line.language;
    std::map<std::string, std::optional<std::string>> values;
    for (const auto& [k, v] : line.values)
        values[k] = v;
    if (auto stop = bs::cli::parseSourceOption(kCmd, values["--source"].value_or(""), o.source)) return stop;
    o.rulesFile = values["--rules"].value_or("");
    o.outputs = {{"--json", "the comparison JSON", values["--json"].value_or(""), false},
                 {"--report", "the comparison report", values["--report"].value_or(""), false},
                 {"--junit", "the JUnit XML", values["--junit"].value_or(""), false}};
    if (auto stop = bs::cli::parseGateOptions(kCmd, line.lists["--fail-if"], bs::GateCommand::Compare, o.gates))
        return stop;
    if (values["--junit"] && o.gates.empty()) {
        std::fprintf(stderr, "%s: --junit writes the gates as JUnit XML; give at least one --fail-if EXPR.\n", kCmd);
        return kExitUsage;
    }
    return std::nullopt;
}

// The ranks of one side (cluster_analysis_output and advisor folders are not ranks).
std::vector<bs::RankFolder> ranksOf(const bs::DiscoveryResult& found) {
    std::vector<bs::RankFolder> ranks;
    for (const auto& r : found.ranks)
        if (found.ranks.size() == 1 || bs::isRankFolder(r)) ranks.push_back(r);
    return ranks;
}

// The rank id a folder names before it is loaded: profiler_info_{N}.json, else the folder's digits.
int rankIdOf(const bs::RankFolder& r) {
    auto digits = [](std::string s) {
        if (const auto pos = s.find("_ascend_pt"); pos != std::string::npos) s = s.substr(0, pos);
        std::size_t end = s.size();
        while (end > 0 && !std::isdigit(static_cast<unsigned char>(s[end - 1])))
            --end;
        std::size_t begin = end;
        while (begin > 0 && std::isdigit(static_cast<unsigned char>(s[begin - 1])))
            --begin;
        return begin == end || end - begin > 9 ? -1 : std::stoi(s.substr(begin, end - begin));
    };
    for (const auto& f : bs::listRankFiles(r).profilerInfo)
        if (const int id = digits(std::filesystem::path(f).stem().string()); id >= 0) return id;
    const std::string name = std::filesystem::path(r.root).filename().string();
    return name.rfind("PROF_", 0) == 0 ? -1 : digits(name);
}

struct Pair {
    std::string name;
    std::optional<bs::RankFolder> base, next;
};

// Ranks matched by rank id when every rank of both sides has a distinct one, else by label.
std::vector<Pair> pairRanks(const std::vector<bs::RankFolder>& a, const std::vector<bs::RankFolder>& b) {
    if (a.size() == 1 && b.size() == 1) return {{"", a[0], b[0]}};
    auto ids = [](const std::vector<bs::RankFolder>& v) {
        std::map<int, std::size_t> m;
        for (std::size_t i = 0; i < v.size(); ++i) {
            const int id = rankIdOf(v[i]);
            if (id < 0 || !m.emplace(id, i).second) return std::map<int, std::size_t>{};
        }
        return m;
    };
    const auto ia = ids(a), ib = ids(b);
    std::vector<Pair> pairs;
    if (!ia.empty() && !ib.empty()) {
        std::map<int, Pair> byId;
        for (const auto& [id, i] : ia)
            byId[id].base = a[i];
        for (const auto& [id, i] : ib)
            byId[id].next = b[i];
        for (auto& [id, p] : byId) {
            p.name = "rank " + std::to_string(id);
            pairs.push_back(std::move(p));
        }
        return pairs;
    }
    std::map<std::string, Pair> byLabel;
    for (const auto& r : a)
        byLabel[r.label].base = r;
    for (const auto& r : b)
        byLabel[r.label].next = r;
    for (auto& [label, p] : byLabel) {
        p.name = label;
        pairs.push_back(std::move(p));
    }
    return pairs;
}

class CompareRun {
  public:
    CompareRun(const Options& o, const bs::Rulebook& rules, bs::cli::Progress& progress)
        : o_(o), rules_(rules), progress_(progress) {}

    // One side of one pair: loaded, analysed, reduced to its digest, freed. nullopt (and `error`) when the
    // side has no usable data.
    std::optional<bs::CompareSide> digest(const bs::RankFolder& rank, const char* side, std::string& error) {
        bs::LoadControl control;
        control.source = o_.source;
        control.cancel = &bs::cli::cancelFlag();
        control.progress = [this](const std::string& stage, std::uint64_t done, std::uint64_t total) {
            progress_.loaded(stage, done, total);
        };
        bs::LoadResult loaded = bs::loadRank(rank, control);
        if (loaded.cancelled) bs::cli::exitInterrupted();
        if (loaded.tooLarge)
            error = rank.root + " was not loaded: " + loaded.profile->loadFindings.front().seen + " " +
                    loaded.profile->loadFindings.front().fix;
        else if (!loaded.hasAnyData)
            error = bs::noDataMessage(rank, loaded);
        if (!error.empty()) {
            error = std::string(side) + " has no profiling data: " + error;
            return std::nullopt;
        }
        progress_.analysing();
        try {
            const bs::AnalysisResult result = bs::analyzeProfile(*loaded.profile, rules_);
            const int rankId = bs::summarizeRank(rank, *loaded.profile, result).rankId;
            return bs::digestForCompare(*loaded.profile, result, rank.label, rank.root, rankId);
        } catch (const std::bad_alloc&) {
            error = std::string(side) + " " + rank.root + " was not analysed: memory ran out during the analysis.";
            return std::nullopt;
        }
    }

    bs::ComparedPair compare(const Pair& p) {
        bs::ComparedPair out;
        out.name = p.name;
        if (p.base) out.baseLabel = p.base->label, out.baseFolder = p.base->root;
        if (p.next) out.newLabel = p.next->label, out.newFolder = p.next->root;
        if (!p.base || !p.next) {
            out.error = std::string("only ") + (p.base ? "base" : "new") + " has this rank";
            return out;
        }
        std::optional<bs::CompareSide> a = digest(*p.base, "base", out.error);
        if (!a) return out;
        bs::releaseFreedMemory(); // the base's model is gone before the new one is loaded
        std::optional<bs::CompareSide> b = digest(*p.next, "new", out.error);
        bs::releaseFreedMemory();
        if (!b) return out;
        out.comparison = bs::compareSides(std::move(*a), std::move(*b));
        return out;
    }

  private:
    const Options& o_;
    const bs::Rulebook& rules_;
    bs::cli::Progress& progress_;
};

// The outputs, checked before anything is loaded: against each rank of both sides (a file of a profile is
// refused), named twice, or known to be unwritable. Returns the targets (kNone-free, by request).
std::optional<int> planOutputs(const Options& o, const std::vector<bs::RankFolder>& all,
                               std::vector<std::optional<bs::OutputTarget>>& targets, bool& usesStdout) {
    targets.assign(o.outputs.size(), std::nullopt);
    for (const auto& rank : all) {
        bs::OutputPlan plan = bs::planOutputs(o.outputs, {rank});
        if (!plan.error.empty()) {
            std::string msg = plan.error;
            if (const std::string from = "bubblescope analyze:"; msg.rfind(from, 0) == 0)
                msg = std::string(kCmd) + ":" + msg.substr(from.size());
            if (const auto at = msg.find("the profile being analysed"); at != std::string::npos)
                msg.replace(at, std::strlen("the profile being analysed"), "a profile being compared");
            std::fprintf(stderr, "%s\n", bs::term(msg).c_str());
            return plan.usageError ? kExitUsage : kExitWriteFailed;
        }
        usesStdout = plan.usesStandardOutput;
        for (std::size_t q = 0; q < o.outputs.size(); ++q)
            if (plan.forRank[0][q] != bs::OutputPlan::kNone) targets[q] = plan.outputs[plan.forRank[0][q]].target;
    }
    return std::nullopt;
}

// The first bytes of a file ("" when unreadable): enough to tell a rank summary from a profile's file.
std::string headOf(const std::string& file) {
    std::string head(64, '\0');
    std::FILE* f = std::fopen(file.c_str(), "rb");
    if (!f) return {};
    head.resize(std::fread(head.data(), 1, head.size(), f));
    std::fclose(f);
    return head;
}

int writeAll(const Options& o, const std::vector<std::optional<bs::OutputTarget>>& targets,
             const std::string& json, const std::string& markdown, const std::string& junit, bs::cli::Progress& progress) {
    int code = kExitOk;
    for (std::size_t q = 0; q < targets.size(); ++q) {
        if (!targets[q]) continue;
        const bs::OutputTarget& t = *targets[q];
        progress.writing(t.displayName());
        std::string err;
        {
            bs::cli::OutputWriteGuard guard(t.kind == bs::OutputTarget::Kind::File);
            err = bs::writeOutput(t, q == kJson ? json : q == kJunit ? junit : markdown);
        }
        if (!err.empty()) {
            progress.error(std::string("bubblescope: ") + o.outputs[q].what + " was not written: " + bs::term(err));
            code = kExitWriteFailed;
        } else {
            progress.note("bubblescope: wrote " + bs::term(t.displayName()));
        }
        progress.pause();
    }
    return code;
}

} // namespace

int runCompareCommand(int argc, char** argv) {
    bs::cli::installInterruptHandler(false);
    Options o;
    if (auto stop = parseArguments(argc, argv, o)) return *stop;
    const bs::ScopedLanguage language(o.language); // the outputs and the errors from core in --lang
    bs::Rulebook rules;
    if (auto stop = bs::cli::loadRulesFile(kCmd, o.rulesFile, rules)) return *stop;
    const bs::cli::ProgressMode mode = bs::cli::chooseProgressMode(o.quiet, false);
    bs::cli::clearLineOnInterrupt(mode == bs::cli::ProgressMode::Terminal);
    bs::cli::Progress progress(mode, o.quiet);
    // BASE may be a stored rank summary (a regular file that starts as one).
    std::optional<bs::CompareSide> storedBase;
    std::error_code fsError;
    if (std::filesystem::is_regular_file(o.base, fsError) && bs::looksLikeRankSummary(headOf(o.base))) {
        const bs::FileBuffer whole = bs::readWholeFile(o.base, 1ULL << 30);
        {
            std::string error = whole.error;
            if (error.empty()) storedBase = bs::compareSideFromSummary(whole.view(), o.base, error);
            if (!storedBase) {
                std::fprintf(stderr, "%s: BASE: %s\n", kCmd, bs::term(error).c_str());
                return kExitNoData;
            }
        }
    }
    if (std::filesystem::is_regular_file(o.next, fsError)) {
        if (bs::looksLikeRankSummary(headOf(o.next))) {
            std::fprintf(stderr, "%s: NEW %s is a rank summary; a summary is taken as BASE only (the stored "
                                 "baseline): give the new profile's folder as NEW.\n",
                         kCmd, bs::term(o.next).c_str());
            return kExitUsage;
        }
    }
    std::vector<bs::RankFolder> sides[2];
    const std::string* given[2] = {&o.base, &o.next};
    for (int s = storedBase ? 1 : 0; s < 2; ++s) {
        progress.discovering(bs::term(*given[s]));
        const bs::DiscoveryResult found = bs::discoverProfiles(*given[s]);
        sides[s] = ranksOf(found);
        progress.pause();
        if (sides[s].empty()) {
            std::fprintf(stderr, "%s: %s (%s): %s\n", kCmd, s == 0 ? "BASE" : "NEW", bs::term(*given[s]).c_str(),
                         bs::term(found.error.empty() ? "no rank folder found" : found.error).c_str());
            return kExitNoData;
        }
    }
    if (storedBase && sides[1].size() != 1) {
        std::fprintf(stderr, "%s: BASE %s is the summary of one rank, but NEW (%s) holds %zu ranks; give that rank's "
                             "folder as NEW.\n",
                     kCmd, bs::term(o.base).c_str(), bs::term(o.next).c_str(), sides[1].size());
        return kExitUsage;
    }
    std::vector<bs::RankFolder> all = sides[0];
    all.insert(all.end(), sides[1].begin(), sides[1].end());
    std::vector<std::optional<bs::OutputTarget>> targets;
    bool usesStdout = false;
    if (auto stop = planOutputs(o, all, targets, usesStdout)) return *stop;
    if (storedBase) {
        // The stored baseline is an input too: no output may replace it.
        struct stat in {};
        for (std::size_t q = 0; q < targets.size(); ++q)
            if (targets[q] && targets[q]->exists && ::stat(o.base.c_str(), &in) == 0 && in.st_dev == targets[q]->dev &&
                in.st_ino == targets[q]->ino) {
                std::fprintf(stderr, "%s: %s %s is BASE, the summary being compared; choose another output.\n", kCmd,
                             o.outputs[q].option.c_str(), bs::term(o.outputs[q].given).c_str());
                return kExitUsage;
            }
    }
    if (usesStdout && o.formatGiven) {
        std::fprintf(stderr, "%s: --format prints on standard output, which an output (-, /dev/stdout) already "
                             "uses; drop one of them.\n", kCmd);
        return kExitUsage;
    }

    CompareRun run(o, rules, progress);
    std::vector<bs::ComparedPair> results;
    std::size_t compared = 0;
    if (storedBase) {
        progress.setRankCount(1);
        progress.startRank(0, sides[1][0].label);
        bs::ComparedPair out;
        out.baseLabel = storedBase->label;
        out.baseFolder = o.base;
        out.newLabel = sides[1][0].label;
        out.newFolder = sides[1][0].root;
        if (std::optional<bs::CompareSide> b = run.digest(sides[1][0], "new", out.error)) {
            bs::releaseFreedMemory();
            out.comparison = bs::compareSides(std::move(*storedBase), std::move(*b));
        }
        progress.rankDone();
        results.push_back(std::move(out));
        if (results.back().comparison) ++compared;
        else progress.error(std::string(kCmd) + ": " + bs::term(results.back().error));
    } else {
        const std::vector<Pair> pairs = pairRanks(sides[0], sides[1]);
        progress.setRankCount(pairs.size());
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            progress.startRank(i, pairs[i].name.empty() ? sides[0][0].label : pairs[i].name);
            results.push_back(run.compare(pairs[i]));
            results.back().name = pairs[i].name;
            progress.rankDone();
            if (results.back().comparison) {
                ++compared;
            } else {
                progress.error(std::string(kCmd) + ": " + (pairs[i].name.empty() ? "" : pairs[i].name + ": ") +
                               bs::term(results.back().error));
            }
        }
    }
    if (compared == 0) return kExitNoData;
    const bool single = results.size() == 1;
    std::string json = single ? bs::renderComparisonDocument(*results[0].comparison) : bs::renderPairsDocument(results);
    const std::string markdown =
        single ? bs::renderComparisonMarkdown(*results[0].comparison) : bs::renderPairsMarkdown(results);
    // The gates: over the one comparison, else over each pair (a pair not compared fails them, said).
    std::vector<bs::GateResult> gates;
    for (const auto& r : results) {
        if (r.comparison) {
            for (auto& g : bs::evaluateComparisonGates(o.gates, *r.comparison, single ? std::string() : r.name))
                gates.push_back(std::move(g));
        } else {
            for (const auto& g : o.gates)
                gates.push_back(bs::unmeasuredGate(g, r.name, r.error));
        }
    }
    std::string junit;
    if (!o.gates.empty()) {
        json = bs::withGatesMember(json, gates);
        junit = bs::renderGatesJUnit(gates, kCmd);
    }
    int code = writeAll(o, targets, json, markdown, junit, progress);
    if (!usesStdout) {
        std::string out = o.format == "json"
                              ? json
                              : (single ? bs::renderComparisonText(*results[0].comparison) : bs::renderPairsText(results));
        if (o.format != "json" && !o.gates.empty()) out += "\n" + bs::renderGatesText(gates);
        progress.aside([&] { std::fwrite(out.data(), 1, out.size(), stdout); });
    }
    progress.finish();
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        progress.error(std::string("bubblescope: cannot write to standard output: ") + std::strerror(errno ? errno : EIO));
        code = kExitWriteFailed;
    }
    // A failed gate is the last thing said: every output was written, the change did not pass.
    if (code == kExitOk && bs::anyGateFailed(gates)) code = bs::cli::kExitGateFailed;
    return code;
}

#include "screenshot_command.h"
#include "language.h"
#include "cli_common.h"

#include "pipeline/analysis_run.h"
#include "analysis/rulebook.h"
#include "cluster/cluster_analysis.h"
#include "cluster/summary_json.h"
#include "io/discovery.h"
#include "io/profile_loader.h"
#include "model/profile.h"
#include "ranks_tab.h"
#include "i18n/escape.h"
#include "report/output_target.h"
#include "timeline_image.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

namespace {

using namespace bs::cli;

void usage(std::FILE* to) {
    std::fputs(
        "Usage: bubblescope screenshot [OPTIONS] [--] PATH\n"
        "       bubblescope screenshot --ranks [--step N] [OPTIONS] [--] PARENT\n"
        "  PATH          one rank's profiling folder (or a file inside one)\n"
        "  --ranks       the Cluster view's Ranks tab instead: every rank of PARENT (a folder of two or "
        "more\n"
        "                ranks) on one timeline, on the aligned clock, the collectives' waits shaded\n"
        "  --step N      with --ranks: fit the picture to step N's windows across the ranks (default: the\n"
        "                whole capture)\n"
        "  --out FILE    the picture: FILE.png or FILE.svg (written atomically)\n"
        "  --bubble ID   centre on that bubble window (b0001 is the longest), with the kernels and host\n"
        "                activity around it, selected; default: the whole capture\n"
        "  --size WxH    the picture's size in pixels (default 1600 wide and as tall as the lanes it shows,\n"
        "                300 to 4000; with --ranks tall enough for every rank, at most 2400)\n"
        "  --lang LANG   the language of the lanes, legend and labels: en (default) or zh_CN (also zh, cn)\n"
        "  -q, --quiet   no \"wrote FILE\" line\n"
        "  -h, --help    this help\n"
        "No display is needed: the timeline is drawn off screen, as the window draws it.\n"
        "Exit status: 0 ok, 2 usage error (also an unknown bubble id or step), 3 no profiling data (with "
        "--ranks:\n"
        "fewer than two ranks, or a folder of rank summaries, which keep no lanes), 4 not written.\n",
        to);
}

int writePicture(const QByteArray& bytes, const QString& error, const bs::OutputTarget& target, bool quiet) {
    if (bytes.isEmpty()) {
        std::fprintf(stderr, "bubblescope screenshot: %s\n", error.toStdString().c_str());
        return kExitWriteFailed;
    }
    if (const std::string err = bs::writeOutput(
            target, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        !err.empty()) {
        std::fprintf(stderr, "bubblescope: the picture was not written: %s\n", bs::term(err).c_str());
        return kExitWriteFailed;
    }
    if (!quiet) std::fprintf(stderr, "bubblescope: wrote %s\n", bs::term(target.displayName()).c_str());
    return kExitOk;
}

// --ranks: every rank of the parent folder on one timeline (the Ranks tab), analysed with its lanes.
int ranksScreenshot(const CommandLine& line, const bs::OutputTarget& target, const QString& format,
                    std::optional<QSize> size) {
    const std::string parent = line.operands[0];
    if (!line.value("--bubble").empty()) {
        std::fputs("bubblescope screenshot: --bubble is one rank's window; it does not go with --ranks.\n",
                   stderr);
        return kExitUsage;
    }
    std::int64_t step = -1;
    const std::string stepText = line.value("--step");
    if (!stepText.empty()) {
        char* end = nullptr;
        step = std::strtoll(stepText.c_str(), &end, 10);
        if (end == stepText.c_str() || *end != '\0') {
            std::fprintf(stderr, "bubblescope screenshot: --step wants a step number, not '%s'.\n",
                         bs::term(stepText).c_str());
            return kExitUsage;
        }
    }
    // The analysis of every rank takes a while: a picture that cannot be written is said first.
    if (const std::string problem = bs::knownWriteProblem(target); !problem.empty()) {
        std::fprintf(stderr, "bubblescope: the picture would not be written: %s\n",
                     bs::term(problem).c_str());
        return kExitWriteFailed;
    }
    if (!bs::summaryFilesIn(parent).empty()) {
        std::fprintf(
            stderr,
            "bubblescope: %s holds rank summaries, which keep no device lanes; give the folder of the "
            "ranks themselves.\n",
            bs::term(parent).c_str());
        return kExitNoData;
    }
    const bs::DiscoveryResult found = bs::discoverProfiles(parent);
    std::size_t ranks = 0;
    for (const auto& r : found.ranks)
        ranks += bs::isRankFolder(r) ? 1 : 0;
    if (ranks < 2) {
        std::fprintf(stderr,
                     "bubblescope screenshot: --ranks wants a folder of two or more ranks; %s holds %zu.\n",
                     bs::term(parent).c_str(), ranks);
        return kExitNoData;
    }
    auto cluster = std::make_shared<const bs::ClusterResult>(
        bs::analyzeClusterFolder(parent, bs::Rulebook{}, /*withLanes=*/true));
    if (!stepText.empty() &&
        std::find(cluster->steps.begin(), cluster->steps.end(), step) == cluster->steps.end()) {
        std::string steps;
        for (std::int64_t s : cluster->steps)
            steps += (steps.empty() ? "" : ", ") + std::to_string(s);
        std::fprintf(stderr, "bubblescope screenshot: no step %lld in %s (steps: %s).\n",
                     static_cast<long long>(step), bs::term(parent).c_str(), steps.c_str());
        return kExitUsage;
    }
    // Tall enough for every rank's row group unless --size says otherwise.
    const QSize picture =
        size ? *size : QSize(1600, std::clamp(140 + static_cast<int>(cluster->ranks.size()) * 34, 400, 2400));
    QString error;
    const QByteArray bytes = bs::ui::ranksPicture(cluster, step, !stepText.empty(), picture, format, &error);
    return writePicture(bytes, error, target, line.quiet);
}

} // namespace

int runScreenshotCommand(int argc, char** argv) {
    CommandLine line;
    const CommandSpec spec{"bubblescope screenshot",
                           {"--out", "--bubble", "--size", "--lang", "--step"},
                           {"--ranks"},
                           {"PATH"},
                           usage};
    if (auto stop = parseCommandLine(argc, argv, spec, line)) return *stop;
    if (line.formatGiven) {
        std::fputs("bubblescope screenshot: the picture's format comes from --out's extension (.png, .svg).\n", stderr);
        return kExitUsage;
    }
    // The picture in --lang: the window's translators and the analysis's sentences (QApplication exists).
    if (!line.value("--lang").empty())
        bs::ui::applyLanguage(QString::fromLatin1(bs::languageName(line.language)));
    const std::string out = line.value("--out");
    if (out.empty()) {
        std::fputs("bubblescope screenshot: --out FILE.png or FILE.svg is required.\n", stderr);
        return kExitUsage;
    }
    const QString format = bs::ui::pictureFormatFor(QString::fromStdString(out));
    if (format.isEmpty()) {
        std::fprintf(stderr, "bubblescope screenshot: --out %s: the name must end in .png or .svg.\n", bs::term(out).c_str());
        return kExitUsage;
    }
    int width = 1600, height = 0; // 0: as tall as the lanes shown
    const bool sizeGiven = !line.value("--size").empty();
    if (const std::string sz = line.value("--size"); !sz.empty()) {
        int used = 0;
        if (std::sscanf(sz.c_str(), "%dx%d%n", &width, &height, &used) != 2 || static_cast<std::size_t>(used) != sz.size() ||
            width < 200 || height < 100 || width > 16384 || height > 16384) {
            std::fprintf(stderr, "bubblescope screenshot: --size wants WxH between 200x100 and 16384x16384, not '%s'.\n",
                         bs::term(sz).c_str());
            return kExitUsage;
        }
    }
    const bs::OutputTarget target = bs::resolveOutputTarget(out);
    if (target.kind == bs::OutputTarget::Kind::Refused) {
        std::fprintf(stderr, "bubblescope screenshot: --out %s %s.\n", bs::term(out).c_str(), target.refusal.c_str());
        return kExitUsage;
    }
    if (line.has("--ranks"))
        return ranksScreenshot(line, target, format,
                               sizeGiven ? std::optional<QSize>(QSize(width, height)) : std::nullopt);
    if (!line.value("--step").empty()) {
        std::fputs("bubblescope screenshot: --step goes with --ranks.\n", stderr);
        return kExitUsage;
    }
    const bs::DiscoveryResult found = bs::discoverProfiles(line.operands[0]);
    std::vector<bs::RankFolder> ranks;
    for (const auto& r : found.ranks)
        if (bs::isRankFolder(r)) ranks.push_back(r);
    if (ranks.empty()) {
        std::fprintf(stderr, "bubblescope: %s\n", bs::term(found.error.empty() ? line.operands[0] + " holds no rank" : found.error).c_str());
        return kExitNoData;
    }
    if (ranks.size() > 1) {
        std::string list;
        for (const auto& r : ranks)
            list += "\n  " + bs::term(r.root);
        std::fprintf(stderr, "bubblescope screenshot: %s holds %zu ranks; give one of them:%s\n",
                     bs::term(line.operands[0]).c_str(), ranks.size(), list.c_str());
        return kExitUsage;
    }
    bs::LoadResult loaded = bs::loadRank(ranks.front());
    if (loaded.tooLarge || !loaded.hasAnyData || !loaded.profile) {
        std::fprintf(stderr, "bubblescope: %s\n", bs::term(bs::noDataMessage(ranks.front(), loaded)).c_str());
        return kExitNoData;
    }
    auto analysis = std::make_shared<const bs::AnalysisResult>(bs::analyzeProfile(*loaded.profile));
    int window = -1;
    if (const std::string id = line.value("--bubble"); !id.empty()) {
        const auto& ws = analysis->anomaly.windows;
        for (std::size_t i = 0; i < ws.size(); ++i)
            if (ws[i].id == id) window = static_cast<int>(i);
        if (window < 0) {
            std::string ids;
            for (std::size_t i = 0; i < ws.size() && i < 10; ++i)
                ids += (i ? ", " : "") + ws[i].id;
            std::fprintf(stderr, "bubblescope screenshot: no bubble window %s in %s (%zu windows%s%s).\n",
                         bs::term(id).c_str(), bs::term(ranks.front().root).c_str(), ws.size(), ws.empty() ? "" : ": ",
                         ids.c_str());
            return kExitUsage;
        }
    }
    QString error;
    const QByteArray bytes = bs::ui::bubblePicture(std::shared_ptr<const bs::Profile>(std::move(loaded.profile)), analysis,
                                                   window, QSize(width, height), format, &error);
    return writePicture(bytes, error, target, line.quiet);
}

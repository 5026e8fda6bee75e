// GUI figures (issue 18): see bench_gui.h. Each run is a child process so that its VmHWM is its own.
#include "bench_gui.h"

#include "bench_headless.h"
#include "bench_util.h"

#include "pipeline/analysis_run.h"
#include "i18n/message.h"
#include "io/discovery.h"
#include "io/profile_loader.h"
#include "main_window.h"
#include "layer_tree_model.h"
#include "load_job.h"
#include "panels/inspector.h"
#include "panels/summary_panel.h"
#include "range_stats.h"
#include "report/text_report.h"
#include "timeline_data.h"
#include "timeline_widget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QAbstractTextDocumentLayout>
#include <QFontDatabase>
#include <QTabWidget>
#include <QTextDocument>
#include <QTimer>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>
#include <vector>

namespace benchgui {

namespace {

using benchutil::mb;

// Records the largest gap between two ticks of a 10 ms timer: the event loop's longest stall.
class Heartbeat : public QObject {
  public:
    Heartbeat() {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(10);
        QObject::connect(&timer_, &QTimer::timeout, this, [this] {
            const qint64 now = clock_.nsecsElapsed();
            if (now - last_ > maxGapNs_) maxGapNs_ = now - last_, maxGapEndNs_ = now;
            last_ = now;
        });
        clock_.start();
        timer_.start();
    }
    void reset() {
        maxGapNs_ = maxGapEndNs_ = 0;
        last_ = clock_.nsecsElapsed();
    }
    // The longest gap so far, the one still open included.
    double maxGapMs() const {
        return static_cast<double>(std::max(maxGapNs_, clock_.nsecsElapsed() - last_)) / 1e6;
    }

    // When the longest closed gap ended, on this object's clock.
    qint64 maxGapEndNs() const { return maxGapEndNs_; }
    qint64 nowNs() const { return clock_.nsecsElapsed(); }

  private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0, maxGapNs_ = 0, maxGapEndNs_ = 0;
};

// The time the timeline finishes its first paint with a model.
class FirstPaint : public QObject {
  public:
    explicit FirstPaint(bs::ui::TimelineWidget* w) : w_(w) { w->installEventFilter(this); }
    qint64 atNs = -1;
    QElapsedTimer* clock = nullptr;

  protected:
    bool eventFilter(QObject* o, QEvent* e) override {
        if (o != w_ || e->type() != QEvent::Paint || atNs >= 0 || w_->trackCount() == 0) return false;
        static_cast<QObject*>(w_)->event(e); // paint now, then note the time
        atNs = clock->nsecsElapsed();
        return true;
    }

  private:
    bs::ui::TimelineWidget* w_;
};

// Runs the event loop for `ms`, sleeping while it has nothing to do. (processEvents(flags, ms) returns as
// soon as no event is pending, so calling it in a loop kept this thread busy and took a core from the
// load being measured.)
void settle(int ms) {
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace

namespace {

double msSince(const QElapsedTimer& t) {
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

// What the window did on its GUI thread before issue 18, timed on the same profile after the window's
// figures (so they do not count in its peak RSS): the timeline's tracks, the Layers tree (now its lazy
// model's rows, built in the loader), the range
// statistics as a walk over every kernel — beside the prefix sums that replace the walk.
void legacyFigures(const std::string& path) {
    auto found = bs::discoverProfiles(path);
    if (found.ranks.empty()) return;
    auto loaded = bs::loadRank(found.ranks[0]);
    if (!loaded.profile) return;
    const bs::AnalysisResult analysis = bs::analyzeProfile(*loaded.profile);
    const bs::Profile& p = *loaded.profile;
    QElapsedTimer t;
    t.start();
    const bs::ui::TimelineData d = bs::ui::buildTimelineData(p, analysis);
    const double timeline = msSince(t);
    t.start();
    {
        // The Layers tree is a lazy model now: its rows above the kernels (each kernel leaf is an index).
        const auto tree = bs::ui::buildLayerTree(p, analysis);
    }
    const double layers = msSince(t);
    t.start();
    bs::TimeNs busyWalk = 0, busyPrefix = 0;
    std::size_t nWalk = 0, nPrefix = 0;
    const QString walk = bs::ui::Inspector::rangeHtml(p, d.start, d.end, &busyWalk, &nWalk);
    const double rangeWalk = msSince(t);
    t.start();
    const bs::ui::RangeStats stats(p);
    const double statsBuild = msSince(t);
    t.start();
    const QString prefix = bs::ui::Inspector::rangeHtml(p, d.start, d.end, &busyPrefix, &nPrefix, &stats);
    const double rangePrefix = msSince(t);
    // Where the Summary's setHtml spends its time (its HTML built, parsed into a QTextDocument, laid out at
    // the panel's width), with every step and cross-check row (before) and capped (SummaryPanel::kRows);
    // the Text report's plain text the same way.
    auto document = [&](const QString& text, bool html, double& parse, double& layout) {
        QTextDocument doc;
        if (!html) doc.setDefaultFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        t.start();
        if (html)
            doc.setHtml(text);
        else
            doc.setPlainText(text);
        parse = msSince(t);
        t.start();
        doc.setTextWidth(1380);
        (void)doc.documentLayout()->documentSize();
        layout = msSince(t);
    };
    double sum[2][3], sumKb[2];
    for (int i = 0; i < 2; ++i) {
        t.start();
        const QString h = bs::ui::SummaryPanel::html(p, analysis, i == 0 ? std::numeric_limits<int>::max() : bs::ui::SummaryPanel::kRows);
        sum[i][0] = msSince(t);
        sumKb[i] = static_cast<double>(h.size()) / 1024.0;
        document(h, true, sum[i][1], sum[i][2]);
    }
    double report[3];
    t.start();
    const QString text = QString::fromStdString(bs::renderTextReport(p, analysis));
    report[0] = msSince(t);
    document(text, false, report[1], report[2]);
    std::printf("RESULT summaryFullKb=%.1f summaryFullBuild=%.2f summaryFullParse=%.2f summaryFullLayout=%.2f "
                "summaryKb=%.1f summaryBuild=%.2f summaryParse=%.2f summaryLayout=%.2f reportKb=%.1f reportBuild=%.2f "
                "reportParse=%.2f reportLayout=%.2f\n",
                sumKb[0], sum[0][0], sum[0][1], sum[0][2], sumKb[1], sum[1][0], sum[1][1], sum[1][2],
                static_cast<double>(text.size()) / 1024.0, report[0], report[1], report[2]);
    std::printf("RESULT legacyTimeline=%.2f legacyLayers=%.2f legacyRange=%.2f rangeStatsBuild=%.2f rangePrefix=%.2f "
                "rangeSame=%d rangeStatsMB=%.1f kernels=%zu hostEvents=%zu windowGuardMB=%.1f\n",
                timeline, layers, rangeWalk, statsBuild, rangePrefix, walk == prefix ? 1 : 0,
                static_cast<double>(stats.bytes()) / 1048576.0, p.kernels.size(), p.hostEvents.size(),
                static_cast<double>(bs::ui::windowBytes(p)) / 1048576.0);
    std::fflush(stdout);
}

} // namespace

int runOne(const std::string& path, bool legacy) {
    bs::ui::MainWindow w;
    w.resize(1400, 900);
    w.show();
    settle(200);
    Heartbeat beat;
    QElapsedTimer clock;
    FirstPaint paint(w.timeline());
    paint.clock = &clock;
    qint64 finishedNs = -1;
    bool ok = false;
    QObject::connect(&w, &bs::ui::MainWindow::loadFinished, &w, [&](bool good) {
        finishedNs = clock.nsecsElapsed();
        ok = good;
    });
    beat.reset();
    clock.start();
    const qint64 beatAtOpen = beat.nowNs();
    w.openPath(QString::fromStdString(path));
    while ((finishedNs < 0 || paint.atNs < 0) && clock.elapsed() < 900'000) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents); // sleeps until an event (the 10 ms heartbeat at least)
        if (finishedNs >= 0 && !ok) break;
    }
    if (!ok || paint.atNs < 0) {
        std::printf("RESULT failed=1\n");
        return 1;
    }
    settle(500); // what runs just after the first paint belongs to the load too
    const double stallLoad = beat.maxGapMs();
    const double stallLoadEnd = static_cast<double>(beat.maxGapEndNs() - beatAtOpen) / 1e9; // s after openPath
    std::map<std::string, double> tabMs;
    double stallTabs = 0;
    const char* names[] = {"Summary", "Bubbles", "Layers", "Ops", "Charts", "Health", "Text report"};
    for (const char* name : names) {
        int index = -1;
        for (int i = 0; i < w.tabs()->count(); ++i)
            if (w.tabs()->tabText(i).startsWith(QLatin1String(name))) index = i;
        if (index < 0) continue;
        settle(50);
        beat.reset();
        QElapsedTimer t;
        t.start();
        w.tabs()->setCurrentIndex(index);
        w.tabs()->currentWidget()->repaint();
        QCoreApplication::processEvents();
        tabMs[name] = static_cast<double>(t.nsecsElapsed()) / 1e6;
        settle(50);
        stallTabs = std::max(stallTabs, beat.maxGapMs());
    }
    settle(50);
    QElapsedTimer t;
    t.start();
    emit w.timeline()->rangeSelected(w.timeline()->dataStart(), w.timeline()->dataEnd());
    QCoreApplication::processEvents();
    const double rangeMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
    std::printf("RESULT failed=0 stallLoadEnd=%.4f finished=%.4f firstPaint=%.4f stallLoad=%.2f stallTabs=%.2f rssKb=%ld range=%.2f",
                stallLoadEnd, static_cast<double>(finishedNs) / 1e9, static_cast<double>(paint.atNs) / 1e9, stallLoad, stallTabs,
                benchutil::peakRssKb(), rangeMs);
    for (const auto& [n, ms] : tabMs) {
        std::string key = n;
        std::replace(key.begin(), key.end(), ' ', '_');
        std::printf(" tab_%s=%.2f", key.c_str(), ms);
    }
    std::printf("\n");
    std::fflush(stdout);
    if (legacy) legacyFigures(path);
    return 0;
}

namespace {

using Result = std::map<std::string, double>;

Result runChild(const std::string& self, const std::string& path, bool legacy) {
    Result r;
    const std::string cmd = "QT_QPA_PLATFORM=offscreen '" + self + "' --gui-one '" + path + "'" +
                            (legacy ? " --legacy" : "") + " 2>/dev/null";
    std::FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return r;
    char line[4096];
    while (std::fgets(line, sizeof line, p)) {
        std::string l(line);
        if (l.rfind("RESULT ", 0) != 0) continue;
        std::istringstream in(l.substr(7));
        std::string kv;
        while (in >> kv) {
            const auto eq = kv.find('=');
            if (eq != std::string::npos) r[kv.substr(0, eq)] = std::stod(kv.substr(eq + 1));
        }
    }
    ::pclose(p);
    return r;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

std::uintmax_t sizeOf(const std::string& p) {
    std::error_code ec;
    const auto s = p.empty() ? 0 : std::filesystem::file_size(p, ec);
    return ec ? 0 : s;
}

} // namespace

int runAll(const std::string& self, const std::string& headlessExe, int runs, int argc, char** argv, int first) {
    struct Profile {
        std::string label, path;
        benchheadless::Figures headless;
    };
    std::vector<Profile> profiles;
    for (int i = first; i < argc; ++i) {
        const std::string a = argv[i];
        const auto eq = a.find('=');
        profiles.push_back({eq == std::string::npos ? a : a.substr(0, eq), eq == std::string::npos ? a : a.substr(eq + 1), {}});
    }
    // Each window run beside a headless run of the same profile, so that the ratio of the two compares runs
    // seconds apart. All processes first: nothing large is loaded in this process yet (see
    // measureProcesses); the bare pass below allocates the whole trace.
    std::vector<std::vector<Result>> guiRuns(profiles.size());
    for (std::size_t k = 0; k < profiles.size(); ++k) {
        auto& p = profiles[k];
        p.headless = benchheadless::startProcesses(p.label, p.path);
        for (int i = 0; i < runs; ++i) {
            benchheadless::runProcessOnce(headlessExe, p.headless);
            double cached = 0;
            benchheadless::warmPageCache(p.path, cached);
            guiRuns[k].push_back(runChild(self, p.path, i == 0));
        }
        benchheadless::finishProcesses(headlessExe, p.headless);
    }
    for (std::size_t k = 0; k < profiles.size(); ++k) {
        auto& p = profiles[k];
        const std::vector<Result>& gui = guiRuns[k];
        auto col = [&](const std::string& key) {
            std::vector<double> v;
            for (const auto& r : gui)
                if (r.count(key) && r.count("failed") && r.at("failed") == 0) v.push_back(r.at(key));
            return v;
        };
        auto list = [](const std::vector<double>& v, double scale, const char* f) {
            std::string s;
            for (double x : v)
                s += (s.empty() ? "" : ", ") + fmt::format(fmt::runtime(f), x * scale);
            return s;
        };
        // The shape: events (the bare simdjson pass), bytes per event, side files.
        const auto found = bs::discoverProfiles(p.path);
        if (found.ranks.empty()) {
            fmt::print("{}: {}\n", p.label, bs::english(found.error));
            continue;
        }
        const auto files = bs::listRankFiles(found.ranks[0]);
        const std::string trace =
            !files.traceView.empty() ? files.traceView : (files.msprofJson.empty() ? "" : files.msprofJson[0]);
        const std::uintmax_t traceBytes = sizeOf(trace);
        double bareSec = 0;
        const std::size_t events = trace.empty() ? 0 : benchheadless::barePass(trace, bareSec);
        fmt::print("\n== GUI {}  ({})\n", p.label, found.ranks[0].root);
        fmt::print("  shape: {} events, {:.1f} bytes/event, trace {:.1f} MB, kernel CSV {:.1f} MB, "
                   "communication.json {:.1f} MB\n",
                   events, events ? static_cast<double>(traceBytes) / static_cast<double>(events) : 0.0, mb(traceBytes),
                   mb(sizeOf(files.kernelDetails)), mb(sizeOf(files.communication)));
        const double headless = p.headless.processSec;
        fmt::print("  {:<36} {} (median {:.3f} s)\n", "headless analyze --json process (s)",
                   list(p.headless.processRuns, 1, "{:.3f}"), headless);
        if (col("firstPaint").empty()) {
            fmt::print("  the window failed to load the profile\n");
            continue;
        }
        const double paint = median(col("firstPaint")), fin = median(col("finished"));
        fmt::print("  {:<36} {} (median {:.3f} s)\n", "GUI loadFinished (s)", list(col("finished"), 1, "{:.3f}"), fin);
        // Run i of the window against run i of the headless process, seconds apart (failed window runs
        // skipped).
        std::vector<double> paired;
        for (std::size_t i = 0; i < gui.size() && i < p.headless.processRuns.size(); ++i)
            if (gui[i].count("firstPaint") && gui[i].count("failed") && gui[i].at("failed") == 0 &&
                p.headless.processRuns[i] > 0)
                paired.push_back(gui[i].at("firstPaint") / p.headless.processRuns[i]);
        fmt::print("  {:<36} {} (median {:.3f} s)  {:.2f} x headless (target <= 1.3); run by run {} (median "
                   "{:.2f} x)\n",
                   "GUI first painted timeline (s)", list(col("firstPaint"), 1, "{:.3f}"), paint,
                   headless > 0 ? paint / headless : 0.0, list(paired, 1, "{:.2f}"), median(paired));
        fmt::print("  {:<36} {} (median {:.0f} ms; target <= 100)\n", "longest stall during load (ms)",
                   list(col("stallLoad"), 1, "{:.0f}"), median(col("stallLoad")));
        fmt::print("  {:<36} {}\n", "  ... it ended at (s after open)", list(col("stallLoadEnd"), 1, "{:.3f}"));
        fmt::print("  {:<36} {} (median {:.0f} ms; target <= 100)\n", "longest stall switching tabs (ms)",
                   list(col("stallTabs"), 1, "{:.0f}"), median(col("stallTabs")));
        const double rss = median(col("rssKb")) * 1024.0;
        fmt::print("  {:<36} {:.1f} MB  {:.2f} x trace (target <= 1.5; headless {:.2f} x)\n", "GUI peak RSS (VmHWM, median)",
                   mb(static_cast<std::uintmax_t>(rss)), traceBytes ? rss / static_cast<double>(traceBytes) : 0.0,
                   p.headless.rssKb * 1024.0 / static_cast<double>(std::max<std::uintmax_t>(traceBytes, 1)));
        for (const char* tab : {"Summary", "Bubbles", "Layers", "Ops", "Charts", "Health", "Text_report"}) {
            const bool target = std::string(tab) == "Layers" || std::string(tab) == "Ops" || std::string(tab) == "Charts";
            fmt::print("  {:<36} {} (median {:.1f} ms{})\n", fmt::format("tab {} opens (ms)", tab),
                       list(col(std::string("tab_") + tab), 1, "{:.1f}"), median(col(std::string("tab_") + tab)),
                       target ? "; target <= 150" : "");
        }
        fmt::print("  {:<36} {} (median {:.1f} ms; target <= 150)\n", "range statistics, whole capture (ms)",
                   list(col("range"), 1, "{:.1f}"), median(col("range")));
        if (!gui.empty() && gui[0].count("legacyTimeline")) {
            const Result& l = gui[0];
            fmt::print("  model: {:.0f} kernels, {:.0f} host events\n", l.at("kernels"), l.at("hostEvents"));
            // The memory guard refuses to show a profile when the window's estimate does not fit in what is left
            // once the model is loaded. What the window adds beyond the model is at most the GUI's peak minus the
            // peak of a headless run that holds the same model and the text report but no JSON export (an upper
            // bound: it also counts Qt's own baseline, resident before the guard is asked).
            const double windowMb = mb(static_cast<std::uintmax_t>(rss)) - p.headless.textOnlyRssKb / 1024.0;
            fmt::print("  memory guard: the window's estimate {:.1f} MB; GUI peak - headless peak without JSON "
                       "{:.1f} MB ({})\n",
                       l.at("windowGuardMB"), windowMb, l.at("windowGuardMB") >= windowMb ? "covered" : "NOT COVERED");
            fmt::print("  built once (one run; in the loader now): timeline tracks {:.0f} ms, Layers tree rows (lazy model) "
                       "{:.0f} ms, range statistics (walk) {:.1f} ms\n",
                       l.at("legacyTimeline"), l.at("legacyLayers"), l.at("legacyRange"));
            fmt::print("  range statistics from prefix sums: {:.2f} ms (built in {:.0f} ms off the GUI thread, "
                       "{:.1f} MB); same text as the walk: {}\n",
                       l.at("rangePrefix"), l.at("rangeStatsBuild"), l.at("rangeStatsMB"),
                       l.at("rangeSame") != 0 ? "yes" : "NO");
        }
        if (!gui.empty() && gui[0].count("summaryKb")) {
            const Result& l = gui[0];
            fmt::print("  Summary HTML, every row: {:.0f} kB, built {:.1f} ms, parsed {:.1f} ms, laid out {:.1f} ms\n",
                       l.at("summaryFullKb"), l.at("summaryFullBuild"), l.at("summaryFullParse"), l.at("summaryFullLayout"));
            fmt::print("  Summary HTML, capped:    {:.0f} kB, built {:.1f} ms, parsed {:.1f} ms, laid out {:.1f} ms\n",
                       l.at("summaryKb"), l.at("summaryBuild"), l.at("summaryParse"), l.at("summaryLayout"));
            fmt::print("  Text report (plain):     {:.0f} kB, built {:.1f} ms, parsed {:.1f} ms, laid out {:.1f} ms\n",
                       l.at("reportKb"), l.at("reportBuild"), l.at("reportParse"), l.at("reportLayout"));
        }
    }
    return 0;
}

} // namespace benchgui

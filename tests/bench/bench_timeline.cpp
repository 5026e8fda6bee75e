// bubblescope-bench-timeline: paint time of the timeline with 10^6 kernels (zoomed out and zoomed in),
// and the time from opening a generated ~100 MB profile to its first painted timeline.
//   bubblescope-bench-timeline [PATH …]
//   bubblescope-bench-timeline --gui --headless=BUBBLESCOPE [--runs=N] LABEL=PATH …
// --gui (issue 18): MainWindow opening each profile offscreen, in a child process per run (median of N,
// 3): first painted timeline against the headless `analyze --json` process, longest event-loop stall,
// peak RSS, each tab's open time, whole-capture range statistics, and the trace's shape.
#include "bench_gui.h"
#include "pipeline/analysis_run.h"
#include "io/profile_loader.h"
#include "timeline_widget.h"

#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

std::shared_ptr<bs::Profile> syntheticProfile(std::size_t n) {
    auto p = std::make_shared<bs::Profile>();
    const bs::StrId names[] = {p->strings.intern("MatMulV3"), p->strings.intern("FusedInferAttentionScore_x"),
                               p->strings.intern("RmsNorm"), p->strings.intern("hcom_allReduce_1")};
    const bs::StrId types[] = {p->strings.intern("AI_CORE"), p->strings.intern("MIX_AIC"),
                               p->strings.intern("AI_VECTOR_CORE"), p->strings.intern("HCCL")};
    bs::TimeNs t = 1736408883686740710LL;
    p->kernels.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        bs::Kernel k;
        const int kind = static_cast<int>(i % 4);
        k.start = t;
        k.dur = 3000 + static_cast<bs::TimeNs>((i * 7919) % 20000);
        k.name = names[kind];
        k.taskType = types[kind];
        k.stream = kind == 3 ? 5 : 2;
        k.cls = kind == 3 ? bs::TaskClass::Comm : bs::TaskClass::ComputeCore;
        t += k.dur + 1200 + ((i % 997) == 0 ? 80000 : 0); // a bubble now and then
        p->kernels.push_back(k);
    }
    return p;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    if (argc >= 3 && std::string(argv[1]) == "--gui-one") {
        QApplication app(argc, argv);
        return benchgui::runOne(argv[2], argc >= 4 && std::string(argv[3]) == "--legacy");
    }
    if (argc >= 2 && std::string(argv[1]) == "--gui") {
        std::string headless;
        int runs = 3, first = 2;
        for (; first < argc; ++first) {
            const std::string a = argv[first];
            if (a.rfind("--headless=", 0) == 0)
                headless = a.substr(11);
            else if (a.rfind("--runs=", 0) == 0)
                runs = std::max(1, std::stoi(a.substr(7)));
            else
                break;
        }
        if (headless.empty()) {
            std::fputs("--gui needs --headless=BUBBLESCOPE (the CLI whose analyze --json is the reference)\n", stderr);
            return 2;
        }
        char self[4096];
        const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0) return 2;
        self[n] = 0;
        return benchgui::runAll(self, headless, runs, argc, argv, first);
    }
    QApplication app(argc, argv);
    {
        auto prof = syntheticProfile(1'000'000);
        auto analysis = std::make_shared<bs::AnalysisResult>(bs::analyzeProfile(*prof));
        bs::ui::TimelineWidget w;
        w.resize(1600, 900);
        w.setModel(prof, analysis);
        std::vector<double> out, in;
        for (int i = 0; i < 15; ++i)
            out.push_back(w.renderOnceMs());
        const bs::TimeNs mid = (w.dataStart() + w.dataEnd()) / 2, span = (w.dataEnd() - w.dataStart()) / 2000;
        w.setView(mid - span, mid + span);
        for (int i = 0; i < 15; ++i)
            in.push_back(w.renderOnceMs());
        std::printf("timeline, 10^6 kernels, 1600x900: zoomed-out frame median %.2f ms (target <= 16), "
                    "zoomed-in frame median %.2f ms (target <= 5)\n",
                    median(out), median(in));
    }
    for (int i = 1; i < argc; ++i) {
        QElapsedTimer t;
        t.start();
        auto found = bs::discoverProfiles(argv[i]);
        if (found.ranks.empty()) continue;
        auto load = bs::loadRank(found.ranks[0]);
        auto analysis = std::make_shared<bs::AnalysisResult>(bs::analyzeProfile(*load.profile));
        std::shared_ptr<const bs::Profile> prof(std::move(load.profile));
        bs::ui::TimelineWidget w;
        w.resize(1600, 900);
        w.setModel(prof, analysis);
        w.renderOnceMs();
        std::printf("%s: first timeline painted %.2f s after opening (target <= 3 s for ~100 MB)\n", argv[i],
                    static_cast<double>(t.elapsed()) / 1000.0);
    }
    return 0;
}

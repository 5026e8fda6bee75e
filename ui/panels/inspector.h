#pragma once
// The inspector beside the Bubbles table: what is shown for a bubble window (your code behind it, the
// kernels around it, the host evidence, candidate causes), a kernel, a host event or a selected range.
// HTML built from the core model in the window's language; the window decides where it goes.
#include "model/time.h"

#include <QCoreApplication>
#include <QString>

#include <cstddef>

namespace bs {
struct Profile;
struct AnalysisResult;
struct BubbleWindow;
} // namespace bs

namespace bs::ui {

class RangeStats;

// A kernel's launch as the timeline joined it (its flow arrow, L): the 's' of the flow (index into Profile::flows)
// and the innermost host event around it on its lane; -1 when there is none.
struct KernelLaunch {
    int flow = -1;
    int hostEvent = -1;
};

class Inspector {
    Q_DECLARE_TR_FUNCTIONS(Inspector)
  public:
    // `chosenLine`: the user line clicked (highlighted in the table), -1 for none.
    static QString bubbleHtml(const AnalysisResult& r, const BubbleWindow& w, int chosenLine);
    // The lines of the user's code behind a window; each a "line:N" link.
    static QString userLinesHtml(const BubbleWindow& w, int chosenLine);
    // The chosen line's host events and the call stack of the largest; empty when no line is chosen.
    static QString userLineStackHtml(const Profile& p, const BubbleWindow& w, int line);
    // `launch`: the timeline's join of the kernel to its launching host op ("Launched by", a link).
    static QString kernelHtml(const Profile& p, const AnalysisResult& r, int kernelIndex, KernelLaunch launch = {});
    // `depth`: the event's call depth as the timeline draws it.
    static QString hostEventHtml(const Profile& p, const AnalysisResult& r, int index, int depth);
    // Range statistics: span, busy union, idle, kernels, the top kernels by time in the range. With
    // `stats` (built for `p`) from its prefix sums, else from a walk over the kernels.
    static QString rangeHtml(const Profile& p, qint64 start, qint64 end, TimeNs* busy, std::size_t* kernels,
                             const RangeStats* stats = nullptr);
};

} // namespace bs::ui

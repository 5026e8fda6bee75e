#pragma once
// The bubble detail panel beside the Bubbles table: one chosen thing at a time — a bubble window (with the
// user line clicked in it, whose stack shows in the pane below), a kernel, a host op, a range — written by
// Inspector from the results it was given. It remembers what it shows (its Subject), so a language switch
// writes the same thing again, and it holds nothing of a previous profile: setResults empties it.
#include "model/time.h"

#include <QSplitter>

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

class QTextBrowser;
class QUrl;

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

class RangeStats;
struct KernelLaunch;

class InspectorPanel : public QSplitter {
    Q_OBJECT
  public:
    struct Subject {
        enum class Kind { Nothing, Bubble, Kernel, HostEvent, Range };
        Kind kind = Kind::Nothing;
        int index = -1;            // the window (by size), kernel or host event
        int userLine = -1;         // Bubble: the user line chosen in it, -1 none
        int depth = 0;             // HostEvent: its call depth as the timeline draws it
        TimeNs start = 0, end = 0; // Range
    };

    explicit InspectorPanel(QWidget* parent = nullptr);
    // What everything shown is read from (null: nothing loaded). Shows nothing until told what to show.
    void setResults(std::shared_ptr<const Profile> profile, std::shared_ptr<const AnalysisResult> analysis,
                    std::shared_ptr<const RangeStats> rangeStats);
    void clear() { setResults(nullptr, nullptr, nullptr); }
    // Where a kernel's launch comes from: the timeline's join (one join for the arrow, L and "Launched by").
    void setLaunchLookup(std::function<KernelLaunch(int kernel)> lookup) { launchOf_ = std::move(lookup); }

    void showBubble(int window, int userLine = -1);
    void showKernel(int kernel);
    void showHostEvent(int index, int depth);
    // Range statistics; `busy` / `kernels` (optional): the busy union and the kernels in it.
    void showRange(TimeNs start, TimeNs end, TimeNs* busy = nullptr, std::size_t* kernels = nullptr);
    // `s` again, from the current results in the current language (nothing when it is not in them).
    void show(const Subject& s);
    const Subject& subject() const { return subject_; }

    QTextBrowser* detail() const { return detail_; }
    QTextBrowser* stackPane() const { return stackPane_; }

  signals:
    void kernelLinkActivated(int kernel); // a neighbour kernel's link in a bubble's table
    void launcherLinkActivated(int kernel); // a kernel's "Launched by" link: the host op that launched it
    // A user line's link: the line is shown chosen; `hostEvents` are its events (to highlight).
    void userLineChosen(const std::vector<std::size_t>& hostEvents);

  private:
    void onLink(const QUrl& link);
    void showNothing();
    std::shared_ptr<const Profile> profile_;
    std::shared_ptr<const AnalysisResult> analysis_;
    std::shared_ptr<const RangeStats> rangeStats_;
    std::function<KernelLaunch(int)> launchOf_;
    Subject subject_;
    QTextBrowser* detail_;
    QTextBrowser* stackPane_; // the chosen user line's events and stack; hidden otherwise
};

} // namespace bs::ui

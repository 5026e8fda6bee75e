#pragma once
// GUI figures of bubblescope-bench-timeline (issue 18): MainWindow opening a profile offscreen — time to
// the first painted timeline, the event loop's longest stall, peak RSS, each tab's open time and the
// whole-capture range statistics — beside the headless `analyze --json` process on the same profile.
#include <string>

namespace benchgui {

// One window, one profile, in this process (a fresh process per run: VmHWM is per process). Prints one
// line "RESULT key=value …" for the parent; `legacy`: then a second line with what the GUI thread did
// before issue 18 (timeline tracks, Layers tree, range statistics walk), timed in this process.
int runOne(const std::string& path, bool legacy);

// For each LABEL=PATH: the headless process (`exe analyze --json`, median of runs), then `runs` child
// processes of `self --gui-one PATH`, the medians and their targets, the trace's shape.
int runAll(const std::string& self, const std::string& headlessExe, int runs, int argc, char** argv, int first);

} // namespace benchgui

#pragma once
// Call stacks as the GUI shows them (timeline tooltips, the bubble inspector): frames innermost first,
// user code marked, long runs of library frames elided. The frames and the user/library rule are the
// core's (analysis/stack_evidence.h); this only formats them.
#include <QString>

#include <string_view>

namespace bs::ui {

struct StackTextOptions {
    int maxFrames = 14;       // frames shown at most (the rest counted); the innermost is always shown
    bool fullPaths = false;   // the frame as written ("/home/u/main.py(350): train") or "main.py:350 train"
    bool elideLibrary = true; // a run of more than 3 library frames: its first and last frame and a count
};

// HTML: one frame a line, user frames bold with "●", library frames grey.
QString stackHtml(std::string_view stack, const StackTextOptions& options = {});

} // namespace bs::ui

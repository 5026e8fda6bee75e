#include "stack_text.h"

#include "analysis/stack_evidence.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <vector>

namespace bs::ui {

namespace {

QString frameHtml(const StackFrame& f, bool fullPaths) {
    const std::string text = fullPaths ? std::string(f.text) : frameLabel(f);
    const QString t = QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())).toHtmlEscaped();
    return f.user ? QStringLiteral("<b>● %1</b>").arg(t)
                  : QStringLiteral("<span style='color:#707070'>&nbsp;&nbsp;&nbsp;%1</span>").arg(t);
}

QString noteHtml(const QString& text) {
    return QStringLiteral("<span style='color:#707070'><i>&nbsp;&nbsp;&nbsp;%1</i></span>")
        .arg(text.toHtmlEscaped());
}

} // namespace

QString stackHtml(std::string_view stack, const StackTextOptions& o) {
    const auto frames = splitStack(stack);
    if (frames.empty()) return {};
    // Lines to show: every frame, with runs of more than 3 library frames cut to their ends.
    struct Line {
        int frame = -1;  // index into frames, or -1 for an elision note
        int skipped = 0; // library frames elided
    };
    std::vector<Line> lines;
    for (std::size_t i = 0; i < frames.size();) {
        std::size_t j = i;
        while (j < frames.size() && !frames[j].user)
            ++j;
        const std::size_t run = j - i; // library frames i … j-1
        if (o.elideLibrary && run > 3) {
            lines.push_back({static_cast<int>(i), 0});
            lines.push_back({-1, static_cast<int>(run - 2)});
            lines.push_back({static_cast<int>(j - 1), 0});
        } else {
            for (std::size_t k = i; k < j; ++k)
                lines.push_back({static_cast<int>(k), 0});
        }
        if (j < frames.size()) lines.push_back({static_cast<int>(j), 0});
        i = j + 1;
    }
    QStringList out;
    const int limit = std::max(1, o.maxFrames);
    int shown = 0, hidden = 0;
    for (const auto& l : lines) {
        if (shown >= limit) {
            hidden += l.frame >= 0 ? 1 : l.skipped;
            continue;
        }
        if (l.frame >= 0) {
            out << frameHtml(frames[static_cast<std::size_t>(l.frame)], o.fullPaths);
            ++shown;
        } else {
            out << noteHtml(QCoreApplication::translate("StackText", "… %1 library frames …").arg(l.skipped));
        }
    }
    if (hidden > 0)
        out << noteHtml(QCoreApplication::translate("StackText", "… %1 outer frames not shown").arg(hidden));
    return out.join(QStringLiteral("<br>"));
}

} // namespace bs::ui

#include "timeline_widget.h"

#include "analysis/analysis_run.h"
#include "model/profile.h"
#include "stack_text.h"
#include "timeline_data.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QImage>
#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace bs::ui {

double timeToX(TimeNs t, TimeNs s, TimeNs e, int width) {
    if (e <= s || width <= 0) return 0;
    return static_cast<double>(t - s) * width / static_cast<double>(e - s);
}

TimeNs xToTime(double x, TimeNs s, TimeNs e, int width) {
    if (width <= 0) return s;
    return s + static_cast<TimeNs>(std::llround(x * static_cast<double>(e - s) / width));
}

TimeNs tickStep(TimeNs s, TimeNs e, int width, int minPixels) {
    const double span = static_cast<double>(std::max<TimeNs>(1, e - s));
    const double minStep = span * minPixels / std::max(1, width);
    TimeNs step = 1;
    while (true) {
        for (TimeNs m : {1, 2, 5})
            if (static_cast<double>(step * m) >= minStep) return step * m;
        if (step > (TimeNs(1) << 60) / 10) return step;
        step *= 10;
    }
}

namespace {

// Group keys stay English (they name the lanes in settings and tests); what is shown is translated.
const char* const kGroupNames[] = {QT_TRANSLATE_NOOP("Timeline", "Host"),
                                   QT_TRANSLATE_NOOP("Timeline", "HCCL"),
                                   QT_TRANSLATE_NOOP("Timeline", "Overlap Analysis")};
QString groupTitle(const QString& key) {
    for (const char* g : kGroupNames)
        if (key == QLatin1String(g)) return QCoreApplication::translate("Timeline", g);
    return key;
}

QString durationText(TimeNs ns) {
    const double a = std::abs(static_cast<double>(ns));
    if (a >= 1e9) return QStringLiteral("%1 s").arg(static_cast<double>(ns) / 1e9, 0, 'f', 3);
    if (a >= 1e6) return QStringLiteral("%1 ms").arg(static_cast<double>(ns) / 1e6, 0, 'f', 3);
    if (a >= 1e3) return QStringLiteral("%1 µs").arg(static_cast<double>(ns) / 1e3, 0, 'f', 1);
    return QStringLiteral("%1 ns").arg(ns);
}

// Axis label with as many decimals as the tick step needs.
QString tickLabel(TimeNs t, TimeNs step) {
    struct Unit {
        double ns;
        const char* name;
    };
    const Unit units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};
    const double a = std::max(std::abs(static_cast<double>(t)), static_cast<double>(step));
    for (const auto& u : units) {
        if (a < u.ns && u.ns > 1) continue;
        int decimals = 0;
        for (double q = static_cast<double>(step) / u.ns; q < 1 && decimals < 6; q *= 10)
            ++decimals;
        return QStringLiteral("%1 %2")
            .arg(static_cast<double>(t) / u.ns, 0, 'f', decimals)
            .arg(QString::fromUtf8(u.name));
    }
    return QStringLiteral("%1 ns").arg(t);
}

QColor scopeColor(int scope) {
    switch (static_cast<WindowScope>(scope)) {
    case WindowScope::Prelaunch:
        return QColor(230, 120, 40, 70);
    case WindowScope::Tail:
        return QColor(150, 90, 200, 70);
    case WindowScope::Global:
        return QColor(120, 120, 120, 70);
    case WindowScope::StepInternal:
        break;
    }
    return QColor(220, 40, 40, 70);
}

} // namespace

struct TimelineWidget::Row {
    int track = -1; // -1: group header
    QString group;
    int y = 0, h = 0;
    bool device = false;
};

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumHeight(160);
    setAccessibleName(tr("Timeline"));
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::setModel(std::shared_ptr<const Profile> profile,
                              std::shared_ptr<const AnalysisResult> analysis) {
    profile_ = std::move(profile);
    analysis_ = std::move(analysis);
    data_ = std::make_unique<TimelineData>(buildTimelineData(*profile_, *analysis_));
    selectedBubble_ = -1;
    highlighted_.clear();
    highlightByLane_.clear();
    scrollY_ = 0;
    relayout();
    fit();
}

void TimelineWidget::clear() {
    data_.reset();
    highlighted_.clear();
    highlightByLane_.clear();
    rows_.clear();
    update();
}

TimeNs TimelineWidget::dataStart() const {
    return data_ ? data_->start : 0;
}
TimeNs TimelineWidget::dataEnd() const {
    return data_ ? data_->end : 1;
}
int TimelineWidget::trackCount() const {
    return data_ ? static_cast<int>(data_->tracks.size()) : 0;
}
QString TimelineWidget::trackName(int i) const {
    return data_ ? data_->tracks[static_cast<std::size_t>(i)].name : QString();
}

void TimelineWidget::relayout() {
    rows_.clear();
    if (!data_) return;
    int y = kAxisHeight;
    QString lastGroup;
    for (std::size_t i = 0; i < data_->tracks.size(); ++i) {
        const auto& t = data_->tracks[i];
        if (t.group != lastGroup && t.group != QStringLiteral("Device")) {
            rows_.push_back({-1, t.group, y, 18, false});
            y += 18;
        }
        lastGroup = t.group;
        if (t.collapsed) continue;
        const bool band = t.kind == TrackKind::Steps || t.kind == TrackKind::Layers;
        const int h = band ? 16 : 20;
        rows_.push_back({static_cast<int>(i), t.group, y, h,
                         t.kind == TrackKind::Stream || t.kind == TrackKind::DeviceBusy});
        y += h + 2;
    }
    update();
}

void TimelineWidget::setHighlightedHostEvents(std::vector<std::size_t> indices) {
    highlighted_.clear();
    highlightByLane_.clear();
    if (profile_) {
        for (std::size_t i : indices)
            if (i < profile_->hostEvents.size()) highlighted_.push_back(i);
        std::sort(highlighted_.begin(), highlighted_.end());
        highlighted_.erase(std::unique(highlighted_.begin(), highlighted_.end()), highlighted_.end());
        for (std::size_t i : highlighted_)
            highlightByLane_[profile_->hostEvents[i].lane].push_back(i);
    }
    // Bring the first highlighted lane into view (unfolding the host group when it is folded).
    if (!highlighted_.empty()) {
        const std::uint32_t lane = profile_->hostEvents[highlighted_.front()].lane;
        if (!rowOfLane(lane)) setGroupCollapsed(QStringLiteral("Host"), false);
        if (const Row* r = rowOfLane(lane)) {
            int total = 0;
            for (const auto& x : rows_)
                total = std::max(total, x.y + x.h);
            const int top = r->y - scrollY_;
            if (top < kAxisHeight || top + r->h > height())
                scrollY_ = std::clamp(r->y - (height() + kAxisHeight) / 2, 0, std::max(0, total - height() + 20));
        }
    }
    update();
}

const TimelineWidget::Row* TimelineWidget::rowOfLane(std::uint32_t lane) const {
    if (!data_) return nullptr;
    for (const auto& r : rows_) {
        if (r.track < 0) continue;
        const auto& t = data_->tracks[static_cast<std::size_t>(r.track)];
        if (t.kind == TrackKind::Host && t.lane == lane) return &r;
    }
    return nullptr;
}

QPoint TimelineWidget::hostEventPosition(std::size_t index) const {
    if (!profile_ || index >= profile_->hostEvents.size()) return {-1, -1};
    const auto& e = profile_->hostEvents[index];
    const Row* r = rowOfLane(e.lane);
    if (!r || e.end() <= viewStart_ || e.ts >= viewEnd_) return {-1, -1};
    const int w = width() - kLabelWidth;
    const double x0 = timeToX(std::max(e.ts, viewStart_), viewStart_, viewEnd_, w);
    const double x1 = timeToX(std::min(e.end(), viewEnd_), viewStart_, viewEnd_, w);
    return {kLabelWidth + static_cast<int>((x0 + x1) / 2), r->y - scrollY_ + r->h / 2};
}

// Highlighted host events over their lanes: an amber fill with a dark outline, at least 3 px wide so a
// µs event stays visible at any zoom. Only the highlighted events are visited (a few per window).
void TimelineWidget::paintHighlights(QPainter& p, int w) const {
    if (highlightByLane_.empty()) return;
    for (const auto& row : rows_) {
        if (row.track < 0) continue;
        const auto& t = data_->tracks[static_cast<std::size_t>(row.track)];
        if (t.kind != TrackKind::Host) continue;
        auto it = highlightByLane_.find(t.lane);
        if (it == highlightByLane_.end()) continue;
        const int y = row.y - scrollY_;
        if (y + row.h < kAxisHeight || y > height()) continue;
        for (std::size_t idx : it->second) {
            const auto& e = profile_->hostEvents[idx];
            if (e.end() <= viewStart_ || e.ts >= viewEnd_) continue;
            const double x0 = timeToX(std::max(e.ts, viewStart_), viewStart_, viewEnd_, w);
            const double x1 = timeToX(std::min(e.end(), viewEnd_), viewStart_, viewEnd_, w);
            const QRectF r(kLabelWidth + x0, y + 1, std::max(3.0, x1 - x0), row.h - 2);
            p.fillRect(r, QColor(255, 190, 0));
            p.setPen(QPen(QColor(120, 60, 0), 1));
            p.drawRect(r.adjusted(0, 0, -1, -1));
        }
    }
}

void TimelineWidget::setGroupCollapsed(const QString& group, bool collapsed) {
    if (!data_) return;
    for (auto& t : data_->tracks)
        if (t.group == group) t.collapsed = collapsed;
    relayout();
}

bool TimelineWidget::isGroupCollapsed(const QString& group) const {
    if (!data_) return false;
    for (const auto& t : data_->tracks)
        if (t.group == group) return t.collapsed;
    return false;
}

void TimelineWidget::setView(TimeNs start, TimeNs end) {
    if (end - start < 100) end = start + 100; // 100 ns minimum span
    const TimeNs pad = std::max<TimeNs>(1, (dataEnd() - dataStart()) / 20);
    start = std::max(start, dataStart() - pad);
    end = std::min(end, dataEnd() + pad);
    if (end <= start) end = start + 100;
    if (start == viewStart_ && end == viewEnd_) return;
    viewStart_ = start;
    viewEnd_ = end;
    update();
    emit viewChanged(viewStart_, viewEnd_);
}

void TimelineWidget::zoomBy(double factor, double anchorX) {
    const int w = width() - kLabelWidth;
    const TimeNs anchor = xToTime(anchorX - kLabelWidth, viewStart_, viewEnd_, w);
    const double span = static_cast<double>(viewEnd_ - viewStart_) / factor;
    const double left = static_cast<double>(anchor - viewStart_) / static_cast<double>(viewEnd_ - viewStart_);
    const TimeNs s = anchor - static_cast<TimeNs>(span * left);
    setView(s, s + static_cast<TimeNs>(span));
}

void TimelineWidget::panByPixels(double dx) {
    const int w = std::max(1, width() - kLabelWidth);
    const TimeNs dt = static_cast<TimeNs>(dx * static_cast<double>(viewEnd_ - viewStart_) / w);
    setView(viewStart_ + dt, viewEnd_ + dt);
}

void TimelineWidget::fit() {
    setView(dataStart(), dataEnd());
}

void TimelineWidget::focusRange(TimeNs start, TimeNs end) {
    const TimeNs len = std::max<TimeNs>(end - start, 1000);
    setView(start - len * 3 / 4, end + len * 3 / 4);
}

void TimelineWidget::selectBubble(int index) {
    if (!data_ || index >= static_cast<int>(data_->bubbles.size())) index = -1;
    selectedBubble_ = index;
    if (index >= 0) {
        const auto& b = data_->bubbles[static_cast<std::size_t>(index)];
        focusRange(b.start, b.end);
    }
    update();
    emit bubbleSelected(index);
}

void TimelineWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintTo(p);
}

double TimelineWidget::renderOnceMs() {
    QImage img(size(), QImage::Format_RGB32);
    QElapsedTimer t;
    t.start();
    QPainter p(&img);
    paintTo(p);
    p.end();
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

void TimelineWidget::paintTo(QPainter& p) {
    const QColor bg = palette().color(QPalette::Base);
    p.fillRect(rect(), bg);
    p.setRenderHint(QPainter::Antialiasing, false);
    if (!data_) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No profile loaded"));
        return;
    }
    const int w = width() - kLabelWidth;
    const QFont base = font();
    QFont small = base;
    small.setPointSizeF(std::max(6.5, base.pointSizeF() * 0.85));
    // Tracks.
    p.save();
    p.setClipRect(0, kAxisHeight, width(), height() - kAxisHeight);
    int deviceTop = -1, deviceBottom = -1;
    for (const auto& row : rows_) {
        const int y = row.y - scrollY_;
        if (y + row.h < kAxisHeight || y > height()) {
            if (row.device) {
                if (deviceTop < 0) deviceTop = y;
                deviceBottom = y + row.h;
            }
            continue;
        }
        if (row.track < 0) {
            p.fillRect(0, y, width(), row.h, palette().color(QPalette::AlternateBase));
            p.setPen(palette().color(QPalette::Text));
            p.setFont(base);
            const bool collapsed = isGroupCollapsed(row.group);
            p.drawText(QRect(6, y, kLabelWidth + 200, row.h), Qt::AlignVCenter | Qt::AlignLeft,
                       (collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + groupTitle(row.group));
            continue;
        }
        const auto& t = data_->tracks[static_cast<std::size_t>(row.track)];
        if (row.device) {
            if (deviceTop < 0) deviceTop = y;
            deviceBottom = y + row.h;
        }
        // Visible slice: first item that can reach viewStart, then until viewEnd.
        auto first = std::lower_bound(t.items.begin(), t.items.end(), viewStart_ - t.maxDuration,
                                      [](const TimelineItem& i, TimeNs v) { return i.start < v; });
        auto last = std::lower_bound(first, t.items.end(), viewEnd_,
                                     [](const TimelineItem& i, TimeNs v) { return i.start < v; });
        int pendingX0 = -1, pendingX1 = -1;
        std::uint16_t pendingColor = 0;
        int merged = 0;
        auto flush = [&] {
            if (pendingX0 < 0) return;
            const QColor c = data_->palette[pendingColor];
            p.fillRect(kLabelWidth + pendingX0, y + 1, std::max(1, pendingX1 - pendingX0), row.h - 2,
                       merged > 1 ? c.darker(115) : c);
            pendingX0 = -1;
            merged = 0;
        };
        if (last - first > 2 * w) {
            // Level of detail: more items than pixels. Walk pixel by pixel: the union of the items that
            // start before time T is [.., prefixMaxEnd), so each step covers at least one pixel column
            // and costs one binary search — O(width × log n) whatever the item count.
            const double nsPerPx = static_cast<double>(viewEnd_ - viewStart_) / w;
            TimeNs T = viewStart_;
            while (T < viewEnd_) {
                auto idx = std::lower_bound(t.items.begin(), t.items.end(), T,
                                            [](const TimelineItem& i, TimeNs v) { return i.start < v; });
                const std::size_t k = static_cast<std::size_t>(idx - t.items.begin());
                const TimeNs cov = k > 0 ? t.prefixMaxEnd[k - 1] : INT64_MIN;
                if (cov > T) {
                    const int x0 =
                        std::clamp(static_cast<int>(std::floor(timeToX(T, viewStart_, viewEnd_, w))), 0, w);
                    const TimeNs runEnd = std::min(cov, viewEnd_);
                    int x1 = std::clamp(static_cast<int>(std::ceil(timeToX(runEnd, viewStart_, viewEnd_, w))),
                                        0, w);
                    x1 = std::max(x1, x0 + 1);
                    const std::uint16_t color = t.items[k - 1].color;
                    if (pendingX0 >= 0 && x0 <= pendingX1) {
                        pendingX1 = std::max(pendingX1, x1);
                        ++merged;
                    } else {
                        flush();
                        pendingX0 = x0;
                        pendingX1 = x1;
                        pendingColor = color;
                        merged = 2;
                    }
                    // Continue from the next pixel boundary after the run.
                    T = viewStart_ + static_cast<TimeNs>(std::ceil(static_cast<double>(x1) * nsPerPx));
                    if (T <= runEnd) T = runEnd + 1;
                } else {
                    if (idx == t.items.end() || idx->start >= viewEnd_) break;
                    T = idx->start + 1; // jump over the idle gap to the next item (now covered)
                    T = std::max(T, idx->start);
                }
            }
            flush();
            continue;
        }
        for (auto it = first; it != last; ++it) {
            if (it->end <= viewStart_) continue;
            int x0 = static_cast<int>(
                std::floor(timeToX(std::max(it->start, viewStart_), viewStart_, viewEnd_, w)));
            int x1 =
                static_cast<int>(std::ceil(timeToX(std::min(it->end, viewEnd_), viewStart_, viewEnd_, w)));
            x0 = std::clamp(x0, 0, w);
            x1 = std::clamp(std::max(x1, x0 + 1), 0, w);
            // Merge runs that touch the same pixel column (sub-pixel items fold into one rectangle).
            if (pendingX0 >= 0 && x0 <= pendingX1 && (it->color == pendingColor || x1 - x0 <= 1)) {
                pendingX1 = std::max(pendingX1, x1);
                ++merged;
                continue;
            }
            flush();
            pendingX0 = x0;
            pendingX1 = x1;
            pendingColor = it->color;
            merged = 1;
            // Names on wide items.
            if (x1 - x0 > 60 &&
                (t.kind == TrackKind::Stream || t.kind == TrackKind::Layers || t.kind == TrackKind::Steps)) {
                flush();
                QString label;
                if (t.kind == TrackKind::Stream)
                    label = QString::fromUtf8(
                        profile_->str(profile_->kernels[it->ref].name).data(),
                        static_cast<qsizetype>(profile_->str(profile_->kernels[it->ref].name).size()));
                else if (t.kind == TrackKind::Steps)
                    label = QString::fromStdString(analysis_->steps.steps[it->ref].label);
                else {
                    const auto& s = analysis_->architecture.structures[it->ref];
                    label = QString::fromStdString(s.type) +
                            (s.layerInPass >= 0 ? QStringLiteral(" L%1").arg(s.layerInPass) : QString());
                }
                p.setPen(Qt::white);
                p.setFont(small);
                p.drawText(QRect(kLabelWidth + x0 + 3, y, x1 - x0 - 6, row.h),
                           Qt::AlignVCenter | Qt::AlignLeft,
                           p.fontMetrics().elidedText(label, Qt::ElideRight, x1 - x0 - 6));
            }
        }
        flush();
    }
    paintHighlights(p, w);
    // Bubble bands across the device tracks.
    if (deviceTop >= 0) {
        for (std::size_t i = 0; i < data_->bubbles.size(); ++i) {
            const auto& b = data_->bubbles[i];
            if (b.end <= viewStart_ || b.start >= viewEnd_) continue;
            const double x0 = timeToX(std::max(b.start, viewStart_), viewStart_, viewEnd_, w);
            const double x1 = timeToX(std::min(b.end, viewEnd_), viewStart_, viewEnd_, w);
            const QRectF r(kLabelWidth + x0, deviceTop, std::max(2.0, x1 - x0), deviceBottom - deviceTop);
            p.fillRect(r, scopeColor(b.scope));
            if (static_cast<int>(i) == selectedBubble_) {
                p.setPen(QPen(QColor(200, 20, 20), 2));
                p.drawRect(r.adjusted(1, 1, -1, -1));
            }
            if (b.rank <= 5) {
                const QRectF badge(kLabelWidth + x0 + (x1 - x0) / 2 - 8, deviceTop + 2, 16, 16);
                p.setRenderHint(QPainter::Antialiasing, true);
                p.setBrush(QColor(200, 30, 30));
                p.setPen(Qt::NoPen);
                p.drawEllipse(badge);
                p.setPen(Qt::white);
                p.setFont(small);
                p.drawText(badge, Qt::AlignCenter, QString::number(b.rank));
                p.setBrush(Qt::NoBrush);
                p.setRenderHint(QPainter::Antialiasing, false);
            }
        }
    }
    if (rangeSelecting_ || rangeA_ != rangeB_) {
        const double x0 = timeToX(std::min(rangeA_, rangeB_), viewStart_, viewEnd_, w);
        const double x1 = timeToX(std::max(rangeA_, rangeB_), viewStart_, viewEnd_, w);
        p.fillRect(QRectF(kLabelWidth + x0, kAxisHeight, x1 - x0, height()), QColor(40, 120, 220, 40));
    }
    p.restore();
    // Labels column.
    p.fillRect(0, kAxisHeight, kLabelWidth, height(), palette().color(QPalette::Window));
    for (const auto& row : rows_) {
        const int y = row.y - scrollY_;
        if (y + row.h < kAxisHeight || y > height()) continue;
        if (row.track < 0) {
            p.fillRect(0, y, kLabelWidth, row.h, palette().color(QPalette::AlternateBase));
            p.setPen(palette().color(QPalette::Text));
            p.setFont(base);
            p.drawText(QRect(6, y, kLabelWidth - 8, row.h), Qt::AlignVCenter,
                       (isGroupCollapsed(row.group) ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) +
                           groupTitle(row.group));
            continue;
        }
        const auto& t = data_->tracks[static_cast<std::size_t>(row.track)];
        p.setPen(palette().color(QPalette::WindowText));
        p.setFont(base);
        const QString text = t.detail.isEmpty() ? t.name : t.name + QStringLiteral("  ") + t.detail;
        p.drawText(QRect(8, y, kLabelWidth - 12, row.h), Qt::AlignVCenter,
                   p.fontMetrics().elidedText(text, Qt::ElideRight, kLabelWidth - 12));
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(kLabelWidth - 1, kAxisHeight, kLabelWidth - 1, height());
    // Axis: adaptive ticks relative to the start of the data.
    p.fillRect(0, 0, width(), kAxisHeight, palette().color(QPalette::Window));
    const TimeNs step = tickStep(viewStart_, viewEnd_, w);
    // Same origin as the tables and reports: the first device kernel.
    const TimeNs origin =
        analysis_ && analysis_->anomaly.captureEnd > 0 ? analysis_->anomaly.captureStart : dataStart();
    TimeNs t0 = viewStart_ - origin;
    t0 = (t0 >= 0 ? t0 / step : (t0 - step + 1) / step) * step + origin;
    p.setFont(small);
    for (TimeNs t = t0; t <= viewEnd_; t += step) {
        const double x = kLabelWidth + timeToX(t, viewStart_, viewEnd_, w);
        if (x < kLabelWidth) continue;
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(QPointF(x, kAxisHeight - 6), QPointF(x, kAxisHeight));
        p.setPen(QColor(0, 0, 0, 25));
        p.drawLine(QPointF(x, kAxisHeight), QPointF(x, height()));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRectF(x + 3, 2, 120, kAxisHeight - 8), Qt::AlignLeft | Qt::AlignVCenter,
                   tickLabel(t - origin, step));
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(6, 0, kLabelWidth - 8, kAxisHeight), Qt::AlignVCenter,
               tr("View %1").arg(durationText(viewEnd_ - viewStart_)));
}

const TimelineWidget::Row* TimelineWidget::rowAt(int y) const {
    for (const auto& r : rows_)
        if (y >= r.y - scrollY_ && y < r.y - scrollY_ + r.h) return &r;
    return nullptr;
}

int TimelineWidget::hitItem(const Row& row, double x) const {
    if (row.track < 0) return -1;
    const auto& t = data_->tracks[static_cast<std::size_t>(row.track)];
    const int w = width() - kLabelWidth;
    const TimeNs at = xToTime(x - kLabelWidth, viewStart_, viewEnd_, w);
    const TimeNs slop = xToTime(3, 0, viewEnd_ - viewStart_, w);
    auto it = std::lower_bound(t.items.begin(), t.items.end(), at - t.maxDuration - slop,
                               [](const TimelineItem& i, TimeNs v) { return i.start < v; });
    int best = -1;
    for (; it != t.items.end() && it->start <= at + slop; ++it)
        if (it->end + slop >= at) best = static_cast<int>(it - t.items.begin());
    return best;
}

QString TimelineWidget::tooltipFor(const Row& row, int item) const {
    const auto& t = data_->tracks[static_cast<std::size_t>(row.track)];
    const auto& it = t.items[static_cast<std::size_t>(item)];
    const TimeNs origin = analysis_->anomaly.captureEnd > 0 ? analysis_->anomaly.captureStart : dataStart();
    const QString span =
        tr("start %1, duration %2").arg(durationText(it.start - origin), durationText(it.end - it.start));
    switch (t.kind) {
    case TrackKind::Stream: {
        const Kernel& k = profile_->kernels[it.ref];
        return QStringLiteral("<b>%1</b><br>%2<br>%3: %4, %5: %6<br>%7")
            .arg(QString::fromStdString(std::string(profile_->str(k.name))).toHtmlEscaped(), span,
                 tr("task type"), QString::fromStdString(std::string(profile_->str(k.taskType))), tr("wait"),
                 durationText(k.wait),
                 QString::fromStdString(std::string(profile_->str(k.inputShapes))).toHtmlEscaped());
    }
    case TrackKind::Steps:
        return QStringLiteral("<b>%1</b><br>%2")
            .arg(QString::fromStdString(analysis_->steps.steps[it.ref].label), span);
    case TrackKind::Layers: {
        const auto& s = analysis_->architecture.structures[it.ref];
        return QStringLiteral("<b>%1 %2</b><br>%3<br>%4 %5, %6 %7")
            .arg(QString::fromStdString(s.id), QString::fromStdString(s.type), span, tr("busy"),
                 durationText(s.all.busyUnion), tr("kernel sum"), durationText(s.all.kernelSum));
    }
    case TrackKind::DeviceBusy:
        return tr("Device busy") + QStringLiteral("<br>") + span;
    case TrackKind::Host:
    case TrackKind::Hccl:
    case TrackKind::Overlap: {
        const auto& evs = t.kind == TrackKind::Host
                              ? profile_->hostEvents
                              : (t.kind == TrackKind::Hccl ? profile_->hcclEvents : profile_->overlapEvents);
        const auto& e = evs[it.ref];
        QString tip = QStringLiteral("<b>%1</b><br>%2")
                          .arg(QString::fromStdString(std::string(profile_->str(e.name))).toHtmlEscaped(), span);
        // The Python call stack of a host op, innermost first, user code marked (with_stack=True).
        if (t.kind == TrackKind::Host && e.stack) {
            const QString stack = stackHtml(profile_->str(e.stack));
            if (!stack.isEmpty())
                tip += QStringLiteral("<br><br><b>%1</b><br>%2").arg(tr("Call stack (innermost first, ● your code):"), stack);
        }
        return tip;
    }
    }
    return span;
}

bool TimelineWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && data_) {
        auto* he = static_cast<QHelpEvent*>(e);
        const Row* row = rowAt(he->pos().y());
        if (row && row->track >= 0 && he->pos().x() > kLabelWidth) {
            const int item = hitItem(*row, he->pos().x());
            if (item >= 0) {
                QToolTip::showText(he->globalPos(), tooltipFor(*row, item), this);
                return true;
            }
            for (const auto& b : data_->bubbles) {
                const int w = width() - kLabelWidth;
                const TimeNs at = xToTime(he->pos().x() - kLabelWidth, viewStart_, viewEnd_, w);
                if (row->device && at >= b.start && at < b.end) {
                    QToolTip::showText(
                        he->globalPos(),
                        tr("Bubble %1: %2 device idle").arg(b.id, durationText(b.end - b.start)), this);
                    return true;
                }
            }
        }
        QToolTip::hideText();
        e->ignore();
        return true;
    }
    return QWidget::event(e);
}

void TimelineWidget::wheelEvent(QWheelEvent* e) {
    const QPoint d = e->angleDelta();
    if (e->modifiers() & Qt::ControlModifier) {
        zoomBy(std::pow(1.0015, d.y()), e->position().x());
    } else if (d.x() != 0 || (e->modifiers() & Qt::ShiftModifier)) {
        panByPixels(-(d.x() != 0 ? d.x() : d.y()) / 2.0);
    } else {
        int total = 0;
        for (const auto& r : rows_)
            total = std::max(total, r.y + r.h);
        scrollY_ = std::clamp(scrollY_ - d.y() / 2, 0, std::max(0, total - height() + 20));
        update();
    }
    e->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* e) {
    pressPos_ = e->pos();
    pressStart_ = viewStart_;
    pressEnd_ = viewEnd_;
    if (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier)) {
        rangeSelecting_ = true;
        rangeA_ = rangeB_ = xToTime(e->pos().x() - kLabelWidth, viewStart_, viewEnd_, width() - kLabelWidth);
    } else if (e->button() == Qt::LeftButton) {
        dragging_ = true;
    }
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* e) {
    const int w = width() - kLabelWidth;
    if (rangeSelecting_) {
        rangeB_ = xToTime(e->pos().x() - kLabelWidth, viewStart_, viewEnd_, w);
        update();
    } else if (dragging_ && (e->buttons() & Qt::LeftButton)) {
        const TimeNs dt = static_cast<TimeNs>((pressPos_.x() - e->pos().x()) *
                                              static_cast<double>(pressEnd_ - pressStart_) / std::max(1, w));
        setView(pressStart_ + dt, pressEnd_ + dt);
    }
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* e) {
    if (rangeSelecting_) {
        rangeSelecting_ = false;
        if (rangeA_ != rangeB_) emit rangeSelected(std::min(rangeA_, rangeB_), std::max(rangeA_, rangeB_));
        update();
        return;
    }
    dragging_ = false;
    if ((e->pos() - pressPos_).manhattanLength() > 3 || !data_) return;
    rangeA_ = rangeB_ = 0;
    const Row* row = rowAt(e->pos().y());
    if (!row) return;
    if (row->track < 0) {
        setGroupCollapsed(row->group, !isGroupCollapsed(row->group));
        return;
    }
    if (e->pos().x() <= kLabelWidth) return;
    const int item = hitItem(*row, e->pos().x());
    const auto& t = data_->tracks[static_cast<std::size_t>(row->track)];
    if (item >= 0 && t.kind == TrackKind::Stream) {
        emit kernelClicked(static_cast<int>(t.items[static_cast<std::size_t>(item)].ref));
        return;
    }
    const TimeNs at = xToTime(e->pos().x() - kLabelWidth, viewStart_, viewEnd_, width() - kLabelWidth);
    for (std::size_t i = 0; i < data_->bubbles.size(); ++i)
        if (row->device && at >= data_->bubbles[i].start && at < data_->bubbles[i].end) {
            selectedBubble_ = static_cast<int>(i);
            update();
            emit bubbleSelected(selectedBubble_);
            return;
        }
}

void TimelineWidget::keyPressEvent(QKeyEvent* e) {
    const double mid = kLabelWidth + (width() - kLabelWidth) / 2.0;
    switch (e->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.5, mid);
        break;
    case Qt::Key_S:
    case Qt::Key_Minus:
        zoomBy(1 / 1.5, mid);
        break;
    case Qt::Key_A:
        panByPixels(-(width() - kLabelWidth) / 5.0);
        break;
    case Qt::Key_D:
        panByPixels((width() - kLabelWidth) / 5.0);
        break;
    case Qt::Key_F:
        fit();
        break;
    case Qt::Key_N:
    case Qt::Key_P: {
        if (!data_ || data_->bubbles.empty()) break;
        const int n = static_cast<int>(data_->bubbles.size());
        int next = selectedBubble_ < 0 ? 0 : selectedBubble_ + (e->key() == Qt::Key_N ? 1 : -1);
        next = (next % n + n) % n;
        selectBubble(next);
        break;
    }
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

} // namespace bs::ui

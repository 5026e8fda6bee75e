// The timeline's input: wheel, mouse (pan, range, click to select, the label column's edge, the launch
// arrow's host end), keys (zoom around the mouse, pan, fit, bubbles, search matches, L along the launch flow,
// Esc) and tooltips.
#include "pipeline/analysis_run.h"
#include "language.h"
#include "model/profile.h"
#include "stack_text.h"
#include "timeline_data.h"
#include "timeline_layout.h"
#include "timeline_render.h"
#include "timeline_keys.h"
#include "timeline_widget.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace bs::ui {

namespace {
constexpr int kEdgeSlop = 4;    // px either side of the label column's edge that grab it
constexpr double kHandle = 9.0; // px around the launch arrow's host end that take a click
QString qs(std::string_view v) {
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}
} // namespace

const TimelineRow* TimelineWidget::rowAt(int y) const {
    const TimelineGeometry g = geometry();
    for (const auto& r : rows_)
        if (g.onScreen(r) && y >= g.top(r) && y < g.top(r) + r.h) return &r;
    return nullptr;
}

int TimelineWidget::hitItem(const TimelineRow& row, double x) const {
    if (row.track < 0) return -1;
    const auto& t = data_->tracks[static_cast<std::size_t>(row.track)];
    const ItemSeries& s =
        row.level >= 0 && static_cast<std::size_t>(row.level) < t.levels.size() ? t.levels[static_cast<std::size_t>(row.level)] : t;
    const int w = std::max(1, width() - labelWidth_);
    const TimeNs at = xToTime(x - labelWidth_, viewStart_, viewEnd_, w);
    const TimeNs slop = xToTime(3, 0, viewEnd_ - viewStart_, w);
    auto it = std::lower_bound(s.items.begin(), s.items.end(), at - s.maxDuration - slop,
                               [](const TimelineItem& i, TimeNs v) { return i.start < v; });
    // The innermost (last started) item under the cursor; its index in the track's own items.
    const TimelineItem* best = nullptr;
    for (; it != s.items.end() && it->start <= at + slop; ++it)
        if (it->end + slop >= at) best = &*it;
    if (!best) return -1;
    if (&s == &t) return static_cast<int>(best - t.items.data());
    auto i = std::lower_bound(t.items.begin(), t.items.end(), best->start,
                              [](const TimelineItem& a, TimeNs v) { return a.start < v; });
    for (; i != t.items.end() && i->start == best->start; ++i)
        if (i->ref == best->ref) return static_cast<int>(i - t.items.begin());
    return -1;
}

QString TimelineWidget::kernelTooltip(std::uint32_t kernel, const QString& span) const {
    const Kernel& k = profile_->kernels[kernel];
    QString tip = QStringLiteral("<b>%1</b><br>%2<br>%3: %4, %5: %6<br>%7")
                      .arg(qs(profile_->str(k.name)).toHtmlEscaped(), span, tr("task type"), qs(profile_->str(k.taskType)),
                           tr("wait"), durationText(k.wait), qs(profile_->str(k.inputShapes)).toHtmlEscaped());
    const auto [first, last] = data_->linksOf(kernel);
    if (first != last) {
        const QString host = first->hostEvent != FlowLink::kNone
                                 ? qs(profile_->str(profile_->hostEvents[first->hostEvent].name))
                                 : tr("unknown host event");
        tip += QStringLiteral("<br>%1 <b>%2</b> (%3)<br>%4: %5")
                   .arg(tr("launched by"), host.toHtmlEscaped(), qs(profile_->str(profile_->flows[first->flow].cat)),
                        tr("launch latency"), durationText(k.start - first->startTs));
        // A tooltip takes no click: the way to the host op is the key (or the arrow's host end).
        if (first->hostEvent != FlowLink::kNone && static_cast<int>(kernel) == selectedKernel_)
            tip += QStringLiteral("<br><i>%1</i>").arg(tr("L: go to the host op and back"));
    }
    return tip;
}

QString TimelineWidget::hostTooltip(std::uint32_t event, const QString& span) const {
    const TraceEvent& e = profile_->hostEvents[event];
    const auto t = data_->laneTrack.find(e.lane);
    const QString thread = t == data_->laneTrack.end() ? QString() : data_->tracks[static_cast<std::size_t>(t->second)].name;
    QString tip = QStringLiteral("<b>%1</b><br>%2<br>%3: %4, %5: %6")
                      .arg(qs(profile_->str(e.name)).toHtmlEscaped(), span, tr("thread"), thread.toHtmlEscaped(),
                           tr("depth"), QString::number(data_->hostDepth[event]));
    if (e.cat) tip += QStringLiteral(", %1: %2").arg(tr("category"), qs(profile_->str(e.cat)).toHtmlEscaped());
    // The Python call stack of a host op, innermost first, user code marked (with_stack=True).
    if (e.stack) {
        const QString stack = stackHtml(profile_->str(e.stack));
        if (!stack.isEmpty())
            tip += QStringLiteral("<br><br><b>%1</b><br>%2").arg(tr("Call stack (innermost first, ● your code):"), stack);
    }
    return tip;
}

QString TimelineWidget::tooltipFor(const TimelineRow& row, int item) const {
    const auto& t = data_->tracks[static_cast<std::size_t>(row.track)];
    const auto& it = t.items[static_cast<std::size_t>(item)];
    const QString span = tr("start %1, duration %2").arg(durationText(it.start - origin()), durationText(it.end - it.start));
    switch (t.kind) {
    case TrackKind::Stream:
        return kernelTooltip(it.ref, span);
    case TrackKind::Steps:
        return QStringLiteral("<b>%1</b><br>%2").arg(coreText(analysis_->steps.steps[it.ref].label), span);
    case TrackKind::Layers: {
        const auto& s = analysis_->architecture.structures[it.ref];
        return QStringLiteral("<b>%1 %2</b><br>%3<br>%4 %5, %6 %7")
            .arg(coreText(s.id), coreText(s.type), span, tr("busy"),
                 durationText(s.all.busyUnion), tr("kernel sum"), durationText(s.all.kernelSum));
    }
    case TrackKind::DeviceBusy:
        return tr("Device busy") + QStringLiteral("<br>") + span;
    case TrackKind::Host:
        return hostTooltip(it.ref, span);
    case TrackKind::Hccl:
    case TrackKind::Overlap: {
        const auto& e = (t.kind == TrackKind::Hccl ? profile_->hcclEvents : profile_->overlapEvents)[it.ref];
        return QStringLiteral("<b>%1</b><br>%2").arg(qs(profile_->str(e.name)).toHtmlEscaped(), span);
    }
    }
    return span;
}

bool TimelineWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && data_) {
        auto* he = static_cast<QHelpEvent*>(e);
        const TimelineRow* row = rowAt(he->pos().y());
        // Over the label column: the full lane name when the label is cut.
        if (row && row->track >= 0 && he->pos().x() < labelWidth_ && isTrackLabelCut(row->track)) {
            QToolTip::showText(he->globalPos(), trackLabelText(row->track), this);
            return true;
        }
        if (row && row->track >= 0 && he->pos().x() > labelWidth_) {
            const int item = hitItem(*row, he->pos().x());
            if (item >= 0) {
                QToolTip::showText(he->globalPos(), tooltipFor(*row, item), this);
                return true;
            }
            const TimeNs at = xToTime(he->pos().x() - labelWidth_, viewStart_, viewEnd_, std::max(1, width() - labelWidth_));
            for (const auto& b : data_->bubbles)
                if (row->device && at >= b.start && at < b.end) {
                    QToolTip::showText(he->globalPos(), tr("Bubble %1: %2 device idle").arg(b.id, durationText(b.end - b.start)), this);
                    return true;
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
        scrollY_ = std::clamp(scrollY_ - d.y() / 2, 0, maxScroll());
        update();
    }
    e->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* e) {
    pressPos_ = e->pos();
    pressStart_ = viewStart_;
    pressEnd_ = viewEnd_;
    if (e->button() != Qt::LeftButton) return;
    if (std::abs(e->pos().x() - labelWidth_) <= kEdgeSlop && e->pos().y() > kAxisHeight) {
        resizingLabel_ = true;
    } else if (e->modifiers() & Qt::ShiftModifier) {
        rangeSelecting_ = true;
        rangeA_ = rangeB_ = xToTime(e->pos().x() - labelWidth_, viewStart_, viewEnd_, std::max(1, width() - labelWidth_));
    } else {
        dragging_ = true;
    }
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* e) {
    lastMouse_ = e->pos();
    const int w = std::max(1, width() - labelWidth_);
    if (resizingLabel_) {
        setLabelWidth(e->pos().x());
    } else if (rangeSelecting_) {
        rangeB_ = xToTime(e->pos().x() - labelWidth_, viewStart_, viewEnd_, w);
        update();
    } else if (dragging_ && (e->buttons() & Qt::LeftButton)) {
        const TimeNs dt = static_cast<TimeNs>((pressPos_.x() - e->pos().x()) * static_cast<double>(pressEnd_ - pressStart_) / w);
        setView(pressStart_ + dt, pressEnd_ + dt);
    } else if (e->buttons() == Qt::NoButton) {
        const bool onEdge = std::abs(e->pos().x() - labelWidth_) <= kEdgeSlop && e->pos().y() > kAxisHeight;
        if (onEdge) setCursor(Qt::SplitHCursor);
        else unsetCursor();
    }
}

void TimelineWidget::leaveEvent(QEvent* e) {
    lastMouse_ = {-1, -1};
    QWidget::leaveEvent(e);
}

// A click on the selected kernel's launch arrow at its host end selects and centres the host op.
bool TimelineWidget::clickFlowHandle(QPoint pos) {
    if (selectedKernel_ < 0 || !data_) return false;
    const auto [first, last] = data_->linksOf(static_cast<std::uint32_t>(selectedKernel_));
    const auto g = geometry();
    for (const FlowLink* l = first; l != last; ++l) {
        if (l->hostEvent == FlowLink::kNone) continue;
        const auto line = flowArrowLine(*l, *data_, *profile_, rows_, g);
        if (!line || QLineF(line->p1(), QPointF(pos)).length() > kHandle) continue;
        const auto& ev = profile_->hostEvents[l->hostEvent];
        setSelectedHostEvent(static_cast<int>(l->hostEvent));
        flowFromKernel_ = static_cast<int>(l->kernel);
        centreOn(ev.ts, std::max(ev.end(), ev.ts + 1));
        emit hostEventClicked(static_cast<int>(l->hostEvent));
        return true;
    }
    return false;
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* e) {
    if (resizingLabel_) {
        resizingLabel_ = false;
        return;
    }
    if (rangeSelecting_) {
        rangeSelecting_ = false;
        if (rangeA_ != rangeB_) emit rangeSelected(std::min(rangeA_, rangeB_), std::max(rangeA_, rangeB_));
        update();
        return;
    }
    dragging_ = false;
    if ((e->pos() - pressPos_).manhattanLength() > 3 || !data_) return;
    rangeA_ = rangeB_ = 0;
    if (clickFlowHandle(e->pos())) return;
    const TimelineRow* row = rowAt(e->pos().y());
    if (!row) return;
    if (row->emptyLanes > 0) { // "N lanes empty in view": show them, or hide them again
        setEmptyLanesShown(row->group, !row->emptyShown);
        return;
    }
    if (row->track < 0) {
        setGroupCollapsed(row->group, !isGroupCollapsed(row->group));
        return;
    }
    const auto& t = data_->tracks[static_cast<std::size_t>(row->track)];
    if (e->pos().x() <= labelWidth_) {
        if (t.kind == TrackKind::Host && t.levels.size() > 1) setHostDepthFolded(row->track, !t.depthFolded);
        return;
    }
    const int item = hitItem(*row, e->pos().x());
    if (item >= 0 && t.kind == TrackKind::Stream) {
        selectedKernel_ = static_cast<int>(t.items[static_cast<std::size_t>(item)].ref);
        lastPicked_ = Picked::Kernel;
        update();
        emit kernelClicked(selectedKernel_);
        return;
    }
    if (item >= 0 && t.kind == TrackKind::Host) {
        selectedHostEvent_ = static_cast<int>(t.items[static_cast<std::size_t>(item)].ref);
        lastPicked_ = Picked::HostEvent;
        update();
        emit hostEventClicked(selectedHostEvent_);
        return;
    }
    // A step or a layer: zoom onto it, its span marked.
    if (item >= 0 && (t.kind == TrackKind::Steps || t.kind == TrackKind::Layers)) {
        const auto& it = t.items[static_cast<std::size_t>(item)];
        focusRange(it.start, it.end);
        markRange(it.start, it.end);
        if (t.kind == TrackKind::Steps) emit stepClicked(static_cast<int>(it.ref));
        return;
    }
    const TimeNs at = xToTime(e->pos().x() - labelWidth_, viewStart_, viewEnd_, std::max(1, width() - labelWidth_));
    for (std::size_t i = 0; i < data_->bubbles.size(); ++i)
        if (row->device && at >= data_->bubbles[i].start && at < data_->bubbles[i].end) {
            selectedBubble_ = static_cast<int>(i);
            update();
            emit bubbleSelected(selectedBubble_);
            return;
        }
}

void TimelineWidget::keyPressEvent(QKeyEvent* e) {
    // The view keys (timeline_keys.h) around the mouse when it is over the plot, else around the middle.
    const bool overPlot = lastMouse_.x() > labelWidth_ && rect().contains(lastMouse_);
    const double anchor = overPlot ? lastMouse_.x() : labelWidth_ + (width() - labelWidth_) / 2.0;
    const bool shift = e->modifiers() & Qt::ShiftModifier;
    if (applyViewKey(*this, viewKeyOf(e->key(), false), anchor, width() - labelWidth_)) {
        e->accept();
        return;
    }
    switch (e->key()) {
    case Qt::Key_N:
    case Qt::Key_P: {
        if (!data_ || data_->bubbles.empty()) break;
        const int n = static_cast<int>(data_->bubbles.size());
        int next = selectedBubble_ < 0 ? 0 : selectedBubble_ + (e->key() == Qt::Key_N ? 1 : -1);
        next = (next % n + n) % n;
        selectBubble(next);
        break;
    }
    case Qt::Key_F3:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (matches_.empty()) {
            QWidget::keyPressEvent(e);
            return;
        }
        shift ? previousMatch() : nextMatch();
        break;
    case Qt::Key_L: // along the launch flow: kernel → host op → kernel
        if (!followLaunchFlow()) {
            QWidget::keyPressEvent(e);
            return;
        }
        break;
    case Qt::Key_Escape:
        clearSelection();
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

} // namespace bs::ui

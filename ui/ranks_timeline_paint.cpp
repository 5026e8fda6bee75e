// The Ranks timeline's frame, in passes over the row groups in view: backgrounds, the last arrivers'
// highlights, the lanes (pixel runs), the waits for the last arriver, the arrival ticks, the label column,
// the ruler.
#include "ranks_timeline.h"

#include "cluster/cluster_model.h"
#include "cluster_models.h"
#include "timeline_render.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <vector>

namespace bs::ui {

namespace {

const QColor kBusy(0x3b, 0x7d, 0xd8);
const QColor kComm(0x2a, 0x9d, 0x8f);
const QColor kStepA(0xc9, 0xd3, 0xe0), kStepB(0xe3, 0xe9, 0xf1);
const QColor kWait(0xf0, 0x9a, 0x28,
                   215); // over the lanes: the wait reads as orange, the lanes faintly through it
const QColor kLast(0xd9, 0x45, 0x3f);
const QColor kLastRow(0xfb, 0xd9, 0xd5);
const QColor kSlow(0xc0, 0x28, 0x1e);

} // namespace

class RanksPainter {
  public:
    RanksPainter(const RanksTimeline& w, QPainter& p) : w_(w), p_(p), c_(*w.cluster_) {
        const int h = w.groupHeight();
        first_ = std::max(0, w.scrollY_ / h);
        last_ = std::min(w.rankCount() - 1, (w.scrollY_ + w.height() - RanksTimeline::kAxisHeight) / h);
        plot_ = QRect(w.labelWidth_, RanksTimeline::kAxisHeight, w.plotWidth(),
                      w.height() - RanksTimeline::kAxisHeight);
    }

    void paint() {
        p_.save();
        p_.setClipRect(plot_);
        backgrounds();
        lastArriverRows();
        lanes();
        waits();
        ticks();
        selection();
        p_.restore();
        labels();
        ruler();
    }

  private:
    bool visible(int rank) const { return rank >= first_ && rank <= last_; }
    // [a, b) display times as a rectangle over `lane`'s rows (clipped to the plot by the painter).
    QRectF span(TimeNs a, TimeNs b, int top, int height) const {
        const double x0 = w_.xOf(a), x1 = std::max(w_.xOf(b), x0 + 1);
        return QRectF(x0, top, x1 - x0, height);
    }
    bool inView(TimeNs a, TimeNs b) const { return b >= w_.viewStart_ && a <= w_.viewEnd_; }

    void backgrounds() {
        p_.fillRect(plot_, w_.palette().base());
        for (int r = first_; r <= last_; ++r)
            if (r % 2) p_.fillRect(w_.rankGroupRect(r), QColor(0xf6, 0xf6, 0xf6));
    }

    // The selected rank: a frame, so the highlights inside its row stay visible.
    void selection() {
        if (!visible(w_.selected_)) return;
        p_.setPen(QPen(w_.palette().highlight().color(), 2));
        p_.setBrush(Qt::NoBrush);
        p_.drawRect(QRectF(w_.rankGroupRect(w_.selected_)).adjusted(1, 1, -1, -1));
    }

    // The last arriver's row, from the earliest arrival (that instant as its row shows it) to the end of its
    // part of the collective.
    void lastArriverRows() {
        for (const ClusterCollective& cc : c_.collectives) {
            if (cc.lastArriver < 0 || !visible(cc.lastArriver) || cc.parts.empty()) continue;
            TimeNs earliest = cc.parts.front().aligned, end = 0;
            for (const auto& p : cc.parts) {
                earliest = std::min(earliest, p.aligned);
                if (p.rank == cc.lastArriver) end = w_.alignedOnRow(p.rank, p.aligned) + p.elapse;
            }
            const TimeNs lo = w_.alignedOnRow(cc.lastArriver, earliest);
            if (!inView(lo, end)) continue;
            const QRect g = w_.rankGroupRect(cc.lastArriver);
            p_.fillRect(span(lo, end, g.top() + 1, g.height() - 2), kLastRow);
        }
    }

    void runs(const std::vector<std::pair<TimeNs, TimeNs>>& v, TimeNs shift, const QRect& lane,
              const QColor& colour) {
        // One drawRects call per lane: a fitted view of a long capture holds hundreds of runs a lane.
        rects_.clear();
        for (const PixelRun& run : pixelRuns(v, shift, w_.viewStart_, w_.viewEnd_, plot_.width()))
            rects_.push_back(QRect(plot_.left() + run.x0, lane.top(), run.x1 - run.x0, lane.height()));
        if (rects_.empty()) return;
        p_.save();
        p_.setPen(Qt::NoPen);
        p_.setBrush(colour);
        p_.drawRects(rects_.data(), static_cast<int>(rects_.size()));
        p_.restore();
    }

    void lanes() {
        const QFontMetrics fm(w_.font());
        for (int r = first_; r <= last_; ++r) {
            const RankLanes* l = c_.ranks[static_cast<std::size_t>(r)].lanes.get();
            if (!l) continue;
            const TimeNs shift = w_.shiftOf(r);
            const QRect steps = w_.laneRect(r, RanksTimeline::Lane::Steps);
            for (std::size_t i = 0; i < l->steps.size(); ++i) {
                const auto& [number, win] = l->steps[i];
                if (!inView(win.first - shift, win.second - shift)) continue;
                const QRectF rect = span(win.first - shift, win.second - shift, steps.top(), steps.height());
                p_.fillRect(rect, i % 2 ? kStepB : kStepA);
                const QString text = QStringLiteral("#%1").arg(number);
                if (steps.height() >= fm.height() - 4 && rect.width() > fm.horizontalAdvance(text) + 6) {
                    p_.setPen(QColor(0x33, 0x33, 0x33));
                    const QRectF vis = rect.intersected(QRectF(plot_));
                    p_.drawText(vis.adjusted(3, -3, 0, 3), Qt::AlignLeft | Qt::AlignVCenter, text);
                }
            }
            runs(l->busy, shift, w_.laneRect(r, RanksTimeline::Lane::Busy), kBusy);
            runs(l->comm, shift, w_.laneRect(r, RanksTimeline::Lane::Comm), kComm);
        }
    }

    // Each rank's wait for the last arriver, over its busy and HCCL lanes.
    void waits() {
        for (int k = 0; k < static_cast<int>(c_.collectives.size()); ++k)
            for (const auto& a : w_.arrivals(k)) {
                if (!visible(a.rank) || a.waitEnd <= a.arrival || !inView(a.arrival, a.waitEnd)) continue;
                const QRect busy = w_.laneRect(a.rank, RanksTimeline::Lane::Busy);
                const QRect comm = w_.laneRect(a.rank, RanksTimeline::Lane::Comm);
                p_.fillRect(span(a.arrival, a.waitEnd, busy.top(), comm.bottom() - busy.top() + 1), kWait);
            }
    }

    void ticks() {
        for (int k = 0; k < static_cast<int>(c_.collectives.size()); ++k) {
            // Undetermined (nobody named): lighter ticks, the arrivals are within the clocks' uncertainty.
            const bool named = c_.collectives[static_cast<std::size_t>(k)].lastArriver >= 0;
            for (const auto& a : w_.arrivals(k)) {
                if (!visible(a.rank) || !inView(a.arrival, a.arrival)) continue;
                const QRect g = w_.rankGroupRect(a.rank);
                const double x = std::round(w_.xOf(a.arrival));
                p_.fillRect(QRectF(x, g.top() + 1, a.last ? 3 : 1, g.height() - 2),
                            a.last  ? kLast
                            : named ? QColor(0x22, 0x22, 0x22)
                                    : QColor(0xa0, 0xa0, 0xa0));
            }
        }
    }

    void labels() {
        p_.fillRect(QRect(0, RanksTimeline::kAxisHeight, w_.labelWidth_, plot_.height()),
                    w_.palette().window());
        p_.save();
        p_.setClipRect(QRect(0, RanksTimeline::kAxisHeight, w_.labelWidth_, plot_.height()));
        const QFontMetrics fm(w_.font());
        for (int r = first_; r <= last_; ++r) {
            const RankSummary& rank = c_.ranks[static_cast<std::size_t>(r)];
            const QRect g = w_.rankGroupRect(r).adjusted(6, 0, 0, 0);
            QRect text(g.left(), g.top(), w_.labelWidth_ - 10, g.height());
            bool slow = false;
            for (const auto& s : c_.slowRanks)
                slow = slow || s.rank == r;
            if (r == w_.selected_)
                p_.fillRect(w_.rankGroupRect(r).intersected(QRect(0, 0, w_.labelWidth_, w_.height())),
                            w_.palette().highlight().color().lighter(170));
            QFont f = w_.font();
            f.setBold(slow || r == w_.selected_);
            p_.setFont(f);
            if (slow) { // a red mark and the word: the slow rank is found without the colour too
                p_.fillRect(QRect(0, g.top() + 1, 4, g.height() - 2), kSlow);
                p_.setPen(kSlow);
            } else {
                p_.setPen(w_.palette().windowText().color());
            }
            QString name = ClusterText::rankName(rank);
            if (slow) name = RanksTimeline::tr("%1 · slow").arg(name);
            if (!rank.lanes) name = RanksTimeline::tr("%1 (no lanes)").arg(name);
            p_.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                        fm.elidedText(name, Qt::ElideRight, text.width()));
        }
        p_.restore();
        p_.setPen(w_.palette().mid().color());
        p_.drawLine(w_.labelWidth_ - 1, RanksTimeline::kAxisHeight, w_.labelWidth_ - 1, w_.height());
    }

    void ruler() {
        const QRect axis(0, 0, w_.width(), RanksTimeline::kAxisHeight);
        p_.fillRect(axis, w_.palette().window());
        p_.setPen(w_.palette().mid().color());
        p_.drawLine(0, axis.bottom(), w_.width(), axis.bottom());
        p_.setFont(w_.font());
        const QString view = RanksTimeline::tr("View %1").arg(durationText(w_.viewEnd_ - w_.viewStart_));
        const QFontMetrics fm(w_.font());
        const QRect vr(w_.width() - fm.horizontalAdvance(view) - 12, 0, fm.horizontalAdvance(view) + 10,
                       axis.height() - 1);
        const TimeNs step = tickStep(w_.viewStart_, w_.viewEnd_, plot_.width(), 90);
        const TimeNs origin = w_.origin_;
        TimeNs t = origin + ((w_.viewStart_ - origin) / step) * step;
        if (t < w_.viewStart_) t += step;
        for (; t <= w_.viewEnd_; t += step) {
            const double x = w_.xOf(t);
            p_.setPen(w_.palette().mid().color());
            p_.drawLine(QLineF(x, axis.bottom() - 6, x, axis.bottom()));
            const QString label = tickLabel(t - origin, step);
            if (x + 3 + fm.horizontalAdvance(label) >= vr.left()) continue; // under the view's span
            p_.setPen(w_.palette().windowText().color());
            p_.drawText(QRectF(x + 3, 2, 120, axis.height() - 8), Qt::AlignLeft | Qt::AlignVCenter, label);
        }
        p_.fillRect(QRect(0, 0, w_.labelWidth_, axis.height() - 1), w_.palette().window());
        p_.setPen(w_.palette().windowText().color());
        QFont b = w_.font();
        b.setBold(true);
        p_.setFont(b);
        p_.drawText(QRect(6, 0, w_.labelWidth_ - 8, axis.height()), Qt::AlignLeft | Qt::AlignVCenter,
                    w_.raw_ ? RanksTimeline::tr("Raw clocks") : RanksTimeline::tr("Aligned clock"));
        p_.setFont(w_.font());
        p_.fillRect(vr, w_.palette().window());
        p_.drawText(vr, Qt::AlignCenter, view);
    }

    const RanksTimeline& w_;
    QPainter& p_;
    const ClusterResult& c_;
    int first_ = 0, last_ = -1;
    QRect plot_;
    std::vector<QRect> rects_; // one lane's runs, reused
};

void RanksTimeline::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!cluster_ || rankCount() == 0) return;
    RanksPainter(*this, p).paint();
}

} // namespace bs::ui

#include "report/gain_text.h"

#include "analysis/anomaly_model.h"
#include "i18n/message.h"

#include <cmath>

namespace bs {

namespace {

// Two decimals from 1 ms up, three below (a 0.617 ms gain keeps its microseconds).
std::string ms(double v) {
    return std::fabs(v) >= 1.0 ? fmt::format("{:.2f}", v) : fmt::format("{:.3f}", v);
}

} // namespace

std::string gainText(const ReplayPrediction& p) {
    return msg("expected gain ≈ {} ms per step ({:.1f} % of service), replayed; replay error {:.1f} %{}", ms(p.gainMs),
               p.gainPct, p.errorPct, p.lowConfidence ? msg(", low confidence") : std::string());
}

std::string gainText(const Recommendation& rc) {
    if (rc.replay) return gainText(*rc.replay);
    if (!rc.replayMissing.empty()) return msg("no predicted gain: {}", rc.replayMissing);
    return {};
}

std::string gainMsText(double v) {
    const double r = std::fabs(v) < 0.0005 ? 0.0 : v; // no "-0.000"
    return (r < 0 ? "\u2212" : r > 0 ? "+" : "") + ms(std::fabs(r)) + " ms";
}

} // namespace bs

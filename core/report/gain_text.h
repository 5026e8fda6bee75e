#pragma once
// ANALYSIS.md §15 in words: a recommendation's replayed gain as every output says it (text, Markdown, the
// window's Summary), or why there is none.
#include <string>

namespace bs {

struct Recommendation;
struct ReplayPrediction;

// "expected gain ≈ 2.93 ms per step (0.8 % of service), replayed; replay error 0.2 %" (with ", low confidence"
// over 2 % error); "no predicted gain: …" when the replay could not be edited; "" when no edit matches the
// recommendation's cause. A message (core/i18n): rendered in the output language.
std::string gainText(const Recommendation& rc);
std::string gainText(const ReplayPrediction& p);
// The gain as a signed change of the step ("−2.93 ms") for compare's "predicted … , achieved …".
std::string gainMsText(double ms);

} // namespace bs

#pragma once
// ANALYSIS.md §5: candidate causes of one window, in the fixed order; labels may co-exist.
#include "analysis/anomaly_model.h"

namespace bs {

void attributeWindow(BubbleWindow& w, const Rulebook& rules);

} // namespace bs

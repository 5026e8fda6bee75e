#pragma once
// ANALYSIS.md §9: structures (layers) inside each step — from the architecture's attention-anchored
// layers when they exist, else the shortest repeating kernel pattern (>= 3 repeats), else large
// device gaps — with block/side four clocks, inter-structure gaps and the bubble drill-down.
#include "analysis/anomaly_model.h"
#include "analysis/steps.h"
#include "architecture/architecture_model.h"
#include "model/profile.h"

namespace bs {

// Fills arch.structures (and each layer's structure index). Uses arch.layers/passes when present: an
// attention-anchored layer's structure has the layer's own span (marker to next marker).
void buildStructures(const Profile& profile, const StepSet& steps, double blockMinUs,
                     ArchitectureResult& arch);
// Fills arch.windowPlaces, arch.boundaryBubbles and arch.drillDown: each significant window is at a layer
// start (it contains or touches one, within 1 µs), inside a layer, or outside every layer.
void placeWindows(const std::vector<BubbleWindow>& windows, ArchitectureResult& arch);
Clocks clocksOf(const Profile& profile, std::size_t first, std::size_t last, Interval span);
// Smallest period P (>= 2) such that some block of P symbols repeats >= 3 times back to back; 0 if none.
std::size_t shortestRepeatingPeriod(const std::vector<std::uint32_t>& seq, std::size_t& offset);

} // namespace bs

#pragma once
// ANALYSIS.md §11 A4/A6 per layer type: the modal kernel sequence of the type and what it says (FFN path,
// collectives, sampling), a representative layer with its timing partition, and what every layer of the
// type shows (AICPU kernels, sequence deviations, bubble windows, warm-up).
#include "architecture/architecture_model.h"
#include "model/profile.h"

#include <string>

namespace bs {

// Fills a.types. Needs a.layers, a.passes, a.crossCheck and a.structures, not the bubble windows: it runs
// in the architecture's draft, beside the anomaly discovery. `modalSignature` is the most common
// layer-type sequence of a pass.
void summarizeLayerTypes(const Profile& profile, const std::string& modalSignature, ArchitectureResult& a);

// Then, once a.windowPlaces is set: each type's bubble windows (an.windows, their time at a layer start and
// inside layers) and the window each gap of its representative layers' timing is.
void placeWindowsInLayerTypes(ArchitectureResult& a);

// The timing partition of one layer (see ComponentTime): every instant of the layer span goes to one
// component or to idle; kernels of the previous layer still running are a component of their own.
LayerTiming layerTiming(const Profile& profile, const ArchitectureResult& a, int layer);

} // namespace bs

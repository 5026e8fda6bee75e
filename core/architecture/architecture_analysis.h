#pragma once
// ANALYSIS.md §11 phases A1–A9: attention timeline → phases → passes → layers → layer types →
// cross-verification → functional roles → decode → communication pipeline → variation.
#include "analysis/anomaly_model.h"
#include "analysis/steps.h"
#include "architecture/architecture_model.h"
#include "model/profile.h"

namespace bs {

ArchitectureResult analyzeArchitecture(const Profile& profile, const StepSet& steps,
                                       const std::vector<BubbleWindow>& windows, const Rulebook& rules);
// Functional role of each kernel of a layer, in order (attention, attention projection, TP comm, …).
std::vector<LayerKernel> layerKernels(const Profile& profile, const ArchLayer& layer,
                                      const std::string& marker);

} // namespace bs

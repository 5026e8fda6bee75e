#pragma once
// ANALYSIS.md §11 phases A1–A9: attention timeline → phases → passes → layers → layer types →
// cross-verification → functional roles → decode → communication pipeline → variation.
#include "analysis/anomaly_model.h"
#include "analysis/steps.h"
#include "architecture/architecture_model.h"
#include "model/profile.h"

#include <string_view>

namespace bs {

ArchitectureResult analyzeArchitecture(const Profile& profile, const StepSet& steps,
                                       const std::vector<BubbleWindow>& windows, const Rulebook& rules);
// The same in two parts: everything that needs no bubble window (A1–A9 and the structures; it runs beside
// the anomaly discovery, core/README.md "Analysis threads"), then the windows placed in it.
struct ArchitectureDraft {
    ArchitectureResult result;
    std::string modalSignature;
};
ArchitectureDraft analyzeArchitectureWithoutWindows(const Profile& profile, const StepSet& steps,
                                                    const Rulebook& rules);
ArchitectureResult placeWindowsInArchitecture(ArchitectureDraft draft, const Profile& profile,
                                              const std::vector<BubbleWindow>& windows);
// Functional role of each kernel of a layer, in order (attention, attention projection, TP comm, …).
std::vector<LayerKernel> layerKernels(const Profile& profile, const ArchLayer& layer,
                                      const std::string& marker);

// Shared by core/architecture:
// the name a description uses for a kernel — its op type when recorded, else its own name (both are
// names the profile holds);
std::string kernelDisplayName(const Profile& profile, const Kernel& kernel);
// index of the first kernel starting at or after t (kernels are in start order);
std::size_t kernelIndexAt(const Profile& profile, TimeNs t);
// ASCII case-insensitive substring test.
bool iContains(std::string_view s, std::string_view needle);

} // namespace bs

#pragma once
// ANALYSIS.md §11 phases A1–A9: attention timeline → phases → passes → layers → layer types →
// cross-verification → functional roles → decode → communication pipeline → variation.
#include "analysis/anomaly_model.h"
#include "analysis/steps.h"
#include "architecture/architecture_model.h"
#include "architecture/kernel_roles.h" // its users reach the shared helpers through it
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

} // namespace bs

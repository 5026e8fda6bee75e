#pragma once
// ANALYSIS.md §11: the kernel-level helpers every part of core/architecture shares — a kernel's functional
// role in its layer, the name a description uses for it, the kernel at an instant, the name rules. Below
// architecture_analysis, layer_types, structures and comm_pipeline, which all include it (no include
// circle: none of them includes another's header for these).
#include "architecture/architecture_model.h"
#include "model/profile.h"

#include <string>
#include <string_view>
#include <vector>

namespace bs {

// Functional role of each kernel of a layer, in order (attention, attention projection, TP comm, …).
std::vector<LayerKernel> layerKernels(const Profile& profile, const ArchLayer& layer,
                                      const std::string& marker);
// The name a description uses for a kernel — its op type when recorded, else its own name (both are
// names the profile holds).
std::string kernelDisplayName(const Profile& profile, const Kernel& kernel);
// Index of the first kernel starting at or after t (kernels are in start order).
std::size_t kernelIndexAt(const Profile& profile, TimeNs t);
// ASCII case-insensitive substring test.
bool iContains(std::string_view s, std::string_view needle);
// Name rules: a sampling kernel (ArgMax, rejection_*); an all-to-all collective.
bool isSamplingKernel(std::string_view name);
bool isAllToAllKernel(std::string_view name);

} // namespace bs

#pragma once
// The kernels of a layer by functional role, and the name tests core/architecture shares. Depends on the
// model only: the folder's other files include it, so none of them includes another in a circle.
#include "architecture/architecture_model.h"
#include "model/profile.h"

#include <string>
#include <string_view>
#include <vector>

namespace bs {

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


namespace kernel_names {
bool has(std::string_view s, std::string_view needle);   // substring, case kept
bool isSampling(std::string_view name);                 // ArgMax, rejection_* (the sampling tail)
bool isAllToAll(std::string_view name);                 // an all-to-all collective (EP communication)
} // namespace kernel_names

} // namespace bs

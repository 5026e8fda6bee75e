#pragma once
// ANALYSIS.md §11 A8: the communication pipeline — what each stream holds (from the kernels seen on it),
// which streams overlap, and how much communication hides under compute.
#include "architecture/architecture_model.h"
#include "model/profile.h"

#include <string>
#include <string_view>

namespace bs {

// Fills a.streams, a.commTotal / commHidden / commOverlapShare, a.kernelSumAll, a.wallAll, a.busyAll.
void describeStreams(const Profile& profile, ArchitectureResult& a);
// The kind of collective a communication kernel name denotes (all-reduce, all-to-all, reduce-scatter,
// all-gather, broadcast, send/receive, reduce, barrier), "collective" when the name says none of them.
std::string collectiveKind(std::string_view kernelName);

} // namespace bs

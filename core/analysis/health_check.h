#pragma once
// The profile health check: findings about the collection itself, each with what it does to the
// analysis and how to fix the collection (docs/collection-problems.md).
#include "analysis/crosscheck.h"
#include "io/discovery.h"

namespace bs {

std::vector<Finding> healthCheck(const Profile& profile, const StepSet& steps,
                                 const std::vector<StepMetrics>& metrics, const CrossCheck& cc);

} // namespace bs

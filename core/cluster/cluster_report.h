#pragma once
// The cluster's outputs: the JSON `cluster` object, the text section and the Markdown section.
#include "cluster/cluster_model.h"

#include <string>

namespace bs {

std::string renderClusterJson(const ClusterResult& c); // one JSON object (no trailing newline)
// The file --cluster-json and `bubblescope cluster --json` write: {"cluster": …} and a newline.
std::string renderClusterDocument(const ClusterResult& c);
std::string renderClusterText(const ClusterResult& c);
std::string renderClusterMarkdown(const ClusterResult& c);
// The slow-rank verdicts in plain words, one sentence per rank (also when none is slow).
std::vector<std::string> clusterVerdicts(const ClusterResult& c);

} // namespace bs

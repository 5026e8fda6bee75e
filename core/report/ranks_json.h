#pragma once
// `bubblescope analyze --format json` (or a --json stream) over several ranks prints one JSON document:
//   {"ranks": [{"label": "level0/rank0_ascend_pt", "folder": "/…/rank0_ascend_pt", "analysis": {…}},
//              {"label": …, "folder": …, "error": "why this rank was not analysed"}]}
// so that every rank found appears, analysed or not, in discovery order.
#include <string>
#include <vector>

namespace bs {

struct RankJson {
    std::string label;    // as discovery names it (relative to the folder given)
    std::string folder;   // the rank folder
    std::string analysis; // renderJson's document; empty when the rank was not analysed
    std::string error;    // why it was not analysed
};

// `cluster`: the cluster object (renderClusterJson) added as "cluster" after the ranks; empty: none.
std::string renderRanksJson(const std::vector<RankJson>& ranks, const std::string& cluster = {});

} // namespace bs

#pragma once
// The analysis JSON: `steps`, `inventory`, `data_quality`, `profiler_crosscheck`. Stable key order
// and fixed rounding so the same input gives byte-identical output.
#include "pipeline/analysis_run.h"

#include <string>
#include <string_view>
#include <vector>

namespace bs {

std::string renderJson(const Profile& profile, const AnalysisResult& result);

// The same document in the pieces it is made of, to be written one after another: the per-collective and
// per-structure arrays (three quarters of a large export) are not copied into one string first.
struct JsonPieces {
    std::vector<std::string> texts; // the document's text around the arrays, then the arrays
    struct Part {
        std::size_t text = 0, from = 0, size = 0; // texts[text].substr(from, size)
    };
    std::vector<Part> parts; // in the document's order
    std::vector<std::string_view> views() const; // valid while texts is neither changed nor destroyed
    std::string joined() const;
};
JsonPieces renderJsonPieces(const Profile& profile, const AnalysisResult& result);

} // namespace bs

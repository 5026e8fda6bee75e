#pragma once
// The comparison's outputs: JSON `{"comparison": …}`, a Markdown before/after page and the text summary.
#include <string>
#include <vector>

namespace bs {

struct Comparison;
struct ComparedPair;

std::string renderComparisonJson(const Comparison& c);     // the `comparison` object (no newline)
std::string renderComparisonDocument(const Comparison& c); // {"comparison": …} and a newline
std::string renderComparisonMarkdown(const Comparison& c);
std::string renderComparisonText(const Comparison& c);

// Parents of several ranks: {"comparison": {"ranks": [{"rank", "base", "new", "comparison" | "error"}, …]}}.
std::string renderPairsDocument(const std::vector<ComparedPair>& pairs);
std::string renderPairsMarkdown(const std::vector<ComparedPair>& pairs);
std::string renderPairsText(const std::vector<ComparedPair>& pairs);

} // namespace bs

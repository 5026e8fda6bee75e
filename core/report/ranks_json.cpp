#include "report/ranks_json.h"

#include "i18n/message.h"
#include <nlohmann/json.hpp>

namespace bs {

namespace {

// Names come from the file system: invalid UTF-8 is replaced (U+FFFD), as in renderJson.
std::string quoted(const std::string& s) {
    return nlohmann::json(render(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// renderJson's document, indented to sit at `indent` (its strings hold no raw newline: JSON escapes them).
std::string nested(const std::string& doc, const std::string& indent) {
    std::string out;
    std::size_t end = doc.size();
    while (end > 0 && (doc[end - 1] == '\n' || doc[end - 1] == ' '))
        --end;
    out.reserve(end + end / 16);
    for (std::size_t i = 0; i < end; ++i) {
        out += doc[i];
        if (doc[i] == '\n') out += indent;
    }
    return out;
}

} // namespace

std::string renderRanksJson(const std::vector<RankJson>& ranks, const std::string& cluster) {
    std::string o = "{\n  \"ranks\": [";
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const RankJson& r = ranks[i];
        o += i == 0 ? "\n" : ",\n";
        o +=
            "    {\n      \"label\": " + quoted(r.label) + ",\n      \"folder\": " + quoted(r.folder) + ",\n";
        if (!r.analysis.empty())
            o += "      \"analysis\": " + nested(r.analysis, "      ") + "\n";
        else
            o += "      \"error\": " + quoted(r.error) + "\n";
        o += "    }";
    }
    o += ranks.empty() ? "]" : "\n  ]";
    if (!cluster.empty()) o += ",\n  \"cluster\": " + nested(cluster, "  ");
    o += "\n}\n";
    return o;
}

} // namespace bs

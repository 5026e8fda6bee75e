#include "model/finding.h"

#include "i18n/message.h"

#include <algorithm>

namespace bs {

const char* severityName(Severity s) {
    switch (s) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "info";
}

void FindingSink::add(Finding f) {
    std::size_t same =
        static_cast<std::size_t>(std::count_if(findings_.begin(), findings_.end(), [&](const Finding& g) {
            return g.id == f.id && g.file == f.file;
        }));
    if (same < cap_) {
        findings_.push_back(std::move(f));
        return;
    }
    countOver(f.id, f.file, 1);
}

void FindingSink::countOver(const std::string& id, const std::string& file, std::size_t n) {
    for (auto& o : overflow_) {
        if (o.id == id && o.file == file) {
            o.count += n;
            return;
        }
    }
    overflow_.push_back({id, n, file}); // from join: only when the part's cap was not capForParts()
}

void FindingSink::join(const FindingSink& part, long long lineOffset) {
    for (Finding f : part.findings_) {
        if (f.line > 0) f.line += lineOffset;
        add(std::move(f));
    }
    for (const auto& o : part.overflow_)
        countOver(o.id, o.file, o.count);
}

bool FindingSink::has(const std::string& id) const {
    return std::any_of(findings_.begin(), findings_.end(), [&](const Finding& f) { return f.id == id; });
}

std::vector<Finding> FindingSink::take() {
    for (const auto& o : overflow_) {
        Finding f;
        f.id = o.id + "_more";
        f.severity = Severity::Warning;
        f.file = o.file;
        f.seen = msg("{} more finding(s) of kind '{}' in this file (not listed one by one).", o.count, o.id);
        f.impact = msg("Same as the listed ones.");
        findings_.push_back(std::move(f));
    }
    overflow_.clear();
    return std::move(findings_);
}

} // namespace bs

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
    for (auto& o : overflow_) {
        if (o.id == f.id && o.file == f.file) {
            ++o.count;
            return;
        }
    }
    overflow_.push_back({f.id, 1, f.file});
}

void FindingSink::join(const FindingSink& part, long long lineOffset) {
    for (Finding f : part.findings_) {
        if (f.line > 0) f.line += lineOffset;
        add(std::move(f));
    }
    for (const auto& o : part.overflow_) {
        auto here = std::find_if(overflow_.begin(), overflow_.end(),
                                 [&](const Overflow& h) { return h.id == o.id && h.file == o.file; });
        if (here != overflow_.end())
            here->count += o.count;
        else // only when the part's cap was not capForParts()
            overflow_.push_back(o);
    }
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

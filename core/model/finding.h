#pragma once
// A data-quality or health finding: what was seen, what it does to the analysis, how to fix the
// collection. Errors are values, never aborts.
#include <string>
#include <vector>

namespace bs {

enum class Severity { Info, Warning, Error };
const char* severityName(Severity s);

struct Finding {
    std::string id; // stable machine id, e.g. "trace_truncated", "level0_kernel_details"
    Severity severity = Severity::Info;
    std::string file;    // file concerned (may be empty)
    long long line = -1; // 1-based line, -1 when not applicable
    long long byteOffset = -1;
    std::string seen;    // what was observed
    std::string impact;  // what it does to the analysis
    std::string fix;     // how to fix the collection
    std::string docRef; // e.g. "collection-problems.md#truncated-timeline"
};

// Collects findings; keeps at most `perIdCap` detailed entries per id and counts the rest so a
// file with a million bad rows does not flood the report.
class FindingSink {
  public:
    explicit FindingSink(std::size_t perIdCap = 20) : cap_(perIdCap) {}
    void add(Finding f);
    const std::vector<Finding>& findings() const { return findings_; }
    std::vector<Finding> take();
    bool has(const std::string& id) const;

  private:
    struct Overflow {
        std::string id;
        std::size_t count = 0;
        std::string file;
    };
    std::size_t cap_;
    std::vector<Finding> findings_;
    std::vector<Overflow> overflow_;
};

} // namespace bs

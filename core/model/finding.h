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
    // The cap for a sink that a part of one file is read into elsewhere (another thread), to be joined here:
    // one more than this sink's (see join).
    std::size_t capForParts() const { return cap_ == static_cast<std::size_t>(-1) ? cap_ : cap_ + 1; }
    // For a part of one file read elsewhere into a sink with the cap capForParts():
    // adds its findings here as if they had come one by one after this sink's own (lines moved by
    // lineOffset), with the same entries, counts and order of entries as that would give. The part keeps
    // one finding more per kind than this sink does, so that the one with which a kind goes over the cap
    // here is among those added one by one; the rest only add to its count.
    void join(const FindingSink& part, long long lineOffset = 0);

  private:
    struct Overflow {
        std::string id;
        std::size_t count = 0;
        std::string file;
    };
    void countOver(const std::string& id, const std::string& file, std::size_t n); // past the cap
    std::size_t cap_;
    std::vector<Finding> findings_;
    std::vector<Overflow> overflow_;
};

} // namespace bs

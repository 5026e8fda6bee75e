#pragma once
// Interns names so that millions of events share one copy of each distinct string.
// Id 0 is always the empty string.
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace bs {

using StrId = std::uint32_t;

class StringPool {
  public:
    StringPool() { intern({}); }
    StrId intern(std::string_view s) {
        // Names repeat millions of times: a small direct-mapped cache in front of the hash map.
        CacheSlot& slot = cache_[cheapHash(s) & (kCacheSize - 1)];
        if (slot.id != 0 && slot.len == s.size() && views_[slot.id] == s) return slot.id;
        auto it = index_.find(s);
        if (it != index_.end()) {
            slot = {it->second, s.size()};
            return it->second;
        }
        std::string_view stored = store(s);
        StrId id = static_cast<StrId>(views_.size());
        views_.push_back(stored);
        index_.emplace(stored, id);
        slot = {id, s.size()};
        return id;
    }
    // Lookup without inserting; returns 0 (empty) when unknown and s is not empty → use contains().
    bool find(std::string_view s, StrId& out) const {
        auto it = index_.find(s);
        if (it == index_.end()) return false;
        out = it->second;
        return true;
    }
    std::string_view view(StrId id) const { return id < views_.size() ? views_[id] : std::string_view{}; }
    std::string str(StrId id) const { return std::string(view(id)); }
    std::size_t size() const { return views_.size(); }
    std::size_t bytes() const {
        return blocksBytes_ + views_.capacity() * sizeof(std::string_view) + index_.size() * 48;
    }

  private:
    struct CacheSlot {
        StrId id = 0;
        std::size_t len = 0;
    };
    static constexpr std::size_t kCacheSize = 4096;
    static std::size_t cheapHash(std::string_view s) {
        std::uint64_t a = 0, b = 0;
        const std::size_t n = s.size();
        if (n == 0) return 0; // an empty view may have a null data() (memcpy from null is UB)
        std::memcpy(&a, s.data(), n < 8 ? n : 8);
        if (n > 8) std::memcpy(&b, s.data() + n - 8, 8);
        std::uint64_t h = (a * 0x9E3779B97F4A7C15ULL) ^ (b + n) * 0xC2B2AE3D27D4EB4FULL;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
    std::string_view store(std::string_view s) {
        if (s.empty()) return {};
        if (blocks_.empty() || blocks_.back().capacity() - blocks_.back().size() < s.size()) {
            std::size_t cap = s.size() > kBlock ? s.size() : kBlock;
            blocks_.emplace_back();
            blocks_.back().reserve(cap);
            blocksBytes_ += cap;
        }
        std::string& b = blocks_.back();
        std::size_t off = b.size();
        b.append(s); // never reallocates: capacity reserved above
        return std::string_view(b.data() + off, s.size());
    }
    static constexpr std::size_t kBlock = 64 * 1024;
    std::deque<std::string> blocks_;
    std::size_t blocksBytes_ = 0;
    std::vector<std::string_view> views_;
    std::unordered_map<std::string_view, StrId> index_;
    std::vector<CacheSlot> cache_ = std::vector<CacheSlot>(kCacheSize);
};

} // namespace bs

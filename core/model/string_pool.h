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
        // Names repeat millions of times: a small direct-mapped cache in front of the hash map. A slot
        // keeps the text's first and last 8 bytes (all of a text of up to 16), so most hits compare two
        // words and a length, without reading the stored text.
        const Key k = key(s);
        CacheSlot& slot = cache_[hashOf(k, s.size()) & (kCacheSize - 1)];
        if (slot.len == s.size() && slot.a == k.a && slot.b == k.b &&
            (s.size() <= 16 || std::memcmp(slot.data + 8, s.data() + 8, s.size() - 16) == 0))
            return slot.id;
        auto it = index_.find(s);
        StrId id;
        if (it != index_.end()) {
            id = it->second;
        } else {
            std::string_view stored = store(s);
            id = static_cast<StrId>(views_.size());
            views_.push_back(stored);
            index_.emplace(stored, id);
        }
        if (s.size() < kNoLen) slot = {k.a, k.b, views_[id].data(), static_cast<std::uint32_t>(s.size()), id};
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
    // The text's first and last 8 bytes (overlapping, or fewer, when it is shorter): with its length they
    // are the whole text when it has at most 16 bytes. Fixed-size loads, no copy through memory (a
    // variable-length memcpy into a word stalled the load that read it back).
    struct Key {
        std::uint64_t a = 0, b = 0;
    };
    static Key key(std::string_view s) {
        const std::size_t n = s.size();
        const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
        Key k;
        if (n >= 8) {
            std::memcpy(&k.a, p, 8);
            std::memcpy(&k.b, p + n - 8, 8);
        } else if (n >= 4) {
            std::uint32_t x, y;
            std::memcpy(&x, p, 4);
            std::memcpy(&y, p + n - 4, 4);
            k.a = x;
            k.b = y;
        } else if (n > 0) { // an empty view may have a null data()
            k.a = p[0] | std::uint64_t(p[n / 2]) << 8 | std::uint64_t(p[n - 1]) << 16;
        }
        return k;
    }
    static std::size_t hashOf(const Key& k, std::size_t n) {
        const std::uint64_t h = (k.a * 0x9E3779B97F4A7C15ULL) ^ ((k.b + n) * 0xC2B2AE3D27D4EB4FULL);
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
    static constexpr std::uint32_t kNoLen = UINT32_MAX; // an empty slot's length: no text matches it
    struct CacheSlot {
        std::uint64_t a = 0, b = 0;
        const char* data = nullptr; // the stored text
        std::uint32_t len = kNoLen;
        StrId id = 0;
    };
    static constexpr std::size_t kCacheSize = 4096;
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

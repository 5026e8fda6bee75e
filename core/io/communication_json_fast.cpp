// The fast communication.json reader: simdjson's DOM (it validates the whole file, as nlohmann does)
// walked the way the reference walks its nlohmann DOM — objects in key order with the last of repeated
// keys kept (nlohmann's std::map), numbers shown as nlohmann prints them. ~20 x faster and a fraction of
// the memory of the nlohmann DOM (10 x the file), which used to be the slowest part of loading a rank.
#include "io/communication_json.h"
#include "i18n/message.h"
#include "io/json_value_scanner.h"
#include "io/load_control.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

namespace bs::commjson {

namespace {

static_assert(kReadPadding >= simdjson::SIMDJSON_PADDING, "simdjson parses the buffer in place");

using simdjson::dom::element;
using simdjson::dom::element_type;
using Members = std::vector<std::pair<std::string_view, element>>;

// Whether key k is the literal lit: its length known when compiling, so that the bytes are compared
// inline (a few loads) rather than by a call to memcmp for each of an op's ~40 keys.
template <std::size_t N>
bool keyIs(std::string_view k, const char (&lit)[N]) {
    return k.size() == N - 1 && std::memcmp(k.data(), lit, N - 1) == 0;
}

// a < b as std::string_view orders them (bytes as unsigned char), the first bytes compared inline: an
// op's transports and a kind's ops mostly differ there or soon after.
bool keyLess(std::string_view a, std::string_view b) {
    if (!a.empty() && !b.empty() && a[0] != b[0])
        return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]);
    return a < b;
}

// Sorts by key (key(x): x's key as a string_view) and keeps the last of equal keys, as nlohmann's std::map
// holds an object's members. The sort keeps equal keys in file order (std::stable_sort's result): by
// insertion for the few members an op's objects have (no temporary buffer), by std::stable_sort past that.
template <class T, class KeyOf> void sortKeepingLast(std::vector<T>& m, KeyOf key) {
    const auto less = [&](const T& a, const T& b) { return keyLess(key(a), key(b)); };
    if (m.size() > 16) {
        std::stable_sort(m.begin(), m.end(), less);
    } else {
        for (std::size_t i = 1; i < m.size(); ++i)
            for (std::size_t j = i; j > 0 && less(m[j], m[j - 1]); --j)
                std::swap(m[j], m[j - 1]);
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m.size(); ++i)
        if (i + 1 == m.size() || key(m[i + 1]) != key(m[i])) {
            if (kept != i) m[kept] = std::move(m[i]);
            ++kept;
        }
    m.erase(m.begin() + static_cast<std::ptrdiff_t>(kept), m.end());
}
void sortKeepingLast(Members& m) {
    sortKeepingLast(m, [](const auto& kv) { return kv.first; });
}

// An object's members as nlohmann's std::map holds them, into m (its room reused); false when e is not
// an object.
bool membersInto(element e, Members& m) {
    m.clear();
    simdjson::dom::object o;
    if (e.get_object().get(o)) return false;
    for (auto kv : o)
        m.emplace_back(kv.key, kv.value);
    sortKeepingLast(m);
    return true;
}
Members members(element e) {
    Members m;
    membersInto(e, m);
    return m;
}

// A transport's "Transit Size(MB)": the last one, as nlohmann keeps a repeated key; false when absent.
bool transitSize(element info, element& out) {
    simdjson::dom::object o;
    if (info.get_object().get(o)) return false;
    bool found = false;
    for (auto kv : o)
        if (keyIs(kv.key, "Transit Size(MB)")) {
            out = kv.value;
            found = true;
        }
    return found;
}

bool isObject(element e) {
    return e.type() == element_type::OBJECT;
}

bool isNumber(element e) {
    const auto t = e.type();
    return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE;
}

// nlohmann's get<double>() of a number: integers converted, doubles as parsed (both round correctly).
double asDouble(element e) {
    switch (e.type()) {
    case element_type::INT64:
        return static_cast<double>(std::int64_t(e));
    case element_type::UINT64:
        return static_cast<double>(std::uint64_t(e));
    default:
        return double(e);
    }
}

// A double as nlohmann::json::dump() prints it: its serializer writes "null" for a value that is not
// finite and otherwise detail::to_chars into a 64-byte buffer, as here (no serializer, no string).
std::string_view shownDouble(double x, char (&buf)[64]) {
    if (!std::isfinite(x)) return "null";
    return {buf, static_cast<std::size_t>(nlohmann::detail::to_chars(buf, buf + sizeof buf, x) - buf)};
}

// The value as nlohmann::json::dump() prints it: a double in buf, anything else in owned.
std::string_view shown(element e, char (&buf)[64], std::string& owned) {
    switch (e.type()) {
    case element_type::INT64:
        return owned = std::to_string(std::int64_t(e));
    case element_type::UINT64:
        return owned = std::to_string(std::uint64_t(e));
    case element_type::DOUBLE:
        return shownDouble(double(e), buf);
    default: // rare (a finding's text): re-read by nlohmann, which prints it its way
        return owned = nlohmann::json::parse(simdjson::minify(e)).dump();
    }
}
std::string shown(element e) {
    char buf[64];
    std::string owned;
    return std::string(shown(e, buf, owned));
}

// The reference's time of a start written as the double x > 0: parseMicrosToNs of nlohmann's dump(),
// which prints grisu2's shortest digits d (at most 17) and decimal exponent e as "d × 10^e" in fixed or
// exponent form. Both forms are read exactly, so the time is d × 10^(e+3) ns, rounded half away from zero
// when e+3 < 0; nullopt past int64: scaleDecimal, which parseMicrosToNs ends in too. No text is printed or
// read back.
std::optional<TimeNs> startNsOfPositive(double x) {
    char digits[32];
    int len = 0, e = 0;
    nlohmann::detail::dtoa_impl::grisu2(digits, len, e, x);
    std::uint64_t d = 0; // at most 17 digits
    for (int i = 0; i < len; ++i)
        d = d * 10 + static_cast<unsigned>(digits[i] - '0');
    return scaleDecimal(d, e + 3);
}

// "Communication Time Info"'s keys the reader uses, and a key's index among them (-1 for any other).
constexpr std::string_view kTimeKeys[] = {"Start Timestamp(us)", "Elapse Time(ms)",          "Transit Time(ms)",
                                          "Wait Time(ms)",       "Synchronization Time(ms)", "Idle Time(ms)"};
// By length first (most keys are then one integer comparison), the lengths taken from the keys themselves.
// Key I's bytes compared at k (whose length is key I's): I, or -1.
template <int I>
int timeKeyAt(std::string_view k) {
    return std::memcmp(k.data(), kTimeKeys[I].data(), kTimeKeys[I].size()) == 0 ? I : -1;
}
int timeKey(std::string_view k) {
    static_assert(kTimeKeys[3].size() == kTimeKeys[5].size(), "Wait and Idle share a length; no other two do");
    switch (k.size()) {
    case kTimeKeys[0].size(): return timeKeyAt<0>(k);
    case kTimeKeys[1].size(): return timeKeyAt<1>(k);
    case kTimeKeys[2].size(): return timeKeyAt<2>(k);
    case kTimeKeys[3].size(): return timeKeyAt<3>(k) >= 0 ? 3 : timeKeyAt<5>(k);
    case kTimeKeys[4].size(): return timeKeyAt<4>(k);
    default: return -1;
    }
}

struct OpReader {
    const std::string& path;
    FindingSink& sink;
    Members& all; // working room for the transports, reused
    CommOp c;

    void start(element st) {
        if (!isNumber(st)) return;
        // The reference re-reads the number from its dump(): the same text gives the same time.
        if (st.type() == element_type::DOUBLE) {
            const double x = double(st);
            if (x > 0 && std::isfinite(x))
                if (const auto ns = startNsOfPositive(x); ns && plausibleStart(*ns)) {
                    c.start = *ns;
                    return;
                }
        }
        char buf[64];
        std::string owned;
        const std::string_view text = shown(st, buf, owned);
        const auto ns = parseMicrosToNs(text);
        if (ns && plausibleStart(*ns)) // 0: not written ("Total Op Info")
            c.start = *ns;
        else
            outOfRange(sink, path, place(c.step, c.kind, c.name, "Start Timestamp(us)"), std::string(text),
                       msg("a timestamp in µs between 1970 and ~2096 (at most 4e15)").c_str(),
                       msg("its start is unknown, so it marks no communication window").c_str());
    }

    // key: one of kTimeKeys (string literals, so key.data() ends with a NUL for place()).
    TimeNs duration(bool present, element v, std::string_view key) {
        if (!present) return 0;
        const auto t = v.type();
        if (t == element_type::DOUBLE) {
            if (const auto ns = durationNs(double(v))) return *ns;
        } else if (t == element_type::NULL_VALUE) {
            return 0;
        } else if (t == element_type::STRING && std::string_view(v) == "N/A") {
            return 0;
        } else if (const auto ns = durationNs(isNumber(v) ? asDouble(v) : -1.0)) {
            return *ns;
        }
        outOfRange(sink, path, place(c.step, c.kind, c.name, key.data()), shown(v),
                   msg("a duration in ms from 0 to 1e6 (1000 s)").c_str(),
                   msg("this duration counts as 0 (unknown)").c_str());
        return 0;
    }

    // Σ Transit Size(MB) over the physical links (SDMA repeats HCCS/SIO traffic in these exports), in
    // key order, the last of a repeated transport kept (as the reference's std::map). SDMA is left out
    // before sorting: it is never summed, and leaving it out moves no other transport.
    void bandwidth(element bw) {
        simdjson::dom::object o;
        if (bw.get_object().get(o)) return;
        all.clear();
        for (auto kv : o)
            if (!keyIs(kv.key, "SDMA")) all.emplace_back(kv.key, kv.value);
        sortKeepingLast(all);
        for (const auto& [transport, info] : all) {
            element sz;
            if (!isObject(info) || !transitSize(info, sz) || !isNumber(sz)) continue;
            const double mb = asDouble(sz);
            if (mb >= 0 && mb <= kMaxTransitMB)
                c.transitSizeMB += mb;
            else
                outOfRange(sink, path,
                           place(c.step, c.kind, c.name, "Communication Bandwidth Info") + " › " +
                               std::string(transport) + " › Transit Size(MB)",
                           shown(sz), msg("a size in MB from 0 to 1e9").c_str(),
                           msg("this link's size counts as 0").c_str());
        }
    }

    // The op's two objects in one pass over its members (the last of a repeated key, as
    // nlohmann keeps it); false when it has no "Communication Time Info" object (the reference skips such an op).
    static bool parts(element op, element& ti, element& bw, bool& hasBw) {
        simdjson::dom::object o;
        if (op.get_object().get(o)) return false;
        bool hasTi = false;
        hasBw = false;
        for (auto kv : o) {
            if (keyIs(kv.key, "Communication Time Info")) {
                ti = kv.value;
                hasTi = true;
            } else if (keyIs(kv.key, "Communication Bandwidth Info")) {
                bw = kv.value;
                hasBw = true;
            }
        }
        return hasTi && isObject(ti);
    }

    void read(element ti, element bw, bool hasBw) {
        // The six values in one pass over the object (the last of a repeated key, as nlohmann keeps it).
        element v[6];
        bool has[6] = {};
        simdjson::dom::object o;
        if (!ti.get_object().get(o))
            for (auto kv : o)
                if (const int k = timeKey(kv.key); k >= 0) {
                    v[k] = kv.value;
                    has[k] = true;
                }
        if (has[0]) start(v[0]);
        c.elapse = duration(has[1], v[1], kTimeKeys[1]);
        c.transit = duration(has[2], v[2], kTimeKeys[2]);
        c.wait = duration(has[3], v[3], kTimeKeys[3]);
        c.sync = duration(has[4], v[4], kTimeKeys[4]);
        c.idle = duration(has[5], v[5], kTimeKeys[5]);
        if (hasBw) bandwidth(bw);
    }
};

// Files whose reading could differ from nlohmann's: a BOM (nlohmann skips it) and \u escapes (the two
// libraries differ on unpaired surrogates). Profilers write neither.
bool leftToReference(std::string_view text) {
    return (text.size() >= 3 && std::memcmp(text.data(), "\xEF\xBB\xBF", 3) == 0) ||
           text.find("\\u") != std::string_view::npos;
}

// --- The split reader -------------------------------------------------------------------------------
// The file is {step: {kind: {op: {...}}}}. Parsed as one document, simdjson's tape, index and strings are
// ~2.5 x the file in fresh memory, and page faults on it cost as much as the parse. So the two outer
// levels are cut by hand (json_value_scanner finds where each value ends) and each kind's object of ops is
// parsed as one document by a parser reused from kind to kind (on two threads where a core is free for
// it). A kind over kWholeKindBytes is cut into its ops as well, each op then its own document: the memory
// touched is that of the largest kind up to that bound, else of the largest op. (Ops one by one cost
// simdjson ~1.3-1.6 x the time of the same bytes in kind-sized documents, and the cut more.)
// The result is the whole-document reader's: every byte is still validated by simdjson — each kind or op
// as its own document, and the keys of every object cut by hand in a skeleton copy ({"key":0,…}) — and
// the bytes the hand cut reads itself are only JSON whitespace, ':', ',', '{' and '}'. Any other shape
// (an outer value that is not an object) is left to the whole-document reader.

// A kind's object up to this size is one document; a larger one is cut into its ops.
constexpr std::size_t kWholeKindBytes = std::size_t(1) << 20;

struct Span {
    std::size_t begin = 0, end = 0; // a value's bytes [begin, end) in the file
};

struct Member {
    std::string key;
    Span value;
    std::size_t child = 0; // the object it holds (levels 0 and 1), an index into Cutter::objects
    bool whole = false;    // a kind read as one document (not cut: child unused)
};

// One pass over the file: the outer object levels are read by hand, each kind's end (or, in a kind over
// kWholeKindBytes, each op's) is found by json_value_scanner; the bytes it scans are scanned again by
// simdjson (and a large kind's twice by json_value_scanner).
struct Cutter {
    const char* text;
    std::size_t len; // the file's length (text is zero-padded past it)
    simdjson::dom::parser skeleton;
    std::vector<std::vector<Member>> objects; // [0]: the steps; each step's kinds; each kind's ops

    Cutter(const char* t, std::size_t n) : text(t), len(n) {}
    static bool ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
    std::size_t skipWs(std::size_t p) const {
        while (p < len && ws(text[p]))
            ++p;
        return p;
    }

    // The object at text[p] ('{') of the given level (0: the file, 2: a kind, whose values are ops): its
    // members go to objects[index], sorted by key with the last of equal keys kept (as nlohmann's
    // std::map holds them). Returns the position after its '}', or kScanIncomplete when it is not a
    // well-formed object of objects (a value of level 0 or 1 that is not an object included).
    std::size_t object(std::size_t p, int level, std::size_t& index) {
        if (p >= len || text[p] != '{') return kScanIncomplete;
        index = objects.size();
        objects.emplace_back();
        std::vector<Span> keys;
        std::vector<Member> values;
        p = skipWs(p + 1);
        if (p < len && text[p] != '}') {
            for (;;) {
                if (p >= len || text[p] != '"') return kScanIncomplete;
                const std::size_t keyEnd = scanJsonValue(text, p, len);
                if (keyEnd == kScanIncomplete) return kScanIncomplete;
                keys.push_back({p, keyEnd});
                p = skipWs(keyEnd);
                if (p >= len || text[p] != ':') return kScanIncomplete;
                p = skipWs(p + 1);
                Member m;
                std::size_t valueEnd = kScanIncomplete;
                if (level == 1 && p < len && text[p] == '{') { // a kind: one document, unless it is large
                    valueEnd = scanJsonValue(text, p, len);
                    m.whole = valueEnd != kScanIncomplete && valueEnd - p <= kWholeKindBytes;
                }
                if (!m.whole)
                    valueEnd = level < 2 ? object(p, level + 1, m.child)
                               : p < len ? scanJsonValue(text, p, len)
                                         : kScanIncomplete;
                if (valueEnd == kScanIncomplete) return kScanIncomplete;
                m.value = {p, valueEnd};
                values.push_back(std::move(m));
                p = skipWs(valueEnd);
                if (p < len && text[p] == '}') break;
                if (p >= len || text[p] != ',') return kScanIncomplete;
                p = skipWs(p + 1);
            }
        }
        if (p >= len) return kScanIncomplete;
        // The keys as simdjson reads them (validated, unescaped), from {"key":0,"key":0,…}.
        std::string sk = "{";
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (i) sk += ',';
            sk.append(text + keys[i].begin, keys[i].end - keys[i].begin);
            sk += ":0";
        }
        sk += '}';
        element root;
        simdjson::dom::object o;
        if (skeleton.parse(sk).get(root) || root.get_object().get(o)) return kScanIncomplete;
        std::vector<std::pair<std::string_view, std::size_t>> byKey;
        byKey.reserve(keys.size());
        for (auto kv : o)
            byKey.emplace_back(kv.key, byKey.size());
        if (byKey.size() != values.size()) return kScanIncomplete;
        std::stable_sort(byKey.begin(), byKey.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<Member>& out = objects[index];
        out.reserve(byKey.size());
        std::vector<Span> dropped; // values of a repeated key but the last: never read, still validated
        for (std::size_t i = 0; i < byKey.size(); ++i)
            if (i + 1 == byKey.size() || byKey[i + 1].first != byKey[i].first) {
                Member& m = values[byKey[i].second];
                m.key = std::string(byKey[i].first);
                out.push_back(std::move(m));
            } else {
                dropped.push_back(values[byKey[i].second].value);
            }
        // (byKey's views into the skeleton's document are not used past this point.)
        for (const Span& d : dropped)
            if (skeleton.parse(text + d.begin, d.end - d.begin).get(root)) return kScanIncomplete;
        return p + 1;
    }
};

struct Leaf {
    const std::string* step;
    const std::string* kind;
    std::string* name; // moved into the op read from it (each leaf is read once); null: value is the kind's
                       // whole object of ops
    Span value;
};

// Reads leaves [from, to) into ops and sink; false when one is not valid JSON (or a whole kind is not an
// object).
bool readLeaves(const char* text, const std::vector<Leaf>& leaves, std::size_t from, std::size_t to,
                const std::string& path, std::vector<CommOp>& ops, FindingSink& sink,
                simdjson::dom::parser& parser) {
    Members all, kindOps;
    const auto readOp = [&](const Leaf& l, element op, std::string&& name) {
        element ti, bw;
        bool hasBw = false;
        if (!OpReader::parts(op, ti, bw, hasBw)) return;
        OpReader r{path, sink, all, {}};
        r.c.step = *l.step;
        r.c.kind = *l.kind;
        r.c.name = std::move(name);
        r.read(ti, bw, hasBw);
        ops.push_back(std::move(r.c));
    };
    for (std::size_t i = from; i < to; ++i) {
        const Leaf& l = leaves[i];
        element e;
        // The bytes after a value are the rest of the file and its padding: readable, as simdjson needs.
        if (parser.parse(text + l.value.begin, l.value.end - l.value.begin, false).get(e)) return false;
        if (l.name) {
            readOp(l, e, std::move(*l.name));
            continue;
        }
        if (!membersInto(e, kindOps)) return false;
        for (const auto& [name, op] : kindOps)
            readOp(l, op, std::string(name));
    }
    return true;
}

// Below this many bytes of ops, a second thread costs more than it saves.
constexpr std::size_t kParallelBytes = 1 << 20;

bool readSplit(const std::string& path, const FileBuffer& fb, Profile& profile, FindingSink& sink, int threads) {
    Cutter cut(fb.begin(), fb.length);
    std::size_t top = 0;
    const std::size_t end = cut.object(cut.skipWs(0), 0, top);
    if (end == kScanIncomplete || cut.skipWs(end) != fb.length) return false;
    std::vector<Leaf> leaves;
    std::size_t bytes = 0;
    for (const auto& step : cut.objects[top])
        for (const auto& kind : cut.objects[step.child]) {
            if (kind.whole) {
                leaves.push_back({&step.key, &kind.key, nullptr, kind.value});
                bytes += kind.value.end - kind.value.begin;
                continue;
            }
            for (auto& op : cut.objects[kind.child]) {
                leaves.push_back({&step.key, &kind.key, &op.key, op.value});
                bytes += op.value.end - op.value.begin;
            }
        }
    // Two halves of about equal bytes, each with its own parser, ops and findings; joined in order.
    std::size_t mid = leaves.size(), acc = 0;
    if (bytes >= kParallelBytes && sideFileThreads(threads) > 1)
        for (std::size_t i = 0; i < leaves.size(); ++i) {
            acc += leaves[i].value.end - leaves[i].value.begin;
            if (acc * 2 >= bytes) {
                mid = i + 1;
                break;
            }
        }
    std::vector<CommOp> first, second;
    FindingSink firstSink(sink.capForParts()), secondSink(sink.capForParts()); // FindingSink::join
    bool okFirst = true, okSecond = true;
    std::exception_ptr error;
    std::thread other;
    if (mid < leaves.size()) {
        try {
            other = std::thread([&] {
                try {
                    simdjson::dom::parser parser;
                    okSecond =
                        readLeaves(fb.begin(), leaves, mid, leaves.size(), path, second, secondSink, parser);
                } catch (...) {
                    error = std::current_exception();
                }
            });
        } catch (const std::system_error&) {
            simdjson::dom::parser parser;
            okSecond = readLeaves(fb.begin(), leaves, mid, leaves.size(), path, second, secondSink, parser);
        }
    }
    try {
        simdjson::dom::parser parser;
        okFirst = readLeaves(fb.begin(), leaves, 0, mid, path, first, firstSink, parser);
    } catch (...) {
        if (other.joinable()) other.join();
        throw;
    }
    if (other.joinable()) other.join();
    if (error) std::rethrow_exception(error);
    if (!okFirst || !okSecond) return false;
    profile.commOps.reserve(profile.commOps.size() + first.size() + second.size());
    for (auto* part : {&first, &second})
        for (auto& c : *part)
            profile.commOps.push_back(std::move(c));
    sink.join(firstSink);
    sink.join(secondSink);
    profile.hasCommunicationJson = true;
    return true;
}

// --- The streamed reader ---------------------------------------------------------------------------
// The split reader's result without the file in memory: the file is read front to back into one reused
// window, and each kind is read (as one document, or cut into its ops when over kWholeKindBytes) as soon as
// its bytes are in the window. The whole-file buffer cost a fresh page for every 4 KiB of the file and a
// trip to memory for every byte the parse read back (72 MB at 1 GB of trace: 20-38 % of the read). Kinds
// are read in file order; their ops and findings are kept per kind and handed on at the end in the
// reference's order: steps by key, then kinds by key, the last of a repeated key kept.

class Window {
  public:
    Window(int fd, std::size_t bytes) : fd_(fd), buf_(bytes + kReadPadding, '\0') {}
    const char* data() const { return buf_.data(); }
    std::size_t size() const { return len_; }
    bool ended() const { return ended_; }
    bool failed() const { return failed_; }
    // Drops the bytes before `from` (the rest moves to the front: positions held move back by `from`) and
    // reads on until the window is full or the file ends; a window that is full from its first byte is
    // doubled first. False when nothing more was read. The 64 bytes after the window's bytes are zero.
    bool refill(std::size_t from) {
        std::memmove(buf_.data(), buf_.data() + from, len_ - from);
        len_ -= from;
        if (len_ == capacity()) buf_.resize(2 * capacity() + kReadPadding);
        const std::size_t before = len_;
        while (len_ < capacity() && !ended_) {
            const ssize_t n = ::read(fd_, buf_.data() + len_, capacity() - len_);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                ended_ = true;
                failed_ = n < 0;
                break;
            }
            len_ += static_cast<std::size_t>(n);
        }
        std::memset(buf_.data() + len_, 0, kReadPadding);
        return len_ > before;
    }

  private:
    std::size_t capacity() const { return buf_.size() - kReadPadding; }
    int fd_;
    std::vector<char> buf_;
    std::size_t len_ = 0;
    bool ended_ = false, failed_ = false;
};

struct KindRead {
    std::string key;
    std::vector<CommOp> ops;
    FindingSink sink;
};
struct StepRead {
    std::string key;
    std::vector<KindRead> kinds;
};

} // namespace

bool readStreamed(const std::string& path, Profile& profile, FindingSink& sink, std::size_t windowBytes) {
    const CheckedFile file = openCheckedFile(path, 1ULL << 30, false);
    if (file.fd < 0) return false; // the whole-file reader says why
    Window win(file.fd, std::max<std::size_t>(windowBytes, 16));
    win.refill(0);
    if (win.size() >= 3 && std::memcmp(win.data(), "\xEF\xBB\xBF", 3) == 0) return false; // a BOM
    simdjson::dom::parser parser;
    std::size_t pos = 0;
    const auto more = [&] { // reads on, keeping the bytes from pos
        const std::size_t from = pos;
        const bool got = win.refill(from);
        pos -= from;
        return got;
    };
    const auto skipWs = [&] {
        for (;;) {
            while (pos < win.size() && Cutter::ws(win.data()[pos]))
                ++pos;
            if (pos < win.size() || !more()) return;
        }
    };
    const auto at = [&](char c) {
        skipWs();
        return pos < win.size() && win.data()[pos] == c;
    };
    // The end of the string or object at pos, read on until it is in the window; kScanIncomplete when the
    // file ends first.
    const auto valueEnd = [&]() -> std::size_t {
        for (;;) {
            const std::size_t e = scanJsonValue(win.data(), pos, win.size());
            if (e != kScanIncomplete || win.ended()) return e;
            more();
        }
    };
    // A key at pos, unescaped and validated by simdjson, then its ':'; pos after the ':'.
    const auto key = [&](std::string& out) {
        if (!at('"')) return false;
        const std::size_t e = valueEnd();
        if (e == kScanIncomplete) return false;
        const std::string raw(win.data() + pos, e - pos);
        if (leftToReference(raw)) return false;
        element k;
        std::string_view text;
        if (parser.parse(raw).get(k) || k.get_string().get(text)) return false;
        out.assign(text);
        pos = e;
        if (!at(':')) return false;
        ++pos;
        return true;
    };
    std::vector<StepRead> steps;
    std::vector<Leaf> leaves;
    if (!at('{')) return false;
    ++pos;
    if (!at('}'))
        for (;;) {
            StepRead& step = steps.emplace_back();
            if (!key(step.key) || !at('{')) return false;
            ++pos;
            if (!at('}'))
                for (;;) {
                    KindRead& kind =
                        step.kinds.emplace_back(KindRead{{}, {}, FindingSink(sink.capForParts())});
                    if (!key(kind.key) || !at('{')) return false;
                    const std::size_t e = valueEnd();
                    if (e == kScanIncomplete) return false;
                    const std::string_view bytes(win.data() + pos, e - pos);
                    if (leftToReference(bytes)) return false;
                    leaves.clear();
                    std::optional<Cutter> cut; // holds the op names the leaves point to
                    if (bytes.size() <= kWholeKindBytes) {
                        leaves.push_back({&step.key, &kind.key, nullptr, {pos, e}});
                    } else {
                        std::size_t ops = 0;
                        if (cut.emplace(win.data(), win.size()).object(pos, 2, ops) != e) return false;
                        for (auto& op : cut->objects[ops])
                            leaves.push_back({&step.key, &kind.key, &op.key, op.value});
                    }
                    if (!readLeaves(win.data(), leaves, 0, leaves.size(), path, kind.ops, kind.sink, parser))
                        return false;
                    pos = e;
                    if (at('}')) break;
                    if (!at(',')) return false;
                    ++pos;
                }
            ++pos; // the step's '}'
            if (at('}')) break;
            if (!at(',')) return false;
            ++pos;
        }
    ++pos; // the file's '}'
    skipWs();
    if (pos < win.size() || win.failed()) return false; // text after the object, or a read error
    // The reference's order: steps by key, then kinds by key, the last of a repeated key kept.
    const auto keyOf = [](const auto& x) { return std::string_view(x.key); };
    sortKeepingLast(steps, keyOf);
    std::size_t total = 0;
    for (auto& step : steps) {
        sortKeepingLast(step.kinds, keyOf);
        for (const auto& kind : step.kinds)
            total += kind.ops.size();
    }
    profile.commOps.reserve(profile.commOps.size() + total);
    for (auto& step : steps)
        for (auto& kind : step.kinds) {
            for (auto& c : kind.ops)
                profile.commOps.push_back(std::move(c));
            sink.join(kind.sink);
        }
    profile.hasCommunicationJson = true;
    return true;
}

namespace {

// The whole file as one simdjson document (any shape the split reader leaves).
bool readWhole(const std::string& path, const FileBuffer& fb, Profile& profile, FindingSink& sink) {
    simdjson::dom::parser parser;
    element root;
    if (parser.parse(fb.begin(), fb.length, false).get(root) || !isObject(root)) return false;
    Members all; // the transports' room, reused
    for (const auto& [step, kinds] : members(root)) {
        for (const auto& [kind, ops] : members(kinds)) {
            for (const auto& [name, op] : members(ops)) {
                element ti, bw;
                bool hasBw = false;
                if (!OpReader::parts(op, ti, bw, hasBw)) continue;
                OpReader r{path, sink, all, {}};
                r.c.step = std::string(step);
                r.c.kind = std::string(kind);
                r.c.name = std::string(name);
                r.read(ti, bw, hasBw);
                profile.commOps.push_back(std::move(r.c));
            }
        }
    }
    profile.hasCommunicationJson = true;
    return true;
}

} // namespace

bool readFast(const std::string& path, const FileBuffer& fb, Profile& profile, FindingSink& sink, FastPath how,
              int threads) {
    if (!fb.data || leftToReference(fb.view())) return false;
    if (how != FastPath::Whole && readSplit(path, fb, profile, sink, threads)) return true;
    return how != FastPath::Split && readWhole(path, fb, profile, sink);
}

} // namespace bs::commjson

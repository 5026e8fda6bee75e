// The fast communication.json reader: simdjson's DOM (it validates the whole file, as nlohmann does)
// walked the way the reference walks its nlohmann DOM — objects in key order with the last of repeated
// keys kept (nlohmann's std::map), numbers shown as nlohmann prints them. ~20 x faster and a fraction of
// the memory of the nlohmann DOM (10 x the file), which used to be the slowest part of loading a rank.
#include "io/communication_json.h"
#include "i18n/message.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

namespace bs::commjson {

namespace {

static_assert(kReadPadding >= simdjson::SIMDJSON_PADDING, "simdjson parses the buffer in place");

using simdjson::dom::element;
using simdjson::dom::element_type;
using Members = std::vector<std::pair<std::string_view, element>>;

// An object's members as nlohmann's std::map holds them: sorted by key, the last of equal keys kept.
Members members(element e) {
    Members all;
    simdjson::dom::object o;
    if (e.get_object().get(o)) return all;
    for (auto kv : o)
        all.emplace_back(kv.key, kv.value);
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    Members kept;
    kept.reserve(all.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        if (i + 1 == all.size() || all[i + 1].first != all[i].first) kept.push_back(all[i]);
    return kept;
}

// The value of `key` in object `obj` (the last one, as nlohmann keeps it); false when absent.
bool field(element obj, std::string_view key, element& out) {
    simdjson::dom::object o;
    if (obj.get_object().get(o)) return false;
    bool found = false;
    for (auto kv : o)
        if (kv.key == key) {
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

// The value as nlohmann::json::dump() prints it.
std::string shown(element e) {
    switch (e.type()) {
    case element_type::INT64:
        return std::to_string(std::int64_t(e));
    case element_type::UINT64:
        return std::to_string(std::uint64_t(e));
    case element_type::DOUBLE:
        return nlohmann::json(double(e)).dump();
    default: // rare (a finding's text): re-read by nlohmann, which prints it its way
        return nlohmann::json::parse(simdjson::minify(e)).dump();
    }
}

struct OpReader {
    const std::string& path;
    FindingSink& sink;
    CommOp c;

    void start(element ti) {
        element st;
        if (!field(ti, "Start Timestamp(us)", st) || !isNumber(st)) return;
        // The reference re-reads the number from its dump(): the same text gives the same time.
        const std::string text = shown(st);
        const auto ns = parseMicrosToNs(text);
        if (ns && plausibleStart(*ns)) // 0: not written ("Total Op Info")
            c.start = *ns;
        else
            outOfRange(sink, path, place(c.step, c.kind, c.name, "Start Timestamp(us)"), text,
                       msg("a timestamp in µs between 1970 and ~2096 (at most 4e15)").c_str(),
                       msg("its start is unknown, so it marks no communication window").c_str());
    }

    TimeNs duration(element ti, const char* key) {
        element v;
        if (!field(ti, key, v) || v.type() == element_type::NULL_VALUE) return 0;
        if (v.type() == element_type::STRING && std::string_view(v) == "N/A") return 0;
        const auto ns = durationNs(isNumber(v) ? asDouble(v) : -1.0);
        if (ns) return *ns;
        outOfRange(sink, path, place(c.step, c.kind, c.name, key), shown(v),
                   msg("a duration in ms from 0 to 1e6 (1000 s)").c_str(),
                   msg("this duration counts as 0 (unknown)").c_str());
        return 0;
    }

    // Σ Transit Size(MB) over the physical links (SDMA repeats HCCS/SIO traffic in these exports).
    void bandwidth(element op) {
        element bw;
        if (!field(op, "Communication Bandwidth Info", bw) || !isObject(bw)) return;
        for (const auto& [transport, info] : members(bw)) {
            element sz;
            if (transport == "SDMA" || !isObject(info) || !field(info, "Transit Size(MB)", sz) ||
                !isNumber(sz))
                continue;
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

    void read(element op, element ti) {
        start(ti);
        c.elapse = duration(ti, "Elapse Time(ms)");
        c.transit = duration(ti, "Transit Time(ms)");
        c.wait = duration(ti, "Wait Time(ms)");
        c.sync = duration(ti, "Synchronization Time(ms)");
        c.idle = duration(ti, "Idle Time(ms)");
        bandwidth(op);
    }
};

// Files whose reading could differ from nlohmann's: a BOM (nlohmann skips it) and \u escapes (the two
// libraries differ on unpaired surrogates). Profilers write neither.
bool leftToReference(std::string_view text) {
    return (text.size() >= 3 && std::memcmp(text.data(), "\xEF\xBB\xBF", 3) == 0) ||
           text.find("\\u") != std::string_view::npos;
}

} // namespace

bool readFast(const std::string& path, const FileBuffer& fb, Profile& profile, FindingSink& sink) {
    if (!fb.data || leftToReference(fb.view())) return false;
    simdjson::dom::parser parser;
    element root;
    if (parser.parse(fb.begin(), fb.length, false).get(root) || !isObject(root)) return false;
    for (const auto& [step, kinds] : members(root)) {
        for (const auto& [kind, ops] : members(kinds)) {
            for (const auto& [name, op] : members(ops)) {
                element ti;
                if (!isObject(op) || !field(op, "Communication Time Info", ti) || !isObject(ti)) continue;
                OpReader r{path, sink, {}};
                r.c.step = std::string(step);
                r.c.kind = std::string(kind);
                r.c.name = std::string(name);
                r.read(op, ti);
                profile.commOps.push_back(std::move(r.c));
            }
        }
    }
    profile.hasCommunicationJson = true;
    return true;
}

} // namespace bs::commjson

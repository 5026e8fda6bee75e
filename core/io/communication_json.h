#pragma once
// communication.json is read by two readers that must agree byte for byte: the reference (nlohmann DOM,
// side_file_readers.cpp) and a fast one (simdjson DOM, communication_json_fast.cpp) used whenever it can
// give the reference's answer. What they share is here.
#include "io/file_buffer.h"
#include "model/profile.h"

#include <optional>
#include <string>

namespace bs::commjson {

// Transit sizes per link and collective: 0 … 1e9 MB (a petabyte) is far beyond any real collective.
constexpr double kMaxTransitMB = 1e9;

// Where a value sits, for messages: "step50 › collective › hcom_… › Elapse Time(ms)".
std::string place(const std::string& step, const std::string& kind, const std::string& op, const char* key);

// The json_value_out_of_range finding; `shown` is the value as nlohmann::json::dump() prints it.
void outOfRange(FindingSink& sink, const std::string& path, const std::string& place,
                const std::string& shown, const char* expected, const char* dropped);

// A duration in ms as ns: 0 … 1000 s; a difference's rounding noise below 1 µs is 0; nullopt when out of
// range (or -1, which callers pass for a value that is not a number).
std::optional<TimeNs> durationNs(double ms);

// Reads fb (communication.json) into profile.commOps exactly as the reference does and returns true; or
// returns false without touching profile or sink, for files it leaves to the reference: those simdjson
// rejects or reads differently (a BOM, \u escapes, numbers out of double range, nesting past 1024).
// How: the split reader (ops parsed one by one, on two threads) falling back to the whole-document
// reader for shapes it leaves (Either), or only one of them (tests compare the two).
enum class FastPath { Either, Split, Whole };
// threads: the split reader's (2: two halves of the ops at once; 0 decides, sideFileThreads).
bool readFast(const std::string& path, const FileBuffer& fb, Profile& profile, FindingSink& sink,
              FastPath how = FastPath::Either, int threads = 0);

// The split reader's answer read straight from the file through a window of windowBytes (grown for a kind
// larger than it): no buffer of the whole file. False, without touching profile or sink, for a file it
// cannot open or leaves to the others (the whole-file readers then read it and say what is wrong).
constexpr std::size_t kStreamWindowBytes = std::size_t(4) << 20;
bool readStreamed(const std::string& path, Profile& profile, FindingSink& sink,
                  std::size_t windowBytes = kStreamWindowBytes);

// The reference reader (nlohmann DOM), for every file; side_file_readers.cpp.
bool readReference(const std::string& path, const FileBuffer& fb, Profile& profile, FindingSink& sink);

} // namespace bs::commjson

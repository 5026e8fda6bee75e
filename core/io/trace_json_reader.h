#pragma once
// Streaming reader for Chrome-trace JSON (trace_view.json, msprof_*.json): bare array or
// {"traceEvents": [...]}. The file is read in chunks; a small scanner cuts the array into its
// elements (on a second thread, a few chunks ahead), simdjson parses the elements of each chunk (on one
// or more parse threads) and the events are built in file order. A file that ends mid-event keeps every complete event
// and reports the byte offset of the cut. Memory is bounded by the chunk, not the file.
#include "io/load_control.h"
#include "model/profile.h"

#include <string>

namespace bs {

struct TraceReadResult {
    bool ok = false; // something was read
    std::uint64_t fileBytes = 0;
    std::size_t elements = 0;    // complete top-level elements (events of every phase)
    std::size_t badElements = 0; // complete but invalid elements (skipped, reported)
    bool truncated = false;
    std::uint64_t cutOffset = 0; // byte offset where the incomplete tail starts
    bool cancelled = false;
};

struct TraceReadOptions {
    // Small enough that the bytes read are still in the CPU's cache when they are scanned and then
    // parsed (16 MB chunks took ~20 % longer); an element larger than the chunk grows the buffer.
    std::size_t chunkBytes = 512u << 10;
    // Threads that parse chunks side by side (their events are built in file order on the calling
    // thread): 0 = from the machine's cores (2, or 3 on more than two cores).
    std::size_t parseThreads = 0;
};

// Flows by time, then id, phase, lane and category (a total order: the same sequence as std::sort with
// it), faster on the trace's runs of starts and of finishes.
void sortFlows(std::vector<FlowEvent>& flows);

TraceReadResult readTraceJson(const std::string& path, Profile& profile, FindingSink& sink,
                              const LoadControl& control = {}, const TraceReadOptions& options = {});

} // namespace bs

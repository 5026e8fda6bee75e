#pragma once
// Steps the loader runs on the merged kernel list (sorted by start): the join with the trace's device
// events and the bad-input checks. Both are O(n log n) in the kernels, however many share a start time.
#include "model/profile.h"

namespace bs {

// Fills task type and stream of table kernels from the device events of the trace, joining on the start
// time (kernel_details "Start Time(us)" equals the device event ts), preferring the event on the same
// stream (or, when the kernel has no stream, of the same name); else the first event at that time.
// Sets inventory.kernelsTaskTypeFromTrace / kernelsWithoutStream / streamsFromTrace.
void joinKernelsWithTrace(Profile& prof);

// Bad-input checks: timestamps on another scale (left out), exact duplicate rows (counted once) and tasks
// that overlap on one stream (reported). Findings go to `sink`.
void checkKernelTable(Profile& prof, FindingSink& sink);

} // namespace bs

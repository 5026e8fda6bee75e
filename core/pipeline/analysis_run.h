#pragma once
// The old place of the pipeline (now core/pipeline/analysis_run.h, above analysis, architecture and replay).
// Kept only as an include path for app/ and ui/ until they name the new one; nothing in core includes it.
#include "pipeline/analysis_run.h"

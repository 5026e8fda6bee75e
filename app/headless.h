#pragma once
#include "i18n/message.h"

// `bubblescope analyze PATH [--json FILE] [--format text|json]`: headless, no display needed.
#include <string>

int runAnalyzeCommand(int argc, char** argv);

// `bubblescope cluster PARENT`: every rank analysed as `analyze PARENT` does, only the cluster written.
struct ClusterOfRanks {
    std::string path, json, report, format = "text";
    bool formatGiven = false, quiet = false, progressLines = false;
    bs::Language language = bs::Language::English; // --lang
};
int runClusterOfRanks(const ClusterOfRanks& request);

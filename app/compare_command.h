#pragma once
// `bubblescope compare BASE NEW [--json FILE] [--report FILE] [--format text|json] [-q]`: two profiles before /
// after a change (ANALYSIS.md §14), headless. Exit codes as `analyze`.
int runCompareCommand(int argc, char** argv);

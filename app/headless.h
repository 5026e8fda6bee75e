#pragma once
// `bubblescope analyze PATH [--json FILE] [--format text|json]`: headless, no display needed.
int runAnalyzeCommand(int argc, char** argv);

#pragma once
// `bubblescope cluster SUMMARY_DIR|PARENT [--json FILE] [--report FILE]`: the merge of a job array's rank
// summaries, or the cluster comparison of a parent analysed here.
int runClusterCommand(int argc, char** argv);

// What the cluster keeps of one analysed rank (its model is freed afterwards).
#include "analysis/analysis_run.h"
#include "cluster/cluster_analysis.h"
#include "i18n/message.h"
#include "model/profile.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <system_error>

namespace bs {

namespace {

// a − b for sorted, disjoint interval lists.
std::vector<Interval> minus(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    std::vector<Interval> out;
    std::size_t j = 0;
    for (Interval cur : a) {
        while (j < b.size() && b[j].b <= cur.a)
            ++j;
        for (std::size_t k = j; k < b.size() && b[k].a < cur.b; ++k) {
            if (b[k].a > cur.a) out.push_back({cur.a, b[k].a});
            cur.a = std::max(cur.a, b[k].b);
        }
        if (cur.b > cur.a) out.push_back(cur);
    }
    return out;
}

bool isReceive(std::string_view name) {
    std::string low(name);
    for (char& ch : low)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return low.find("receive") != std::string::npos || low.find("recv") != std::string::npos;
}

std::string stripAt(const std::string& name) {
    const auto at = name.find('@');
    return at == std::string::npos ? name : name.substr(0, at);
}

// The digits of "rank3", "rank3_ascend_pt", "…_3" (the last run of digits); -1 when none.
int trailingNumber(const std::string& s) {
    int end = static_cast<int>(s.size());
    while (end > 0 && !std::isdigit(static_cast<unsigned char>(s[end - 1])))
        --end;
    int begin = end;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(s[begin - 1])))
        --begin;
    if (begin == end || end - begin > 9) return -1;
    return std::stoi(s.substr(begin, end - begin));
}

// From the folder alone: msprof's PROF_<job>_<time>_<tag> holds device_<id>/ (the NPU the rank ran on; its
// own digits are a job id and a time stamp, never a rank), else the name's digits (rank1_ascend_pt → 1).
int rankIdFromFolder(const std::string& root) {
    std::string name = std::filesystem::path(root).filename().string();
    if (name.rfind("PROF_", 0) == 0) {
        int id = -1, devices = 0;
        std::error_code ec;
        for (std::filesystem::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string d = it->path().filename().string();
            std::error_code e2;
            if (d.rfind("device_", 0) != 0 || !it->is_directory(e2)) continue;
            const int n = trailingNumber(d.substr(7));
            if (n < 0 || std::to_string(n) != d.substr(7)) continue;
            id = n;
            ++devices;
        }
        return devices == 1 ? id : -1; // several devices in one PROF folder: no single rank id
    }
    if (const auto pos = name.find("_ascend_pt"); pos != std::string::npos) name = name.substr(0, pos);
    return trailingNumber(name);
}

int rankIdOf(const RankFolder& rank, const Profile& p) {
    // profiler_info_{rank}.json names the rank (its rank_id is the same number); otherwise the folder.
    for (const auto& f : p.inventory.files)
        if (f.role == "profiler_info") {
            const int id = trailingNumber(std::filesystem::path(f.path).stem().string());
            if (id >= 0) return id;
        }
    return rankIdFromFolder(rank.root);
}

void addSteps(RankSummary& s, const Profile& p, const AnalysisResult& r) {
    std::vector<Interval> comm, recv, other;
    for (const auto& k : p.kernels) {
        if (k.cls != TaskClass::Comm) {
            other.push_back({k.start, k.end()});
            continue;
        }
        comm.push_back({k.start, k.end()});
        if (isReceive(p.strings.view(k.name))) recv.push_back({k.start, k.end()});
    }
    const auto commU = mergeIntervals(std::move(comm));
    const auto otherU = mergeIntervals(std::move(other));
    const auto recvExposed = minus(mergeIntervals(std::move(recv)), otherU);
    for (std::size_t i = 0; i < r.metrics.size(); ++i) {
        const StepMetrics& m = r.metrics[i];
        const Interval w{m.windowStart, m.windowEnd};
        RankStepRow row;
        row.step = m.stepId;
        row.commNotOverlapped = i < r.anomaly.stepComm.size() ? r.anomaly.stepComm[i].exposed : 0;
        row.computing = m.busyUnion - row.commNotOverlapped;
        row.communication = intersectLength(commU, w);
        row.overlapped = row.communication - row.commNotOverlapped;
        row.free = m.internalBubbleTotal;
        row.stage = row.computing + row.commNotOverlapped + row.free;
        row.bubble = intersectLength(recvExposed, w);
        row.commNotOverlappedExclReceive = row.commNotOverlapped - row.bubble;
        row.preparing = m.prelaunchGap;
        row.service = m.service;
        row.tail = m.tailGap;
        if (i < r.anomaly.stepComm.size() && r.anomaly.stepComm[i].fromJson) {
            row.commFromJson = true;
            row.commWait = r.anomaly.stepComm[i].wait;
            row.commTransit = r.anomaly.stepComm[i].transit;
        }
        s.steps.push_back(row);
    }
}

void addWindows(RankSummary& s, const AnalysisResult& r) {
    for (const auto& w : r.anomaly.windows) {
        if (s.topWindows.size() == 5) break;
        s.topWindows.push_back({w.id, windowScopeName(w.scope), w.stepId, w.span.a, w.span.length(), w.labels});
    }
}

void addCollectives(RankSummary& s, const AnalysisResult& r) {
    for (const auto& c : r.anomaly.collectives) {
        RankCollective rc;
        rc.key = stripAt(c.name);
        if (c.stepIndex >= 0 && static_cast<std::size_t>(c.stepIndex) < r.metrics.size())
            rc.step = r.metrics[static_cast<std::size_t>(c.stepIndex)].stepId;
        else if (c.stepKey.rfind("step", 0) == 0)
            if (auto n = parseInt(c.stepKey.substr(4))) rc.step = *n;
        rc.start = c.start;
        rc.elapse = c.elapse;
        rc.wait = c.wait;
        rc.transit = c.transit;
        s.collectives.push_back(std::move(rc));
    }
}

} // namespace

bool isRankFolder(const RankFolder& rank) {
    // The label is the path below the folder the user gave: a parent that happens to be called
    // "advisor…" still holds ranks.
    const std::string below = rank.label.empty() ? std::filesystem::path(rank.root).filename().string() : rank.label;
    for (const auto& part : std::filesystem::path(below)) {
        const std::string n = part.string();
        if (n == "cluster_analysis_output" || n.find("advisor") != std::string::npos) return false;
    }
    return true;
}

RankSummary summarizeRank(const RankFolder& rank, const Profile& p, const AnalysisResult& r) {
    RankSummary s;
    s.label = rank.label;
    s.folder = rank.root;
    s.rankId = rankIdOf(rank, p);
    for (const auto& k : p.kernels) {
        if (s.captureStart == 0 && s.captureEnd == 0) s.captureStart = k.start, s.captureEnd = k.end();
        s.captureStart = std::min(s.captureStart, k.start);
        s.captureEnd = std::max(s.captureEnd, k.end());
    }
    const Inventory& inv = p.inventory;
    s.profilerLevel = inv.profilerLevel;
    s.aicMetrics = inv.aicMetrics;
    if (inv.activities) {
        std::vector<std::string> a = *inv.activities;
        std::sort(a.begin(), a.end());
        for (const auto& x : a)
            s.activities += (s.activities.empty() ? "" : ",") + x;
    }
    s.hasCommunicationJson = p.hasCommunicationJson;
    s.hiddenIssue = r.anomaly.hiddenIssuePresent;
    for (const auto& f : p.loadFindings)
        if (f.severity == Severity::Error && s.dataProblems.size() < kMaxDataProblems)
            s.dataProblems.push_back(f.file.empty() ? f.seen : msg("{}: {}", f.file, f.seen));
    for (const auto& row : r.crossCheck.rows)
        s.crossCheckRows += row.matched ? 1 : 0;
    s.crossCheckMismatches = r.crossCheck.mismatches;
    addSteps(s, p, r);
    addWindows(s, r);
    addCollectives(s, r);
    return s;
}

RankSummary failedRank(const RankFolder& rank, std::string error) {
    RankSummary s;
    s.label = rank.label;
    s.folder = rank.root;
    s.rankId = rankIdFromFolder(rank.root);
    s.error = std::move(error);
    return s;
}

} // namespace bs

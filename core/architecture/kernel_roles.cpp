#include "architecture/kernel_roles.h"

#include <algorithm>

namespace bs {

namespace {

bool has(std::string_view s, std::string_view n) {
    return s.find(n) != std::string_view::npos;
}

} // namespace

bool isSamplingKernel(std::string_view n) {
    return has(n, "ArgMax") || n.rfind("rejection_", 0) == 0;
}

bool isAllToAllKernel(std::string_view n) {
    return iContains(n, "alltoall");
}

bool iContains(std::string_view s, std::string_view n) {
    if (n.size() > s.size()) return false;
    auto lower = [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); };
    for (std::size_t i = 0; i + n.size() <= s.size(); ++i) {
        std::size_t j = 0;
        while (j < n.size() && lower(s[i + j]) == lower(n[j]))
            ++j;
        if (j == n.size()) return true;
    }
    return false;
}

std::size_t kernelIndexAt(const Profile& p, TimeNs t) {
    return static_cast<std::size_t>(std::lower_bound(p.kernels.begin(), p.kernels.end(), t,
                                                     [](const Kernel& k, TimeNs x) { return k.start < x; }) -
                                    p.kernels.begin());
}

std::string kernelDisplayName(const Profile& p, const Kernel& k) {
    return std::string(k.opType ? p.str(k.opType) : p.str(k.name));
}

std::vector<LayerKernel> layerKernels(const Profile& p, const ArchLayer& l, const std::string& marker) {
    std::vector<LayerKernel> out;
    const std::size_t a = kernelIndexAt(p, l.span.a), b = kernelIndexAt(p, l.span.b);
    const bool dense = l.type.rfind("Dense", 0) == 0;
    bool seenMarker = false, projDone = false, ffnDone = false, moe = false, experts = false;
    int denseMatmuls = 0;
    for (std::size_t i = a; i < b; ++i) {
        const Kernel& k = p.kernels[i];
        const std::string_view n = p.str(k.name);
        std::string role;
        if (!marker.empty() && has(n, marker))
            role = "attention", seenMarker = true;
        else if (isSamplingKernel(n))
            role = "sampling";
        else if (k.cls == TaskClass::Comm)
            role = isAllToAllKernel(n) ? "EP comm" : "TP comm";
        else if (has(n, "MoeGatingTopK") || has(n, "MoeInitRouting"))
            role = "MoE routing", moe = true;
        else if (has(n, "DispatchFFNCombine"))
            role = "expert dispatch+FFN+combine", ffnDone = true, moe = true;
        else if (has(n, "GroupedMatmul"))
            role = "expert FFN", experts = true;
        else if (has(n, "MoeFinalizeRouting"))
            role = "expert combine", ffnDone = true;
        else if (has(n, "SwiGlu") && experts && !ffnDone)
            role = "expert FFN";
        else if (has(n, "SwiGlu") && dense && !ffnDone)
            role = "dense FFN";
        else if (k.cls == TaskClass::AiCpu)
            role = "AICPU op";
        else if (iContains(n, "matmul") && seenMarker && !projDone)
            role = "attention projection", projDone = true;
        else if (iContains(n, "matmul") && dense && projDone && !ffnDone) {
            role = "dense FFN";
            if (++denseMatmuls == 2) ffnDone = true;
        } else if (has(n, "AddRmsNorm"))
            role = moe && ffnDone ? "post-MoE norm" : "residual norm";
        else if (has(n, "Add") && k.cls == TaskClass::ComputeCore)
            role = "residual add";
        else if (ffnDone && (iContains(n, "rmsnorm") || iContains(n, "matmul") || iContains(n, "rotary") ||
                             iContains(n, "rope")))
            role = "next-layer prep";
        else if (k.dur < 10000)
            role = "small ops";
        else
            role = "other";
        LayerKernel lk{
            std::string(n), role,     std::string(p.str(k.taskType)), kernelDisplayName(p, k), k.start,
            k.dur,          k.stream, k.cls == TaskClass::AiCpu};
        out.push_back(std::move(lk));
    }
    return out;
}

} // namespace bs

#include "lower/loop_ops.h"

namespace fusescope {

std::string_view loopOpName(LoopOpKind kind) { return kLoopOpNames[static_cast<std::size_t>(kind)]; }

bool isLoadOp(LoopOpKind kind) { return kind == LoopOpKind::Load || kind == LoopOpKind::MaskedLoad; }

bool isStoreOp(LoopOpKind kind) { return kind == LoopOpKind::Store || kind == LoopOpKind::StoreReduction; }

// The structural rows come first; every math row after them has a spelling.
bool isMathOp(LoopOpKind kind) { return kind > LoopOpKind::Reduction; }

namespace {

constexpr bool rowsAreSpelledAsTheirCategory() {
    for (std::size_t k = 0; k < kLoopOpKindCount; ++k)
        if (kLoopOpSpellings[k].empty() != (k <= static_cast<std::size_t>(LoopOpKind::Reduction))) return false;
    return true;
}
static_assert(rowsAreSpelledAsTheirCategory(), "every math loop op needs a C spelling, and structural ops have none");

}  // namespace

std::string spellMathOp(LoopOpKind kind, const std::vector<std::string>& args) {
    std::string_view spelling = kLoopOpSpellings[static_cast<std::size_t>(kind)];
    std::string out;
    for (std::size_t i = 0; i < spelling.size(); ++i) {
        if (spelling[i] == '{' && i + 2 < spelling.size() && spelling[i + 2] == '}') {
            out += args.at(static_cast<std::size_t>(spelling[i + 1] - '0'));
            i += 2;
        } else {
            out += spelling[i];
        }
    }
    return out;
}

std::string_view reductionName(ReductionKind kind) {
    switch (kind) {
    case ReductionKind::Sum: return "sum";
    case ReductionKind::Prod: return "prod";
    case ReductionKind::Max: return "max";
    case ReductionKind::Min: return "min";
    case ReductionKind::ArgMax: return "argmax";
    case ReductionKind::ArgMin: return "argmin";
    case ReductionKind::Any: return "any";
    case ReductionKind::All: return "all";
    }
    return "";
}

bool isArgReduction(ReductionKind kind) { return kind == ReductionKind::ArgMax || kind == ReductionKind::ArgMin; }

std::string_view externKernelName(ExternKernelKind kind) {
    switch (kind) {
    case ExternKernelKind::Mm: return "mm";
    case ExternKernelKind::Bmm: return "bmm";
    case ExternKernelKind::Convolution: return "convolution";
    case ExternKernelKind::Attention: return "flash_attention";
    }
    return "";
}

}  // namespace fusescope

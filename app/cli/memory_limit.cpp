// --memory-limit MIB (run and serve): caps the memory the engine process may take, so that a
// script that allocates without end fails with PyTorch's "not enough memory" error at its
// line instead of taking the machine down. The limit is RLIMIT_DATA, which counts the heap
// and private writable mappings (what tensors, the JIT and threads allocate) but not the
// address space merely reserved (CUDA's and LLVM's reservations are not writable).
#include <sys/resource.h>

#include <cstdlib>
#include <iostream>

#include "cli_commands.h"

namespace fusescope::cli {

namespace {

// AddressSanitizer's shadow memory is one huge writable mapping: under a data limit every
// later mapping would fail, so a sanitized build does not apply it.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

}  // namespace

std::optional<std::string> applyMemoryLimitOption(const std::string& mebibytes) {
    char* end = nullptr;
    unsigned long long mib = std::strtoull(mebibytes.c_str(), &end, 10);
    if (mebibytes.empty() || mebibytes[0] == '-' || *end != '\0' || mib == 0 || mib > (1ull << 40))
        return "--memory-limit takes a number of MiB above 0, not '" + mebibytes + "'";
    if (kSanitized) {
        std::cerr << "fusescope-cli: --memory-limit is not applied in a build with AddressSanitizer\n";
        return std::nullopt;
    }
    struct rlimit limit;
    getrlimit(RLIMIT_DATA, &limit);
    const rlim_t bytes = static_cast<rlim_t>(mib) << 20;
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY || bytes < limit.rlim_max ? bytes : limit.rlim_max;
    if (setrlimit(RLIMIT_DATA, &limit) != 0) return "cannot set --memory-limit " + mebibytes + " MiB";
    return std::nullopt;
}

}  // namespace fusescope::cli

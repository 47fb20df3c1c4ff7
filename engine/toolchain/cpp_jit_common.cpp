// The parts of the C++ toolchain that need no LLVM: symbol look-up in a loaded module and
// the cache folder.

#include <cstdlib>

#include "toolchain/cpp_jit.h"

namespace fusescope {

namespace {

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::string defaultCacheDir() {
    if (auto dir = environment("FUSESCOPE_CACHE_DIR"); !dir.empty()) return dir;
    if (auto xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) return xdg + "/fusescope";
    if (auto home = environment("HOME"); !home.empty()) return home + "/.cache/fusescope";
    return ".fusescope-cache";  // no home at all (a bare container): next to the process
}

}  // namespace

void* CompiledModule::symbol(const std::string& name) const {
    auto found = symbols_.find(name);
    if (found == symbols_.end())
        throw Error("C++ module '" + name_ + "' defines no symbol '" + name + "'");
    return found->second;
}

std::string CppJit::cacheDir() const {
    std::lock_guard lock(cacheDirMutex_);
    return cacheDir_.empty() ? defaultCacheDir() : cacheDir_;
}

void CppJit::setCacheDir(std::string dir) {
    std::lock_guard lock(cacheDirMutex_);
    cacheDir_ = std::move(dir);
}

}  // namespace fusescope

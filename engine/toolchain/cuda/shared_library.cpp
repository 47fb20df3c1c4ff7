#include "toolchain/cuda/shared_library.h"

#include <cstdlib>

#include <dlfcn.h>
#include <unistd.h>

namespace fusescope {

SharedLibrary::SharedLibrary(const std::vector<std::string>& candidates) {
    for (const auto& candidate : candidates) {
        // NODELETE: the CUDA libraries carry their own C++ runtime, whose exception-buffer
        // pool would be left orphaned (a leak to LeakSanitizer) if they were unloaded, and
        // they are not written to be unloaded and loaded again.
        handle_ = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (handle_) {
            path_ = candidate;
            return;
        }
        const char* message = dlerror();
        error_ = message ? message : candidate + ": cannot be opened";
    }
}

SharedLibrary::~SharedLibrary() {
    if (handle_) dlclose(handle_);
}

void* SharedLibrary::symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }

namespace {

std::vector<std::string> toolkitRoots() {
    std::vector<std::string> roots;
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* value = std::getenv(variable); value && *value) roots.push_back(value);
#ifdef FUSESCOPE_CUDA_TOOLKIT_ROOT
    roots.push_back(FUSESCOPE_CUDA_TOOLKIT_ROOT);
#endif
    roots.push_back("/usr/local/cuda");
    return roots;
}

}  // namespace

std::vector<std::string> cudaLibraryCandidates(const std::vector<std::string>& names) {
    std::vector<std::string> candidates;
    for (const auto& root : toolkitRoots())
        for (const auto& name : names) candidates.push_back(root + "/lib64/" + name);
    for (const auto& name : names) candidates.push_back(name);
    return candidates;
}

std::string cudaToolPath(const std::string& tool) {
    for (const auto& root : toolkitRoots()) {
        std::string path = root + "/bin/" + tool;
        if (access(path.c_str(), X_OK) == 0) return path;
    }
    return "";
}

}  // namespace fusescope

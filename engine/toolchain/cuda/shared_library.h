#pragma once
// A shared library opened at run time (dlopen), so the engine builds and runs without the
// CUDA toolkit or driver and says plainly what is missing.

#include <string>
#include <vector>

namespace fusescope {

class SharedLibrary {
public:
    // Tries each candidate (a path, or a name the dynamic loader resolves) in order.
    explicit SharedLibrary(const std::vector<std::string>& candidates);
    ~SharedLibrary();
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;

    bool loaded() const { return handle_ != nullptr; }
    const std::string& path() const { return path_; }    // the candidate that loaded
    const std::string& error() const { return error_; }  // the loader's last message when none did

    // A function of the library, or null.
    template <class F> F function(const char* name) const { return reinterpret_cast<F>(symbol(name)); }

private:
    void* symbol(const char* name) const;
    void* handle_ = nullptr;
    std::string path_, error_;
};

// Where the CUDA toolkit's libraries may be: $CUDA_HOME and $CUDA_PATH, the toolkit CMake
// found at configure time, /usr/local/cuda; each as <dir>/lib64/<name>, then the bare name.
std::vector<std::string> cudaLibraryCandidates(const std::vector<std::string>& names);

// The toolkit's bin folder holding `tool` (nvdisasm, cuobjdump), or "".
std::string cudaToolPath(const std::string& tool);

}  // namespace fusescope

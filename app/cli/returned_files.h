#pragma once
// A remote client's artifacts (docs/remote.md): with the run param `return_files`, the bundle
// and debug folder a run writes go into a private folder on the engine's machine instead of
// the client's paths, and the answer carries them back, each under the path the client named,
// for the client to write on its own machine.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace fusescope::cli {

class ReturnedFiles {
public:
    ReturnedFiles();   // a fresh private folder; throws Error when none can be made
    ~ReturnedFiles();  // removed with what is in it
    ReturnedFiles(const ReturnedFiles&) = delete;
    ReturnedFiles& operator=(const ReturnedFiles&) = delete;

    // Where to write what the client wants at `clientPath` (a file or a folder).
    std::string redirect(const std::string& clientPath, const std::string& name);
    // Every file written there: [{"path": the client's path, "base64": its bytes}], in path order.
    nlohmann::json collect() const;

private:
    std::filesystem::path folder_;
    std::vector<std::pair<std::string, std::filesystem::path>> redirected_;  // client path, here
};

}  // namespace fusescope::cli

// A trace bundle (a zip: manifest, script, events.jsonl, debug files) read as
// `fusescope-cli bundle inspect` and the workbench read one: validated and unpacked
// (readBundle, which refuses a bad bundle with an Error naming the problem: not a zip, a
// hostile entry name, a zip bomb, a bad manifest or event line), counted (summarizeBundle),
// and each event typed as the workbench types it (eventFromJson). Anything else that escapes
// is a defect. readBundle reads a file, so each input is written to one per process.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "bundle/bundle_reader.h"
#include "bundle/bundle_summary.h"
#include "core/error.h"
#include "observe/event_from_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path = "/tmp/fusescope-fuzz-bundle-" + std::to_string(getpid()) + ".fscope";
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    try {
        fusescope::Bundle bundle = fusescope::readBundle(path);
        (void)fusescope::summarizeBundle(bundle);
        for (const nlohmann::json& event : bundle.events) (void)fusescope::eventFromJson(event);
    } catch (const fusescope::Error&) {
    }
    return 0;
}

// One line of the `serve` protocol (what the GUI sends the engine child): decoded into a
// request, and its params read as the server's methods read them. A bad line or param is a
// protocol Failure, which the server answers with an error response (built and written as
// the server writes it, messageLine, here too). Anything else that escapes is a defect.

#include <cstddef>
#include <cstdint>
#include <string>

#include "observe/protocol.h"

namespace protocol = fusescope::protocol;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string line(reinterpret_cast<const char*>(data), size);
    nlohmann::json id;
    try {
        protocol::Request request = protocol::parseRequest(line, id);
        const nlohmann::json& params = request.params;
        for (const char* name : {"script", "path", "file_name", "device", "cuda_arch", "backend", "logs", "debug_dir", "bundle",
                                 "graph", "after"})
            (void)protocol::stringParam(params, name);
        for (const char* name : {"gpu_codegen_only", "trace", "check_accuracy", "accuracy"}) (void)protocol::boolParam(params, name);
        for (const char* name : {"request", "run"}) (void)protocol::idParam(params, name);
        (void)protocol::requiredStringParam(params, "compile_id");
        (void)protocol::messageLine(protocol::resultMessage(request.id, params));
    } catch (const protocol::Failure& failure) {
        (void)protocol::messageLine(protocol::errorMessage(id, failure));
    }
    return 0;
}

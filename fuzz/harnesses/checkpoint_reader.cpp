// A checkpoint's data.pkl, as torch.load reads it: the input is wrapped in a PyTorch-style
// archive (stored records: data.pkl, byteorder, version, and storages data/0 .. data/15 of
// 256 bytes each), written to a file and loaded by a script that prints what it got
// (`x = torch.load(path); print(x)`): the restricted unpickler (weights_unpickler.cpp),
// the storages it rebuilds tensors over and the printing of whatever it built. A script
// error is torch.load's answer to a bad pickle; a crash, a sanitizer report or a hang is a
// defect. Links the whole engine (the interpreter runs the script), with its allocation
// budget; no step budget: importing torch alone runs thousands of library statements, and
// loading is native (libFuzzer's -timeout catches a hang).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

#include "bundle/zip_archive.h"
#include "core/allocator.h"
#include "core/error.h"
#include "session/script_session.h"

namespace {

// The one archive file of this process, removed when it exits.
struct ArchiveFile {
    std::string path = "/tmp/fusescope-fuzz-checkpoint-" + std::to_string(getpid()) + ".pt";
    ~ArchiveFile() { std::remove(path.c_str()); }
};

const std::string& archivePath() {
    static const ArchiveFile file;
    return file.path;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    setenv("OMP_NUM_THREADS", "1", 0);
    fusescope::setAllocationBudget(std::size_t(256) << 10);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using fusescope::ZipWriter;
    {
        ZipWriter zip(archivePath());
        const auto store = ZipWriter::Compression::Store;
        zip.add("archive/data.pkl", std::string(reinterpret_cast<const char*>(data), size), store);
        zip.add("archive/byteorder", "little", store);
        zip.add("archive/version", "3\n", store);
        for (int key = 0; key < 16; ++key) {
            std::string bytes(256, '\0');
            for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + key);
            zip.add("archive/data/" + std::to_string(key), std::move(bytes), store);
        }
        zip.close();
    }
    fusescope::ScriptSession session(fusescope::SessionOptions{});
    try {
        session.run("import torch\nx = torch.load('" + archivePath() + "')\nprint(x)\n", "fuzz.py");
    } catch (const fusescope::Error&) {
    }
    return 0;
}

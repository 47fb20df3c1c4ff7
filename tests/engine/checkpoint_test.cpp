// torch.save, torch.load and safetensors' load_file against real PyTorch (tests/checkpoints,
// make_fixtures.py): what Fusescope saves is byte for byte the file PyTorch 2.15 loaded and
// printed (saved_by_fusescope.*), and each hostile file is refused with its error, none
// crashing.
// Loading PyTorch's own checkpoints is python/torch_checkpoints.py (a reference program).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "bundle/zip_archive.h"
#include "test_support.h"

using namespace fusescope;
using namespace fusescope::test;

namespace {

std::string checkpoints(const std::string& name) { return sourcePath("tests/checkpoints/" + name); }

// A checkpoint's records by their name inside its folder (which is named after the file).
std::map<std::string, std::string> records(const std::string& path) {
    ZipReader zip(path);
    std::map<std::string, std::string> out;
    for (size_t i = 0; i < zip.entries().size(); ++i) {
        const std::string& name = zip.entries()[i].name;
        out[name.substr(name.find('/') + 1)] = zip.read(i);
    }
    return out;
}

}  // namespace

TEST(Checkpoint, WhatFusescopeSavesIsTheFilePyTorchLoaded) {
    if (!zipAvailable()) GTEST_SKIP() << zipUnavailableReason();
    const std::string fresh = writeTempFile("fresh.pt", "");
    ProcessResult save = runCli({"run", checkpoints("save_for_pytorch.py")}, {"FUSESCOPE_CHECKPOINT_OUT=" + fresh});
    ASSERT_EQ(save.exitCode, 0) << save.err;
    const auto saved = records(fresh);
    EXPECT_EQ(saved, records(checkpoints("saved_by_fusescope.pt")))
        << "torch.save writes other bytes than the file PyTorch read: run save_for_pytorch.py and make_fixtures.py again";
    EXPECT_EQ(saved.at("version"), "3\n");
    EXPECT_EQ(saved.at("byteorder"), "little");
    ASSERT_TRUE(saved.count("data/0"));

    // The records are stored, not deflated, as PyTorch stores them.
    ZipReader zip(fresh);
    for (const ZipEntryInfo& e : zip.entries()) EXPECT_EQ(e.size, e.compressedSize) << e.name;

    // Loading it back prints what PyTorch printed loading it.
    ProcessResult load = runCli({"run", checkpoints("load_in_pytorch.py")});
    ASSERT_EQ(load.exitCode, 0) << load.err;
    EXPECT_EQ(load.out, readFile(checkpoints("saved_by_fusescope.torch.out")));
}

struct HostileFile {
    const char* file;
    const char* error;  // what the script error must contain
};

class HostileCheckpoint : public testing::TestWithParam<HostileFile> {};

TEST_P(HostileCheckpoint, IsRefusedWithAClearError) {
    if (!zipAvailable()) GTEST_SKIP() << zipUnavailableReason();
    const std::string path = checkpoints(std::string("hostile/") + GetParam().file);
    const bool safetensors = path.ends_with(".safetensors");
    ScriptRun run = runScript(std::string(safetensors ? "from safetensors.torch import load_file as load\n" : "from torch import load\n") +
                              "loaded = load(r'" + path + "')\nprint('loaded')\n");
    EXPECT_EQ(run.out, "");
    EXPECT_NE(run.error.find("script.py:2:"), std::string::npos) << run.error;
    EXPECT_NE(run.error.find(GetParam().error), std::string::npos) << run.error;
}

INSTANTIATE_TEST_SUITE_P(
    Files, HostileCheckpoint,
    testing::Values(
        HostileFile{"custom_class.pt",
                    "_pickle.UnpicklingError: Weights only load failed. Fusescope loads every checkpoint as "
                    "torch.load(weights_only=True) does: tensors, numbers, strings and the containers of a state dict.\n"
                    "\tWeightsUnpickler error: Unsupported global: GLOBAL __main__.Custom was not an allowed global by default."},
        HostileFile{"runs_a_command.pt", "WeightsUnpickler error: Trying to load unsupported GLOBAL posix.system whose module posix is blocked."},
        HostileFile{"bad_opcode.pt", "WeightsUnpickler error: Unsupported operand 255"},
        HostileFile{"deep_nesting.pt", "WeightsUnpickler error: containers nested more than 1000 deep: the data is corrupt or hostile"},
        HostileFile{"huge_storage.pt", "storage data/0 holds 24 bytes, fewer than the 1152921504606846976 elements of torch.float32 its pickle declares"},
        HostileFile{"view_out_of_bounds.pt",
                    "RuntimeError: setStorage: sizes [10], strides [1], storage offset 0, and itemsize 4 requiring a storage size of 40 "
                    "are out of bounds for storage of size 24"},
        HostileFile{"truncated.pt", "RuntimeError: PytorchStreamReader failed reading zip archive: not a zip file: '"},
        HostileFile{"legacy_format.pt", "is a checkpoint in PyTorch's legacy format (torch.save before 1.6, or _use_new_zipfile_serialization=False)"},
        HostileFile{"not_a_checkpoint.pt", "is not a checkpoint torch.save wrote (not a zip archive)"},
        HostileFile{"missing.pt", "FileNotFoundError: [Errno 2] No such file or directory: '"},
        // safetensors, with the safetensors package's words (hostile/PYTORCH.txt).
        HostileFile{"st_header_too_small.safetensors", "safetensors_rust.SafetensorError: Error while deserializing header: header too small"},
        HostileFile{"st_header_length_past_end.safetensors", "Error while deserializing header: invalid header length"},
        HostileFile{"st_header_too_large.safetensors", "Error while deserializing header: header too large"},
        HostileFile{"st_not_json.safetensors", "Error while deserializing header: invalid JSON in header: "},
        HostileFile{"st_offsets_past_data.safetensors", "Error while deserializing header: incomplete metadata, file not fully covered"},
        HostileFile{"st_overlapping.safetensors", "Error while deserializing header: invalid offset for tensor `b`"},
        HostileFile{"st_shape_mismatch.safetensors", "Error while deserializing header: invalid shape, data type, or offset for tensor"}),
    [](const testing::TestParamInfo<HostileFile>& info) {
        std::string name = info.param.file;
        name = name.substr(0, name.find('.')) + (name.ends_with(".safetensors") ? "safetensors" : "");
        name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
        return name;
    });

// The unpickler refuses what a pickle must not do, each case a few bytes of data.pkl in an
// otherwise valid archive: nothing is run, nothing crashes.
TEST(Checkpoint, MalformedPicklesAreRefused) {
    if (!zipAvailable()) GTEST_SKIP() << zipUnavailableReason();
    auto pickle = [](const char* opcodes) { return std::string("\x80\x02") + opcodes; };  // PROTO 2, then these
    const std::vector<std::pair<std::string, std::string>> cases = {
        {pickle(""), "pickle data was truncated"},
        {pickle("a."), "unpickling stack underflow"},
        {pickle("t."), "could not find MARK"},
        {pickle("]](at."), "unpickling stack underflow"},  // below a MARK (a fuzzer's find: it crashed)
        {pickle("h\x05."), "Memo value not found at index 5"},
        {pickle("K\x01K\x02."), "the pickle left objects on its stack"},
        {pickle("K\x01)R."), "Trying to call reduce for unrecognized function 1"},
        {pickle("cbuiltins\neval\n."), "GLOBAL eval was not an allowed global by default"},
        {pickle("cos\nsystem\n."), "Trying to load unsupported GLOBAL os.system whose module os is blocked."},
        {pickle("K\x01K\x02" "a."), "Can only append to lists, but got <class 'int'>"},
        {pickle("}]]s."), "unhashable type: 'list'"},
        {pickle("ccollections\nCounter\n."), "the checkpoint holds collections.Counter, which Fusescope cannot load yet"},
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        const auto& [data, expected] = cases[i];
        const std::string path = writeTempFile("malformed/" + std::to_string(i) + ".pt", "");
        {
            ZipWriter zip(path);
            zip.add("archive/data.pkl", data, ZipWriter::Compression::Store);
            zip.close();
        }
        ScriptRun run = runScript("import torch\ntorch.load(r'" + path + "')\n");
        EXPECT_NE(run.error.find(expected), std::string::npos) << "expected: " << expected << "\ngot: " << run.error;
    }
}

// PyTorch's OpInfo samples (tests/opinfo/export.py): a 3 MB torch.save of 600 ops' samples,
// every one read, as many as the export says it wrote.
TEST(Checkpoint, LoadsPyTorchsOpInfoSamples) {
    if (!zipAvailable()) GTEST_SKIP() << zipUnavailableReason();
    const std::string summary = readFile(sourcePath("tests/opinfo/samples.summary.txt"));
    const std::string counts = summary.substr(0, summary.find(" samples in samples.pt"));  // "torch X: N ops, M"
    ScriptRun run = runScript("import torch\ndata = torch.load(r'" + sourcePath("tests/opinfo/samples.pt") +
                              "')\nops = data['ops']\nprint(f\"torch {data['torch']}: {len(ops)} ops, {sum(len(o['samples']) for o in ops.values())}\")\n");
    EXPECT_EQ(run.error, "");
    EXPECT_EQ(run.out, counts + "\n");
}

TEST(Checkpoint, SavingWhatIsNotDataSaysWhatToSave) {
    const std::string folder = writeTempFile("unsaved/keep", "");
    ScriptRun run = runScript("import torch\nclass Net(torch.nn.Module):\n    pass\ntorch.save(Net(), r'" + folder + ".pt')\n");
    EXPECT_NE(run.error.find("script.py:4:1: error: NotImplementedError: torch.save: Fusescope saves tensors"), std::string::npos) << run.error;
    EXPECT_NE(run.error.find("(a state_dict(), an optimizer's state_dict()), not a 'Net' object"), std::string::npos) << run.error;
    ScriptRun noFolder = runScript("import torch\ntorch.save({}, '/nonexistent-folder/x.pt')\n");
    EXPECT_NE(noFolder.error.find("RuntimeError: Parent directory /nonexistent-folder does not exist."), std::string::npos) << noFolder.error;
}

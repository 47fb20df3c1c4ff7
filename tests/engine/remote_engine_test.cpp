// The engine on another machine over SSH (docs/remote.md), against a real sshd on a loopback
// port that the test starts (ssh_loopback.h): the protocol runs over the SSH channel; the
// engine answers `version` first; the script's own modules travel with the request (the
// project is moved away before the remote run, so the engine can read them nowhere else);
// the bundle and the debug folder come back in the answer. Events, debug folder and bundle
// equal a local run's, but for times.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "bundle/bundle_format.h"
#include "bundle/bundle_reader.h"
#include "bundle/zip_archive.h"
#include "core/base64.h"
#include "observe/protocol.h"
#include "serve_child.h"
#include "ssh_loopback.h"
#include "test_support.h"

namespace fs = std::filesystem;
using nlohmann::json;
using fusescope::loopback::SshLoopback;

namespace fusescope::test {
namespace {

json withoutTimes(json event);
std::string withoutTimes(const std::string& text) { return withoutTimes(json(text)).get<std::string>(); }

// An event without what differs from run to run: times, threads, whether a kernel came from
// the cache, and the addresses of objects guards check.
json withoutTimes(json event) {
    static const std::regex timed(R"(seconds|_ns$|^ts$|^dur$|^tid$|from_cache)"), address(R"(, \d{9,}\))");
    if (event.is_string()) return std::regex_replace(event.get<std::string>(), address, ", <id>)");
    if (event.is_object()) {
        for (auto it = event.begin(); it != event.end();) {
            if (std::regex_search(it.key(), timed)) it = event.erase(it);
            else *it = withoutTimes(*it), ++it;
        }
    } else if (event.is_array()) {
        for (auto& e : event) e = withoutTimes(e);
    }
    return event;
}

// The files under `dir` by path, their texts without addresses (a debug folder's guards.txt).
std::map<std::string, std::string> filesBelow(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) files[e.path().lexically_relative(dir).string()] = withoutTimes(readFile(e.path().string()));
    return files;
}

ServeChild::Command overSsh(const SshLoopback& sshd) {
    std::vector<std::string> argv;
    std::istringstream words(sshd.sshCommand());
    for (std::string w; words >> w;) argv.push_back(w);
    argv.insert(argv.end(), {"-p", std::to_string(sshd.port()), sshd.user() + "@127.0.0.1", "--", cliPath(), "serve"});
    return {argv, {}};
}

TEST(RemoteEngine, ARunOverSshGivesWhatALocalRunGives) {
    SshLoopback sshd;
    ASSERT_EQ(sshd.error(), "");
    fs::path dir = fs::path(testing::TempDir()) / "remote_engine";
    fs::remove_all(dir);
    fs::path project = dir / "project";
    fs::create_directories(project);
    const std::string model = "import torch\n\ndef scaled(x):\n    return torch.relu(x * 2.0) + 1\n";
    const std::string script = "import torch\nfrom model import scaled\n\nf = torch.compile(scaled)\nprint(f(torch.arange(6.0) - 3))\n";
    std::ofstream(project / "model.py") << model;
    const bool bundles = zipAvailable();
    auto params = [&](const fs::path& out) {
        json p = {{"script", script}, {"file_name", (project / "train.py").string()}, {"trace", true}, {"debug_dir", (out / "debug").string()}};
        if (bundles) p["bundle"] = (out / "run.fscope").string();
        return p;
    };

    // Both runs ask for the same paths; the local run's outputs are moved aside before the remote one.
    ServeChild local;
    local.send({{"id", 1}, {"method", "run"}, {"params", params(dir / "out")}});
    std::vector<json> localEvents;
    json localAnswer = local.answer(1, &localEvents);
    ASSERT_TRUE(localAnswer.contains("result")) << localAnswer.dump();
    fs::rename(dir / "out", dir / "local");

    fs::rename(project, dir / "moved_away");  // the remote engine finds model.py only in the request
    ServeChild remote(overSsh(sshd));
    remote.send({{"id", "v"}, {"method", "version"}});
    EXPECT_EQ(remote.answer("v"), (json{{"id", "v"}, {"result", {{"protocol", protocol::kVersion}, {"fusescope", engineVersion()}}}}));
    json request = params(dir / "out");
    request["files"] = {{(project / "model.py").string(), model}};
    request["return_files"] = true;
    remote.send({{"id", 2}, {"method", "run"}, {"params", request}});
    std::vector<json> remoteEvents;
    json remoteAnswer = remote.answer(2, &remoteEvents);
    ASSERT_TRUE(remoteAnswer.contains("result")) << remoteAnswer.dump().substr(0, 2000);
    EXPECT_FALSE(fs::exists(dir / "out")) << "the remote engine wrote nothing at the client's paths";

    // What came back, written where the client asked.
    const json& files = remoteAnswer["result"]["files"];
    ASSERT_TRUE(files.is_array());
    for (const json& f : files) {
        std::optional<std::string> bytes = base64Decode(f["base64"].get<std::string>());
        ASSERT_TRUE(bytes) << f["path"];
        fs::create_directories(fs::path(f["path"].get<std::string>()).parent_path());
        std::ofstream(f["path"].get<std::string>(), std::ios::binary) << *bytes;
    }
    EXPECT_EQ(files.size(), filesBelow(dir / "local").size());

    ASSERT_EQ(remoteEvents.size(), localEvents.size());
    for (size_t i = 0; i < localEvents.size(); ++i) EXPECT_EQ(withoutTimes(remoteEvents[i]), withoutTimes(localEvents[i])) << "event " << i;
    EXPECT_EQ(remoteAnswer["result"]["compiles"], localAnswer["result"]["compiles"]);
    EXPECT_EQ(filesBelow(dir / "out" / "debug"), filesBelow(dir / "local" / "debug"));
    if (bundles) {
        EXPECT_EQ(remoteAnswer["result"]["bundle"], (dir / "out" / "run.fscope").string());
        Bundle l = readBundle((dir / "local" / "run.fscope").string()), r = readBundle((dir / "out" / "run.fscope").string());
        std::vector<std::string> localNames, remoteNames;
        for (const auto& [name, text] : l.files) localNames.push_back(name);
        for (const auto& [name, text] : r.files) remoteNames.push_back(name);
        EXPECT_EQ(remoteNames, localNames);
        EXPECT_EQ(r.script, l.script);
    }
}

TEST(RemoteEngine, FilesSentWithARequestMustBeTexts) {
    ServeChild server;
    server.send({{"id", 1}, {"method", "run"}, {"params", {{"script", "print(1)\n"}, {"files", {{"/p/m.py", 3}}}}}});
    json answer = server.answer(1);
    EXPECT_EQ(answer["error"]["code"], "invalid_params");
    EXPECT_EQ(answer["error"]["message"], "files['/p/m.py'] must be the file's text");
}

}  // namespace
}  // namespace fusescope::test

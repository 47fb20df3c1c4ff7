#pragma once
// A process that speaks the engine protocol (docs/protocol.md) on pipes: `fusescope-cli serve`
// itself, or a command that reaches one (ssh to another machine). Every wait has a deadline,
// so a hung server fails the test instead of hanging it.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace fusescope::test {

using Clock = std::chrono::steady_clock;
inline constexpr auto kTimeout = std::chrono::seconds(60);

// A `fusescope-cli serve` child with its stdin and stdout on pipes (stderr to a file).
class ServeChild {
public:
    // `serveArgs` follow `serve` on the command line; `env` is added to the environment.
    explicit ServeChild(const std::vector<std::string>& serveArgs = {}, const std::vector<std::string>& env = {})
        : ServeChild(Command{withServe(serveArgs), env}) {}
    // Any command that speaks the protocol on its stdin and stdout (ssh HOST fusescope-cli serve).
    struct Command {
        std::vector<std::string> argv;
        std::vector<std::string> env;
    };
    explicit ServeChild(const Command& command) {
        int in[2], out[2];
        if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe failed");
        std::string errPath = writeTempFile("serve.err", "");
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            for (const auto& e : command.env) putenv(strdup(e.c_str()));
            dup2(in[0], STDIN_FILENO);
            dup2(out[1], STDOUT_FILENO);
            int err = open(errPath.c_str(), O_WRONLY | O_TRUNC);
            if (err >= 0) dup2(err, STDERR_FILENO);
            for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
            std::vector<std::string> words = command.argv;
            std::vector<char*> argv;
            for (std::string& w : words) argv.push_back(w.data());
            argv.push_back(nullptr);
            execvp(argv[0], argv.data());
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        toChild_ = in[1];
        fromChild_ = out[0];
    }

    ~ServeChild() {
        closeStdin();
        if (fromChild_ >= 0) close(fromChild_);
        if (!status_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }

    pid_t pid() const { return pid_; }
    void send(const nlohmann::json& request) { sendLine(request.dump()); }
    void sendLine(const std::string& line) {
        std::string text = line + "\n";
        ASSERT_EQ(write(toChild_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    }
    void closeStdin() {
        if (toChild_ >= 0) close(toChild_);
        toChild_ = -1;
    }
    // The client stops reading: the child's stdout has no reader any more.
    void closeStdout() {
        if (fromChild_ >= 0) close(fromChild_);
        fromChild_ = -1;
    }

    // The next message, or nullopt at the end of the child's stdout or at the deadline.
    std::optional<nlohmann::json> next(Clock::time_point deadline = Clock::now() + kTimeout) {
        for (;;) {
            if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return nlohmann::json::parse(line);
            }
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            pollfd p{fromChild_, POLLIN, 0};
            if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0) {
                timedOut_ = true;
                return std::nullopt;
            }
            char chunk[65536];
            ssize_t n = read(fromChild_, chunk, sizeof chunk);
            if (n <= 0) return std::nullopt;
            buffer_.append(chunk, static_cast<size_t>(n));
        }
    }

    // Reads up to the answer to request `id`; `events` gets the events streamed for it.
    nlohmann::json answer(const nlohmann::json& id, std::vector<nlohmann::json>* events = nullptr) {
        while (auto m = next()) {
            if (m->contains("event")) {
                EXPECT_EQ((*m)["request"], id) << "an event of another request: " << m->dump();
                if (events) events->push_back((*m)["event"]);
            } else if ((*m)["id"] == id) {
                return *m;
            } else {
                ADD_FAILURE() << "an answer to another request: " << m->dump();
            }
        }
        ADD_FAILURE() << (timedOut_ ? "timed out" : "the server closed its stdout") << " waiting for the answer to " << id;
        return nlohmann::json();
    }

    // The child's wait status once it exits; nullopt when it is still running at the deadline.
    std::optional<int> waitExit(Clock::time_point deadline = Clock::now() + kTimeout) {
        while (!status_ && Clock::now() < deadline) {
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) status_ = status;
            else std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return status_;
    }

private:
    static std::vector<std::string> withServe(const std::vector<std::string>& serveArgs) {
        std::vector<std::string> words = {cliPath(), "serve"};
        words.insert(words.end(), serveArgs.begin(), serveArgs.end());
        return words;
    }

    pid_t pid_ = -1;
    int toChild_ = -1, fromChild_ = -1;
    std::string buffer_;
    bool timedOut_ = false;
    std::optional<int> status_;
};

}  // namespace fusescope::test

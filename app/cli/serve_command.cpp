// fusescope-cli serve: the engine protocol on stdin/stdout (docs/protocol.md). The main
// thread reads requests and answers cancel and shutdown at once; run, explain_fusion and minify
// wait in a queue for one worker thread, in the order they came, so a run's events and
// answer come before those of the next request.
#include <poll.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <iostream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bundle/bundle_format.h"
#include "core/allocator.h"
#include "ops/convolution_kernel.h"
#include "runtime/cuda_driver.h"
#include "cli_commands.h"
#include "serve_methods.h"

namespace fusescope::cli {

namespace {

constexpr int kGpuContextLostStatus = 3;  // docs/protocol.md "Crashes"

using nlohmann::json;
using protocol::Failure;
using protocol::Request;

// `version`: what a client checks before it sends work (a remote engine may be another build).
json versionResult() { return json{{"protocol", protocol::kVersion}, {"fusescope", engineVersion()}}; }

// Protocol messages, one per line, each written whole with write(2): nothing waits in a
// buffer, so a crash of the engine loses no message already sent.
class MessageWriter {
public:
    // Keeps the protocol on a private copy of stdout and points stdout at stderr, so that
    // stray prints (a library, generated code) cannot corrupt the stream.
    MessageWriter() : fd_(dup(STDOUT_FILENO)) {
        if (fd_ < 0) fd_ = STDOUT_FILENO;
        else dup2(STDERR_FILENO, STDOUT_FILENO);
    }

    void send(const json& message) {
        std::string line = protocol::messageLine(message);
        std::lock_guard lock(mutex_);
        for (size_t done = 0; done < line.size();) {
            ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return;  // the client has gone; stdin's end will stop the server
            done += static_cast<size_t>(n);
        }
    }

    // Waits up to `ms` milliseconds for the client to close its end of the stream (a
    // pipe's reader gone gives POLLERR, a terminal's hangup POLLHUP).
    bool clientGoneWithin(int ms) const {
        pollfd watched{fd_, 0, 0};
        return ::poll(&watched, 1, ms) > 0 && (watched.revents & (POLLERR | POLLHUP | POLLNVAL));
    }

private:
    int fd_;
    std::mutex mutex_;
};

class EngineServer {
public:
    explicit EngineServer(TestHooks testHooks) : testHooks_(std::move(testHooks)) {}

    int serve(std::istream& in) {
        worker_ = std::thread([this] { work(); });
        std::atomic<bool> served{false};
        std::thread watcher([this, &served] { endWhenTheClientLeaves(served); });
        std::optional<json> shutdownId;
        bool tooLong = false;
        for (std::string line; !shutdownId && nextLine(in, line, tooLong);) {
            json id;  // null until the request's id is known
            if (tooLong) {
                out_.send(protocol::errorMessage(id, Failure(protocol::kInvalidRequest, fmt::format("a request line too long to hold (over {} MiB, or past the memory limit) was skipped",
                                                                                                     kMaxRequestBytes >> 20))));
                continue;
            }
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            try {
                Request request = protocol::parseRequest(line, id);
                if (request.method == "shutdown") shutdownId = request.id;
                else if (request.method == "cancel") out_.send(protocol::resultMessage(id, cancel(request)));
                else if (request.method == "version") out_.send(protocol::resultMessage(id, versionResult()));
                else if (request.method == "run" || request.method == "explain_fusion" || request.method == "minify")
                    enqueue(std::move(request));
                else throw Failure(protocol::kUnknownMethod,
                                   "unknown method '" + request.method + "'; methods: run, cancel, explain_fusion, minify, version, shutdown");
            } catch (const Failure& f) {
                out_.send(protocol::errorMessage(id, f));
            } catch (const std::exception& e) {  // whatever a request line holds, the server keeps serving
                out_.send(protocol::errorMessage(id, Failure(protocol::kInternalError, e.what())));
            }
        }
        stop(shutdownId.has_value());  // at the end of stdin, what was asked is still done
        if (shutdownId) out_.send(protocol::resultMessage(*shutdownId, json::object()));
        served = true;
        watcher.join();
        return 0;
    }

private:
    // A request holds at most a script of kMaxScriptBytes, escaped.
    static constexpr size_t kMaxRequestBytes = 2 * kMaxScriptBytes;

    // The next line of `in`, or false at its end. A line longer than kMaxRequestBytes, or
    // than the memory limit lets it grow, is read to its end but not kept (tooLong): a
    // runaway client cannot take all memory.
    static bool nextLine(std::istream& in, std::string& line, bool& tooLong) {
        line.clear();
        tooLong = false;
        bool any = false;
        for (int c; (c = in.get()) != std::char_traits<char>::eof();) {
            any = true;
            if (c == '\n') return true;
            if (tooLong) continue;
            try {
                if (line.size() >= kMaxRequestBytes) throw std::length_error("request line");
                line += static_cast<char>(c);
            } catch (const std::exception&) {  // over the limit, or no memory for more
                tooLong = true;
                std::string().swap(line);
            }
        }
        return any;
    }

    // A client that closes our output can receive nothing more: the running request is
    // cancelled and the server ends at once (the main thread may be blocked reading stdin,
    // which the client may keep open).
    void endWhenTheClientLeaves(const std::atomic<bool>& served) {
        while (!served) {
            if (!out_.clientGoneWithin(100)) continue;
            {
                std::lock_guard lock(mutex_);
                cancelRunning_ = true;
                if (session_) session_->cancel();
            }
            std::_Exit(0);
        }
    }

    void enqueue(Request request) {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(request));
        wake_.notify_one();
    }

    // The target's own answer comes later (a "cancelled" error unless it finished first).
    json cancel(const Request& request) {
        std::optional<json> target = protocol::idParam(request.params, "request");
        if (!target) throw Failure(protocol::kInvalidParams, "missing param 'request' (the id of the request to cancel)");
        std::lock_guard lock(mutex_);
        if (running_ && *running_ == *target) {
            cancelRunning_ = true;
            if (session_) session_->cancel();
            return json{{"request", *target}, {"state", "running"}};
        }
        for (auto it = queue_.begin(); it != queue_.end(); ++it)
            if (it->id == *target) {
                out_.send(protocol::errorMessage(*target, Failure(protocol::kCancelled, "cancelled before it started")));
                queue_.erase(it);
                return json{{"request", *target}, {"state", "queued"}};
            }
        throw Failure(protocol::kNotFound, "request " + target->dump() + " is neither running nor queued");
    }

    // Waits for the worker to finish the queue, or with `cancelWork` cancels the running
    // request and everything queued first.
    void stop(bool cancelWork) {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
            if (cancelWork) {
                cancelRunning_ = true;
                if (session_) session_->cancel();
                for (const auto& r : queue_)
                    out_.send(protocol::errorMessage(r.id, Failure(protocol::kCancelled, "the server is shutting down")));
                queue_.clear();
            }
            wake_.notify_one();
        }
        worker_.join();
    }

    void work() {
        RunContext context{[this](const json& m) { out_.send(m); },
                           [this](ScriptSession* s) {
                               std::lock_guard lock(mutex_);
                               session_ = s;
                               if (s && cancelRunning_) s->cancel();  // cancelled while it started
                           },
                           [this] {
                               std::lock_guard lock(mutex_);
                               return cancelRunning_;
                           },
                           testHooks_};
        for (;;) {
            Request request;
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
                if (queue_.empty()) return;
                request = std::move(queue_.front());
                queue_.pop_front();
                running_ = request.id;
                cancelRunning_ = false;
            }
            json answer;
            try {
                json result = request.method == "run"      ? runMethod(request, runs_, context)
                              : request.method == "minify" ? minifyMethod(request, context)
                                                           : explainFusionMethod(request, runs_);
                answer = protocol::resultMessage(request.id, std::move(result));
            } catch (const Failure& f) {
                answer = protocol::errorMessage(request.id, f);
            } catch (const std::exception& e) {
                answer = protocol::errorMessage(request.id, Failure(protocol::kInternalError, e.what()));
            }
            {
                std::lock_guard lock(mutex_);
                running_.reset();
            }
            releaseConvolutionPrimitives();  // and their layout buffers, before the heap goes back
            returnFreeMemory();  // the run's buffers and heap, back to the system before idling
            out_.send(answer);
            if (cudaContextLost()) {  // every later GPU call would fail: a new server must take over
                std::cerr << "fusescope-cli serve: a GPU kernel faulted and the GPU context is lost; exiting\n";
                std::_Exit(kGpuContextLostStatus);
            }
        }
    }

    TestHooks testHooks_;
    MessageWriter out_;
    std::thread worker_;
    ServedRuns runs_;  // the worker's alone

    std::mutex mutex_;  // guards what follows
    std::condition_variable wake_;
    std::deque<Request> queue_;
    std::optional<json> running_;  // the id of the request the worker runs
    ScriptSession* session_ = nullptr;  // its session while a run runs
    bool cancelRunning_ = false;
    bool stopping_ = false;
};

}  // namespace

int serveCommand(const std::vector<std::string>& args) {
    TestHooks testHooks;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] != "--test-hook" && args[i] != "--memory-limit")
            return usageError("serve takes no arguments but --memory-limit MIB and --test-hook NAME");
        if (i + 1 >= args.size()) return usageError(args[i] + " needs a value");
        const std::string& value = args[i + 1];
        if (auto error = args[i] == "--test-hook" ? enableTestHookOption(testHooks, value) : applyMemoryLimitOption(value))
            return usageError(*error);
        ++i;
    }
    std::signal(SIGPIPE, SIG_IGN);  // a vanished client shows as the end of stdin
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // nobody left to talk to: do not run on as an orphan
#endif
    std::ios::sync_with_stdio(false);
    EngineServer server(testHooks);
    return server.serve(std::cin);
}

}  // namespace fusescope::cli

#include "crash_report.h"

#include <csignal>
#include <cstring>

#include <unistd.h>

#include "runtime/cpu_runtime.h"

namespace fusescope::cli {

namespace {

// write(2) only: a signal handler may call nothing that allocates or locks.
void say(const char* text) {
    for (size_t left = std::strlen(text); left > 0;) {
        const ssize_t wrote = write(STDERR_FILENO, text, left);
        if (wrote <= 0) return;
        text += wrote;
        left -= static_cast<size_t>(wrote);
    }
}

const char* signalName(int signal) {
    switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    default: return "SIGILL";
    }
}

void onFault(int signal) {
    if (const char* running = runningGeneratedCode()) {
        say("fusescope-cli: error: the generated code of ");
        say(running);
        say(" crashed (");
        say(signalName(signal));
        say("), a Fusescope bug. `--backend aot_eager` runs the script without generated code; "
            "`--debug-dir DIR` keeps each graph and its C++ to report it.\n");
    }
    std::raise(signal);  // SA_RESETHAND gave the signal its default action back: the process ends by it
}

}  // namespace

void reportCrashesInGeneratedCode() {
    struct sigaction action {};
    action.sa_handler = onFault;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(signal, &action, nullptr);
}

}  // namespace fusescope::cli

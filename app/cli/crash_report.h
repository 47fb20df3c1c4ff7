#pragma once
// A crash in generated code (a Fusescope bug) said in words before the process dies by the
// signal as it would have: which compiled graph was running, and how to get on meanwhile.

namespace fusescope::cli {

// Installs the report for SIGSEGV, SIGBUS, SIGFPE and SIGILL for the rest of the process.
void reportCrashesInGeneratedCode();

}  // namespace fusescope::cli

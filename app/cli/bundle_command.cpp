// fusescope-cli bundle inspect FILE | bundle extract FILE DIR: trace bundles written by
// `run --bundle`. A bundle that fails validation is an error (exit status 1) before
// anything is printed or written.
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bundle/bundle_reader.h"
#include "bundle/bundle_summary.h"
#include "cli_commands.h"
#include "core/error.h"
#include "core/json_text.h"

namespace fusescope::cli {

namespace {

void printSummary(const std::string& path, const Bundle& bundle) {
    const BundleManifest& m = bundle.manifest;
    BundleSummary s = summarizeBundle(bundle);
    std::cout << fmt::format("bundle:        {}\n", path) << fmt::format("format:        {}\n", m.formatVersion)
              << fmt::format("engine:        {}\n", m.engineVersion) << fmt::format("created:       {}\n", m.created)
              << fmt::format("script:        {}\n", m.script) << fmt::format("device:        {}\n", m.device)
              << fmt::format("options:       {}\n", jsonText(m.options)) << fmt::format("files:         {}\n", s.files)
              << fmt::format("events:        {}\n", s.events) << fmt::format("compiles:      {}\n", s.compiles)
              << fmt::format("graphs:        {}\n", s.graphs) << fmt::format("recompiles:    {}\n", s.recompiles)
              << fmt::format("guards failed: {}\n", s.guardFailures)
              << fmt::format("graph breaks:  {}\n", s.graphBreaks) << fmt::format("kernels:       {}\n", s.kernels)
              << fmt::format("trace events:  {}\n", s.traceEvents) << fmt::format("errors:        {}\n", s.errors);
}

}  // namespace

int bundleCommand(const std::vector<std::string>& args) {
    const std::string verb = args.empty() ? "" : args[0];
    if (verb == "inspect" && args.size() != 2) return usageError("bundle inspect needs exactly one FILE");
    if (verb == "extract" && args.size() != 3) return usageError("bundle extract needs FILE and DIR");
    if (verb != "inspect" && verb != "extract") return usageError("bundle needs 'inspect FILE' or 'extract FILE DIR'");
    const std::string& path = args[1];
    try {
        if (verb == "inspect") {
            printSummary(path, readBundle(path));
        } else {
            extractBundle(path, args[2]);
            std::cout << "extracted " << path << " into " << args[2] << "\n";
        }
    } catch (const Error& e) {
        std::cerr << "fusescope-cli: error: cannot " << verb << " bundle '" << path << "': " << e.what() << "\n";
        return 1;
    }
    return 0;
}

}  // namespace fusescope::cli

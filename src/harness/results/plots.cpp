#include "harness/results/plots.h"

#include <cstdio>
#include <string>
#include <vector>

#include "core/error.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/process.h"

namespace firelab::harness {
namespace fs = std::filesystem;

std::vector<std::string> scriptCommand(const fs::path& dataDir, std::string_view name) {
    const fs::path script = dataDir / "scripts" / name;
    const char* python = "/usr/bin/python3";
    std::error_code ec;
    if (!fs::exists(script, ec) || !fs::exists(python, ec))
        throw Error(ErrorCode::MissingFile, std::string("this needs ") + python + " and " + script.string() +
                                                " (scripts/setup.sh installs python3-matplotlib)");
    return {python, script.string()};
}

namespace {
// Runs dataDir/scripts/<name> with args; a missing script or interpreter, or a failure, is a warning.
bool runScript(const fs::path& dataDir, const char* name, const char* what, const std::vector<std::string>& args) {
    std::vector<std::string> argv;
    try {
        argv = scriptCommand(dataDir, name);
    } catch (const Error& e) {
        std::fprintf(stderr, "firelab: warning: no %s: %s\n", what, e.what());
        return false;
    }
    const std::string script = argv[1];
    argv.insert(argv.end(), args.begin(), args.end());
    if (runProcess(argv) != 0) {
        std::fprintf(stderr, "firelab: warning: %s failed (%s %s)\n", what, argv[0].c_str(), script.c_str());
        return false;
    }
    return true;
}
}  // namespace

bool makePlots(const fs::path& csv, const fs::path& outDir, const fs::path& dataDir, const std::string& metric) {
    std::vector<std::string> args{csv.string(), "--out", outDir.string()};
    if (!metric.empty()) args.insert(args.end(), {"--metric", metric});
    const bool plotted = runScript(dataDir, "plot.py", "plots", args);
    if (stopRequested().load()) return false;  // a signal ended the plots: start nothing more
    // The finding this folder feeds, when its experiment has a [report] whose sources are all there.
    const bool found = runScript(dataDir, "findings.py", "finding", {"--sweep", outDir.string()});
    return plotted && found;
}

}  // namespace firelab::harness

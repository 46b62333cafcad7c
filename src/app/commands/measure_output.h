// What run and sweep share beside their flags: the sweep options both fill alike, the exit code of a sweep's
// summary and its one-line report on stderr.
#pragma once
#include <filesystem>
#include <string>

#include "harness/measure/sweep.h"

namespace firelab::app {

// The experiment, the command line, the data folder, the GL context kind and the folder for saved frames.
harness::SweepOptions sweepOptions(const harness::Experiment& e, const std::string& commandLine,
                                   const std::filesystem::path& dataDir, bool debugContext,
                                   const std::string& saveFrames);

// 130 interrupted, 1 when a run failed or an input changed under the sweep, else 0.
int exitCode(const harness::SweepSummary& s);

// "firelab: N run(s) measured, ..." on stderr. `resumable`: the command takes --resume (sweep); `run` does
// not, and says what to do instead.
void report(const harness::SweepSummary& s, const std::filesystem::path& csv, bool resumable);

}  // namespace firelab::app

// The simulation's own flags for the commands that step a fire outside a run (the summary, snapshot and
// capture): --time, --dt and --threads, and the checks that turn them into a step count, with the flag named.
#pragma once
#include <CLI/CLI.hpp>

namespace firelab::app {

struct SimFlags {
    float time = 2.0f;
    float dt = 1.0f / 60.0f;
    int threads = 1;

    // Adds --time (with `timeHelp`, what the time means to the command), --dt and --threads.
    void addTo(CLI::App& cmd, const char* timeHelp);
};

// --dt in (0, 1] seconds. Throws Error(BadValue) naming --dt.
float checkedDt(float dt);
// The whole steps of `dt` in --time (in [0, 3600] s, at most 10,000,000 steps). Throws Error(BadValue).
long steps(float time, float dt);
// --threads in [1, 256]. Throws Error(BadValue).
unsigned checkedThreads(int threads);

}  // namespace firelab::app

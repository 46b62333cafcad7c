// What else the machine is doing while firelab measures. On a software renderer the "GPU" is the CPU, so
// another busy process moves every frame time: a sweep samples the machine's CPU use for a moment before
// it starts and after it ends, says when the machine is not quiet, and meta.json keeps the figures beside
// the results. Also the environment variables that change how the renderer runs (LP_NUM_THREADS ...).
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace firelab::harness {

// The first line of /proc/stat, summed: ticks spent working and ticks in all.
struct CpuTicks {
    uint64_t busy = 0, total = 0;
};
// Parses /proc/stat's text; nullopt when it has no aggregate "cpu " line of at least four numbers.
std::optional<CpuTicks> parseProcStat(std::string_view text);

struct MachineLoad {
    bool known = false;       // /proc/stat could be read
    double seconds = 0;       // the window sampled
    int cores = 0;            // logical cores online
    double busyCores = 0;     // every process's CPU use over the window, in cores
    double ownCores = 0;      // firelab's own share of it (its idle renderer threads included)
    double loadAverage = -1;  // /proc/loadavg's one-minute figure; -1 when unreadable
    // Other processes' CPU use, in cores.
    double otherCores() const { return busyCores > ownCores ? busyCores - ownCores : 0.0; }
};

// Other processes using more than this many cores make a machine "not quiet".
inline constexpr double kQuietOtherCores = 0.25;

// Samples the machine over `window` (the calling thread sleeps through it).
MachineLoad sampleMachineLoad(std::chrono::milliseconds window);
// From two readings `seconds` apart and the process's own CPU seconds over them.
MachineLoad machineLoadBetween(const CpuTicks& before, const CpuTicks& after, double seconds, double ownCpuSeconds,
                               int cores);
bool machineIsQuiet(const MachineLoad& load);
// "other processes kept 0.98 of 2 cores busy over 0.5 s (load average 1.02)".
std::string describeLoad(const MachineLoad& load);

// The renderer-relevant environment variables that are set, by name (LP_NUM_THREADS, GALLIUM_DRIVER ...).
std::vector<std::pair<std::string, std::string>> rendererEnvironment();

}  // namespace firelab::harness

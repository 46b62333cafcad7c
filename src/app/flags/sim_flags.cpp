#include "app/flags/sim_flags.h"

#include <cmath>
#include <string>

#include "core/error.h"

namespace firelab::app {

void SimFlags::addTo(CLI::App& cmd, const char* timeHelp) {
    cmd.add_option("--time", time, timeHelp)->capture_default_str();
    cmd.add_option("--dt", dt, "fixed simulation step, s")->capture_default_str();
    cmd.add_option("--threads", threads, "simulation threads (results do not depend on it)")->capture_default_str();
}

float checkedDt(float dt) {
    if (!std::isfinite(dt) || dt <= 0.0f || dt > 1.0f)
        throw Error(ErrorCode::BadValue, "--dt " + std::to_string(dt) + ": must be in (0, 1] seconds");
    return dt;
}

long steps(float time, float dt) {
    if (!std::isfinite(time) || time < 0.0f || time > 3600.0f)
        throw Error(ErrorCode::BadValue, "--time " + std::to_string(time) + ": must be in [0, 3600] seconds");
    const double n = std::round(static_cast<double>(time) / static_cast<double>(dt));
    if (n > 1e7)
        throw Error(ErrorCode::BadValue, "--time " + std::to_string(time) + " / --dt " + std::to_string(dt) +
                                             ": more than 10,000,000 steps; use a larger --dt or a shorter --time");
    return static_cast<long>(n);
}

unsigned checkedThreads(int threads) {
    if (threads < 1 || threads > 256)
        throw Error(ErrorCode::BadValue, "--threads " + std::to_string(threads) + ": must be in [1, 256]");
    return static_cast<unsigned>(threads);
}

}  // namespace firelab::app

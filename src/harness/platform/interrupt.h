// SIGINT and SIGTERM, and the other signals whose default would end the process at once (SIGHUP from a
// closed terminal, SIGPIPE from a closed pipe, SIGALRM, SIGUSR1, SIGUSR2), from the first line of main to
// exit: the command ends with exit code 130 and adds no row. Inside a StopScope (a sweep's runs, the viewer's loop) a signal only sets stopRequested(),
// which that code polls to stop at a safe point; anywhere else the process ends at once (after removing
// unfinished AtomicFile temporaries), since nothing there would notice the request.
#pragma once
#include <array>
#include <atomic>
#include <csignal>

namespace firelab::harness {

// Installs the handlers (idempotent) and unblocks the two signals, were they inherited blocked. Call
// first in main, before SDL or anything else can: SDL installs its own (which turn a signal into an
// event nobody reads) only where none is installed, and before any thread starts (threads inherit the mask).
void installStopHandlers();

// Set by the handler; never cleared, so a signal that came early is still seen.
std::atomic<bool>& stopRequested();

// While one lives, a signal sets stopRequested() instead of ending the process.
class StopScope {
public:
    StopScope();
    ~StopScope();
    StopScope(const StopScope&) = delete;
    StopScope& operator=(const StopScope&) = delete;
};

inline constexpr int kInterruptedExitCode = 130;
inline constexpr std::array kStopSignals{SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2};

}  // namespace firelab::harness

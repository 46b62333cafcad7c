#include "harness/platform/interrupt.h"

#include <pthread.h>
#include <unistd.h>

#include <csignal>

#include "core/atomic_file.h"
#include "sim/snapshot.h"

namespace firelab::harness {
namespace {

// Constant-initialised: the handler may run before anything else has touched them.
constinit std::atomic<bool> stopFlag{false};
constinit std::atomic<int> scopes{0};

extern "C" void onStopSignal(int) {
    stopFlag.store(true);
    if (scopes.load() > 0) return;
    core::removeTempFilesOnSignal();
    ::_exit(kInterruptedExitCode);
}

}  // namespace

std::atomic<bool>& stopRequested() { return stopFlag; }

void installStopHandlers() {
    static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);
    struct sigaction sa {};
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    // A mask inherited blocked (from a launcher) would hold them until exit: from here they are taken.
    sigset_t set;
    sigemptyset(&set);
    for (const int signal : kStopSignals) {
        ::sigaction(signal, &sa, nullptr);
        sigaddset(&set, signal);
    }
    ::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    // A file-size limit (ulimit -f) makes a write that crosses it fail with EFBIG, which every writer reports
    // as a failed write, instead of killing firelab mid-row with SIGXFSZ.
    ::signal(SIGXFSZ, SIG_IGN);
}

StopScope::StopScope() {
    scopes.fetch_add(1);
    installStopHandlers();
}

StopScope::~StopScope() { scopes.fetch_sub(1); }

}  // namespace firelab::harness

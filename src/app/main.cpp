// firelab: the command line (command_line.h; the commands in commands/, listed by command_registry.cpp).
// This file is only the process around it: the stop handlers first, and 130 after a signal.
#include <SDL.h>

#include <cstdio>

#include "app/command_line.h"
#include "harness/platform/interrupt.h"

namespace {
// As the executable's static initialisers run, before main and before the libraries firelab links are set up
// by it: a stop signal in the first milliseconds ends with 130 too. (One that arrives while the dynamic loader
// is still loading libraries, before any of firelab's code, ends the process by its default action: nothing
// has been written then.) Here, in the executable, not in the library: a test or fuzzing binary that links the
// harness keeps its own handlers (libFuzzer's SIGALRM timer would end it with 130).
__attribute__((constructor(101))) void installStopHandlersAtLoad() { firelab::harness::installStopHandlers(); }
}  // namespace

int main(int argc, char** argv) {
    // First, before SDL or a GL driver can install theirs (SDL's turns a signal into an event nobody reads).
    firelab::harness::installStopHandlers();
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    firelab::app::CommandLine cli;
    const int rc = firelab::app::runCommandLine(cli, argc, argv);
    // A signal that a command noticed but did not end on (it finished its last step) still means 130.
    if (firelab::harness::stopRequested() && rc != firelab::harness::kInterruptedExitCode) {
        std::fprintf(stderr, "firelab: interrupted\n");
        return firelab::harness::kInterruptedExitCode;
    }
    return rc;
}

// Running a helper program (the plot script, git) without a shell: arguments are passed as they are,
// so paths with quotes or spaces need no escaping and cannot inject commands.
#pragma once
#include <string>
#include <vector>

namespace firelab::harness {

// Runs argv[0] (searched on PATH) with the arguments and waits. Returns its exit status, or -1 if it
// could not be started or was killed (also when a stop signal asked firelab to stop, in any command: the
// helper is sent SIGTERM, and the command then ends with 130). Its stdout goes to *out when given (else to our stderr); its
// stderr is discarded when quiet is set.
int runProcess(const std::vector<std::string>& argv, std::string* out = nullptr, bool quiet = false);

}  // namespace firelab::harness

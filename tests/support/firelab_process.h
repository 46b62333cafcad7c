// Launching the built firelab binary (FIRELAB_EXE) from the e2e tier: its exit status (128 + signal if a signal
// ended it), captured stdout and stderr, one folder per test. Only the e2e executable defines FIRELAB_EXE: a test
// that launches the binary is an *_e2etest.cpp (tests/CMakeLists.txt).
#pragma once
#ifndef FIRELAB_EXE
#error "support/firelab_process.h launches the firelab binary: only *_e2etest.cpp files (firelab_e2e_tests) may use it"
#endif
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "support/command_fixture.h"

namespace firelab::testing {

// run() executes firelab with the given arguments in the shell.
class FirelabProcess : public CommandTest {
protected:
    // `prefix` goes before the binary (e.g. "timeout -s KILL 60 ", "ulimit -f 1; ").
    Outcome run(const std::string& args, const std::string& prefix = "") const {
        const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
        const std::string cmd =
            prefix + quoted(FIRELAB_EXE) + " " + args + " >" + quoted(out.string()) + " 2>" + quoted(err.string());
        const int status = std::system(cmd.c_str());
        Outcome r;
        if (status != -1 && WIFEXITED(status))
            r.code = WEXITSTATUS(status);
        else if (status != -1 && WIFSIGNALED(status))
            r.code = 128 + WTERMSIG(status);
        r.out = readFile(out);
        r.err = readFile(err);
        return r;
    }
};

}  // namespace firelab::testing

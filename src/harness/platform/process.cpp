#include "harness/platform/process.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>

#include "harness/platform/interrupt.h"

namespace firelab::harness {

int runProcess(const std::vector<std::string>& argv, std::string* out, bool quiet) {
    if (argv.empty()) return -1;
    // While the helper runs a signal only asks to stop (the helper is then ended below), also in commands that
    // otherwise end at once on one (merge, compare): ending firelab alone would leave the helper running.
    StopScope scope;
    int pipeFds[2] = {-1, -1};
    if (out && ::pipe2(pipeFds, O_CLOEXEC) != 0) return -1;
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) return -1;
    if (pid == 0) {  // child: only async-signal-safe calls until exec
        // Ended with firelab even when firelab is killed outright (SIGKILL, no handler runs): a plot script
        // must not go on writing into a folder nobody is writing any more.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) ::_exit(127);  // firelab died before the line above
        ::dup2(out ? pipeFds[1] : STDERR_FILENO, STDOUT_FILENO);
        if (quiet) {
            const int devnull = ::open("/dev/null", O_WRONLY);
            if (devnull >= 0) ::dup2(devnull, STDERR_FILENO);
        }
        ::execvp(args[0], args.data());
        ::_exit(127);
    }
    if (out) {
        ::close(pipeFds[1]);
        char buf[4096];
        for (ssize_t n; (n = ::read(pipeFds[0], buf, sizeof buf)) != 0;) {
            if (n < 0) {
                if (errno == EINTR) continue;
                break;
            }
            out->append(buf, static_cast<size_t>(n));
        }
        ::close(pipeFds[0]);
    }
    // Polled rather than blocking, so that SIGINT/SIGTERM (stopRequested) ends the helper too: a signal
    // while the plots are drawn stops them instead of waiting for them.
    int status = 0;
    bool stopped = false;
    for (useconds_t pause = 1000;; pause = std::min<useconds_t>(pause * 2, 20000)) {
        const pid_t w = ::waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) return -1;
        if (!stopped && stopRequested().load()) stopped = ::kill(pid, SIGTERM) == 0;
        ::usleep(pause);
    }
    if (stopped) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace firelab::harness

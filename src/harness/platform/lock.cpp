#include "harness/platform/lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace firelab::harness {

void lockForWriting(int fd, const std::filesystem::path& path, const std::string& flag) {
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EINTR) continue;
        const std::string who = flag.empty() ? path.string() : flag + " " + path.string();
        if (errno == EWOULDBLOCK)
            throw Error(ErrorCode::Io, who + " is being written by " + lockHolder(fd) +
                                           "; one writer at a time: wait for it to end, or write elsewhere");
        throw Error(ErrorCode::Io, "cannot lock " + who + ": " + std::strerror(errno));
    }
}

std::string lockHolder(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return "another process";
    char id[64];
    std::snprintf(id, sizeof id, "%02x:%02x:%llu", ::major(st.st_dev), ::minor(st.st_dev),
                  static_cast<unsigned long long>(st.st_ino));
    // Lines of /proc/locks: "1: FLOCK  ADVISORY  WRITE 1234 fe:00:10953170 0 EOF".
    std::ifstream locks("/proc/locks");
    for (std::string line; std::getline(locks, line);) {
        std::istringstream in(line);
        std::string n, kind, mode, access, pid, dev;
        in >> n >> kind;
        if (kind == "->") in >> kind;  // a waiter
        in >> mode >> access >> pid >> dev;
        if (kind != "FLOCK" || dev != id || pid == std::to_string(::getpid())) continue;
        std::ifstream cmdline("/proc/" + pid + "/cmdline", std::ios::binary);
        std::string cmd((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
        for (char& c : cmd)
            if (c == '\0') c = ' ';
        while (!cmd.empty() && cmd.back() == ' ') cmd.pop_back();
        if (cmd.size() > 200) cmd = cmd.substr(0, 200) + "...";
        return "process " + pid + (cmd.empty() ? "" : " (" + cmd + ")");
    }
    return "another process";
}

WriterLock::WriterLock(const std::filesystem::path& path, const std::string& flag)
    : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)) {
    if (fd_ < 0)
        throw Error(ErrorCode::Io,
                    "cannot lock " + (flag.empty() ? "" : flag + " ") + path.string() + ": " + std::strerror(errno));
    try {
        lockForWriting(fd_, path, flag);
    } catch (...) {
        ::close(fd_);
        throw;
    }
}

WriterLock::~WriterLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
}

}  // namespace firelab::harness

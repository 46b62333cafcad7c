// One writer per results folder and per runs.csv: an advisory, exclusive flock(2) on the folder or the
// file itself, taken without waiting before anything is read or written, and released when its holder
// ends (even by kill -9). No lock file is left behind; the holder is named from /proc/locks.
#pragma once
#include <filesystem>
#include <string>

namespace firelab::harness {

class WriterLock {
public:
    // Locks `path` (an existing folder or file). Throws Error(Io) naming the process that holds it
    // ("... is being written by process 1234: firelab sweep ..."), `flag` saying which option named it.
    WriterLock(const std::filesystem::path& path, const std::string& flag);
    ~WriterLock();
    WriterLock(const WriterLock&) = delete;
    WriterLock& operator=(const WriterLock&) = delete;

private:
    int fd_ = -1;
};

// The same lock on an open descriptor (the appender's): held until the descriptor is closed.
void lockForWriting(int fd, const std::filesystem::path& path, const std::string& flag);

// "process 1234 (firelab sweep ...)" for the process holding a flock on `fd`'s file, or "another process".
std::string lockHolder(int fd);

}  // namespace firelab::harness

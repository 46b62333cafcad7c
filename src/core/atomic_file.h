// Output files that are never left half-written: AtomicFile writes to a temporary name beside the
// target and renames it on commit, so an existing file is never damaged by a failed run. Outputs are
// regular files: a symlink is written through to its target; a device, FIFO, socket or folder is refused.
#pragma once
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>

namespace firelab::core {

// What an output path names after following symlinks: the file to write (a regular file or a new
// path). Throws Error(BadFile) for anything else (a device, FIFO, socket, folder, a symlink loop), naming
// `flag` (e.g. "--out") and the path, so a command can refuse it before doing any work.
std::filesystem::path checkedOutputPath(const std::filesystem::path& path, const std::string& flag = "");

// A folder that can be written, created when missing (an output of a sweep or a merge). Throws Error:
// BadValue when `dir` exists and is not a folder, Io when nothing can be written there; `flag` names it.
void checkWritableFolder(const std::filesystem::path& dir, const std::string& flag);

class AtomicFile {
public:
    // Throws Error(BadFile) for a target that is not a regular file or a new path (checkedOutputPath),
    // Error(Io) if the temporary file cannot be created (e.g. unwritable folder). A symlink is kept and
    // its target replaced.
    explicit AtomicFile(std::filesystem::path target);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::ostream& stream() { return out_; }
    // Flushes, checks for write errors and renames onto the target. Throws firelab::Error(Io).
    void commit();

private:
    std::filesystem::path target_;    // as given, for messages
    std::filesystem::path resolved_;  // the file renamed onto: target_ with symlinks followed
    std::filesystem::path temp_;
    int pendingSlot_ = -1;  // removeTempFilesOnSignal()'s record of temp_
    std::ofstream out_;
    bool committed_ = false;
};

// Removes every AtomicFile temporary not yet committed. Async-signal-safe: for a signal handler that
// ends the process (firelab's SIGINT/SIGTERM handler outside a sweep), so no `*.tmp.PID` is left behind.
void removeTempFilesOnSignal() noexcept;

}  // namespace firelab::core

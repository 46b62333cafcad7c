#include "core/atomic_file.h"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace firelab::core {

namespace {

const char* kindOf(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// Temporaries not yet committed, for removeTempFilesOnSignal(): fixed storage a signal handler can read.
constexpr int kSlots = 16;
constexpr size_t kSlotPath = 4096;
std::atomic<int> slotState[kSlots];  // 0 free, 1 being filled, 2 holds a path
char slotPath[kSlots][kSlotPath];

int claimSlot(const std::filesystem::path& p) {
    const std::string s = p.string();
    if (s.size() >= kSlotPath) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!slotState[i].compare_exchange_strong(expected, 1)) continue;
        std::memcpy(slotPath[i], s.c_str(), s.size() + 1);
        slotState[i].store(2);
        return i;
    }
    return -1;  // more than kSlots at once: that one is not cleaned up on a signal
}

void releaseSlot(int& slot) {
    if (slot >= 0) slotState[slot].store(0);
    slot = -1;
}

}  // namespace

std::filesystem::path checkedOutputPath(const std::filesystem::path& path, const std::string& flag) {
    const std::string name = (flag.empty() ? "" : flag + " ") + path.string();
    std::filesystem::path p = path;
    for (int hops = 0;; ++hops) {
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0) return p;  // a new path; creating it says why if it cannot be
        if (S_ISREG(st.st_mode)) return p;
        if (!S_ISLNK(st.st_mode))
            throw Error(ErrorCode::BadFile, name + (p == path ? "" : " (-> " + p.string() + ")") + ": " +
                                                kindOf(st.st_mode) +
                                                ", not a regular file; give a new path or a regular file to replace");
        std::error_code ec;
        const std::filesystem::path to = std::filesystem::read_symlink(p, ec);
        if (ec || hops >= 40)
            throw Error(ErrorCode::BadFile, name + ": a symbolic link that cannot be followed (" +
                                                (ec ? ec.message() : std::string("too many levels")) + ")");
        p = to.is_absolute() ? to : p.parent_path() / to;
    }
}

void removeTempFilesOnSignal() noexcept {
    for (int i = 0; i < kSlots; ++i)
        if (slotState[i].load() == 2) ::unlink(slotPath[i]);
}

AtomicFile::AtomicFile(std::filesystem::path target)
    : target_(std::move(target)), resolved_(checkedOutputPath(target_)) {
    // The temporary sits beside the file it replaces (through a symlink: beside the link's target), so
    // the rename stays within one file system and the link itself is kept.
    temp_ = resolved_;
    temp_ += ".tmp." + std::to_string(::getpid());
    pendingSlot_ = claimSlot(temp_);
    errno = 0;
    out_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!out_) {
        const int why = errno;
        releaseSlot(pendingSlot_);
        throw Error(ErrorCode::Io,
                    "cannot write " + target_.string() + ": " +
                        (why ? std::string(std::strerror(why)) : "the folder is missing or not writable"));
    }
}

AtomicFile::~AtomicFile() {
    if (!committed_) {
        out_.close();
        std::error_code ec;
        std::filesystem::remove(temp_, ec);
        releaseSlot(pendingSlot_);
    }
}

namespace {
// Why writing into `dir` failed when the stream kept no errno (a full disk can show only as a failed flush
// long before the close): what the file system says, else the likely causes.
std::string writeFailureReason(const std::filesystem::path& dir) {
    struct statvfs st {};
    if (::statvfs(dir.c_str(), &st) == 0) {
        if (st.f_flag & ST_RDONLY) return "read-only file system";
        if (st.f_bavail == 0) return "no space left on device";
    }
    if (::access(dir.c_str(), W_OK) != 0) return std::strerror(errno);
    return "the write did not complete (a full disk or a file size limit)";
}
}  // namespace

void AtomicFile::commit() {
    errno = 0;
    out_.flush();
    out_.close();  // a full disk may only show here
    const bool ok = !out_.fail();
    const int writeErrno = errno;
    std::error_code ec;
    if (ok) std::filesystem::rename(temp_, resolved_, ec);
    if (!ok || ec) {
        const std::string why =
            ec           ? ec.message()
            : writeErrno ? std::strerror(writeErrno)
                         : writeFailureReason(resolved_.parent_path().empty() ? "." : resolved_.parent_path());
        std::filesystem::remove(temp_, ec);
        releaseSlot(pendingSlot_);
        throw Error(ErrorCode::Io, "writing " + target_.string() + " failed" + (why.empty() ? "" : ": " + why));
    }
    committed_ = true;
    releaseSlot(pendingSlot_);
}

void checkWritableFolder(const std::filesystem::path& dir, const std::string& flag) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        throw Error(ErrorCode::BadValue, flag + " " + dir.string() + ": exists and is not a folder");
    if (!fs::create_directories(dir, ec) && ec)  // a read-only file system, a name too long, a file in the way
        throw Error(ErrorCode::Io,
                    flag + " " + dir.string() + ": cannot write there (cannot make the folder: " + ec.message() + ")");
    const fs::path probe = dir / (".firelab-write-test." + std::to_string(::getpid()));
    {
        errno = 0;
        std::ofstream p(probe);
        if (!p)
            throw Error(ErrorCode::Io, flag + " " + dir.string() + ": cannot write there (" +
                                           (errno ? std::strerror(errno) : writeFailureReason(dir)) + ")");
    }
    fs::remove(probe, ec);
}

}  // namespace firelab::core

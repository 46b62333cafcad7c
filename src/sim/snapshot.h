// Particle state as CSV, one row per live particle: what `firelab snapshot` writes.
// Also: size over life, and AtomicFile, which writes to a temporary name and renames on commit so
// an existing file is never left half-written or damaged by a failed run.
#pragma once
#include <filesystem>
#include <fstream>
#include <ostream>

#include "sim/fire_system.h"

namespace firelab::sim {

inline float sizeAt(const FireParams& p, float normalisedAge, float scale) {
    return (p.sizeStart + (p.sizeEnd - p.sizeStart) * normalisedAge) * scale;
}

inline constexpr const char* kSnapshotHeader = "x,y,z,vx,vy,vz,ax,ay,az,age,lifetime,size,r,g,b,a";
void writeSnapshotCsv(const FireSystem& fire, std::ostream& out);

class AtomicFile {
public:
    // Throws firelab::Error(Io) if the temporary file cannot be created (e.g. unwritable folder).
    explicit AtomicFile(std::filesystem::path target);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::ostream& stream() { return out_; }
    // Flushes, checks for write errors and renames onto the target. Throws firelab::Error(Io).
    void commit();

private:
    std::filesystem::path target_;
    std::filesystem::path temp_;
    std::ofstream out_;
    bool committed_ = false;
};

}  // namespace firelab::sim

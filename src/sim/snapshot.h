// Particle state as CSV, one row per live particle: what `firelab snapshot` writes.
// Also: size over life.
#pragma once
#include <ostream>

#include "sim/fire_system.h"

namespace firelab::sim {

inline float sizeAt(const FireParams& p, float normalisedAge, float scale) {
    return (p.sizeStart + (p.sizeEnd - p.sizeStart) * normalisedAge) * scale;
}

inline constexpr const char* kSnapshotHeader = "x,y,z,vx,vy,vz,ax,ay,az,age,lifetime,size,r,g,b,a";
void writeSnapshotCsv(const FireSystem& fire, std::ostream& out);

}  // namespace firelab::sim

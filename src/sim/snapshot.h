// Particle state as CSV, one row per live particle: what `firelab snapshot` writes.
// Also: size over life.
#pragma once
#include <functional>
#include <string>
#include <ostream>
#include <string_view>

#include "sim/fire_system.h"

namespace firelab::sim {

inline float sizeAt(const FireParams& p, float normalisedAge, float scale) {
    return (p.sizeStart + (p.sizeEnd - p.sizeStart) * normalisedAge) * scale;
}

inline constexpr const char* kSnapshotHeader = "x,y,z,vx,vy,vz,ax,ay,az,age,lifetime,size,r,g,b,a";
// Columns a caller appends to every row after the model's (firelab snapshot --view: the camera's view of
// each particle): their names, comma-separated, and particle i's fields, as many.
struct SnapshotExtra {
    std::string header;
    std::function<std::string(size_t)> fields;
};
// With `layer` (an effect's layer name), every row starts with it under a "layer" column; `header` false
// leaves the header out (the second and later layers of one file).
void writeSnapshotCsv(const FireSystem& fire, std::ostream& out, std::string_view layer = {}, bool header = true,
                      const SnapshotExtra* extra = nullptr);

}  // namespace firelab::sim

#include "sim/snapshot.h"

#include <cstdio>

#include "sim/look.h"

namespace firelab::sim {

void writeSnapshotCsv(const FireSystem& fire, std::ostream& out, std::string_view layer, bool header,
                      const SnapshotExtra* extra) {
    const FireParams& p = fire.params();
    const ParticlePool& q = fire.pool();
    if (header) out << (layer.empty() ? "" : "layer,") << kSnapshotHeader << (extra ? "," + extra->header : "") << '\n';
    char line[512];
    const FlameFrame flame = flameFrame(p);
    for (size_t i = 0; i < q.alive(); ++i) {
        const float t = q.age[i] / q.life[i];
        const glm::vec4 c = particleColor(p, flame, q, i);
        const int n = std::snprintf(
            line, sizeof line, "%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.6g,%.6g,%.6g,%.6g\n",
            double(q.px[i]), double(q.py[i]), double(q.pz[i]), double(q.vx[i]), double(q.vy[i]), double(q.vz[i]),
            double(q.ax[i]), double(q.ay[i]), double(q.az[i]), double(q.age[i]), double(q.life[i]),
            double(sizeAt(p, t, q.scale[i])), double(c.r), double(c.g), double(c.b), double(c.a));
        if (!layer.empty()) out << layer << ',';
        if (!extra) {
            out.write(line, n);
            continue;
        }
        out.write(line, n - 1);  // the model's fields, then the caller's
        out << ',' << extra->fields(i) << '\n';
    }
}

}  // namespace firelab::sim

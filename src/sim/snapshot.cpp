#include "sim/snapshot.h"

#include <unistd.h>

#include <cstdio>

#include "sim/error.h"
#include "sim/gradient.h"

namespace firelab::sim {

void writeSnapshotCsv(const FireSystem& fire, std::ostream& out) {
    const FireParams& p = fire.params();
    const ParticlePool& q = fire.pool();
    out << kSnapshotHeader << '\n';
    char line[512];
    for (size_t i = 0; i < q.alive(); ++i) {
        const float t = q.age[i] / q.life[i];
        const glm::vec4 c = evaluateGradient(p.gradient, t);
        const int n = std::snprintf(line, sizeof line, "%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.6g,%.6g,%.6g,%.6g\n",
                                    double(q.px[i]), double(q.py[i]), double(q.pz[i]), double(q.vx[i]),
                                    double(q.vy[i]), double(q.vz[i]), double(q.ax[i]), double(q.ay[i]),
                                    double(q.az[i]), double(q.age[i]), double(q.life[i]),
                                    double(sizeAt(p, t, q.scale[i])), double(c.r), double(c.g), double(c.b),
                                    double(c.a));
        out.write(line, n);
    }
}

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
    temp_ = target_;
    temp_ += ".tmp." + std::to_string(::getpid());
    out_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!out_)
        throw Error(ErrorCode::Io, "cannot write " + target_.string() + ": the folder is missing or not writable");
}

AtomicFile::~AtomicFile() {
    if (!committed_) {
        out_.close();
        std::error_code ec;
        std::filesystem::remove(temp_, ec);
    }
}

void AtomicFile::commit() {
    out_.flush();
    const bool ok = static_cast<bool>(out_);
    out_.close();
    std::error_code ec;
    if (ok) std::filesystem::rename(temp_, target_, ec);
    if (!ok || ec) {
        std::filesystem::remove(temp_, ec);
        throw Error(ErrorCode::Io, "writing " + target_.string() + " failed" + (ec ? ": " + ec.message() : ""));
    }
    committed_ = true;
}

}  // namespace firelab::sim

#include "harness/results/inputs.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/error.h"
#include "core/hash.h"
#include "harness/platform/interrupt.h"
#include "harness/settings/camera_path.h"
#include "harness/settings/effect.h"
#include "harness/settings/reference.h"
#include "render/particles/particle_material.h"

namespace firelab::harness {
namespace fs = std::filesystem;

std::string fileFingerprint(const fs::path& file) {
    std::error_code ec;
    if (!fs::exists(file, ec)) throw Error(ErrorCode::MissingFile, file.string() + ": no such file");
    if (!fs::is_regular_file(file, ec))
        throw Error(ErrorCode::BadFile, file.string() + ": not a regular file (a folder, a device or a pipe)");
    std::ifstream in(file, std::ios::binary);
    std::ostringstream bytes;
    if (!in) throw Error(ErrorCode::MissingFile, file.string() + ": cannot be opened to fingerprint it (permissions?)");
    if (fs::file_size(file, ec) == 0) throw Error(ErrorCode::BadFile, file.string() + ": an empty file");
    if (!(bytes << in.rdbuf()))
        throw Error(ErrorCode::MissingFile, file.string() + ": cannot be read to fingerprint it");
    char hex[32];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(core::fnv1a(bytes.str())));
    return std::string("fnv1a64:") + hex;
}

namespace {
// The name an input is recorded under: relative to the data folder when it lies there (the same on every
// machine that shards a sweep), else the absolute path it resolved to.
std::string inputName(const fs::path& file, const fs::path& dataDir) {
    // Symbolic links resolved: a file reached through a linked folder (a scratch or home folder on a cluster)
    // is the file it links to, as another shard names it.
    std::error_code ec;
    const fs::path full = fs::weakly_canonical(fs::absolute(file, ec), ec).lexically_normal();
    fs::path data = fs::weakly_canonical(fs::absolute(dataDir, ec), ec).lexically_normal();
    if (data.has_parent_path() && data.filename().empty()) data = data.parent_path();  // "dir/" as "dir"
    const fs::path relative = full.lexically_relative(data);
    if (!dataDir.empty() && !relative.empty() && *relative.begin() != "..") return relative.generic_string();
    return full.generic_string();
}

// The files one run reads: its effect, its sprites (its own, each layer's, its reference's) and its camera path.
std::vector<fs::path> filesOf(const RunSettings& s, const fs::path& dataDir) {
    std::vector<fs::path> files;
    if (!s.effect.empty()) files.push_back(resolveEffectPath(s.effect));
    files.push_back(render::spritePath(dataDir, s.render));
    for (const auto& layer : resolveLayers(s)) files.push_back(render::spritePath(dataDir, layer.render));
    if (s.quality.enabled)
        files.push_back(render::spritePath(dataDir, referenceSettings(s, s.quality.reference).render));
    if (s.camera.mode == render::CameraMode::Path) files.push_back(resolveCameraPath(s.camera.path));
    return files;
}
}  // namespace

std::vector<std::pair<std::string, std::string>> inputFingerprints(const std::vector<PlannedRun>& runs,
                                                                   const fs::path& source, const fs::path& dataDir) {
    std::set<fs::path> named;               // each path as the runs name it: resolved once (200 000 runs share a few)
    std::map<std::string, fs::path> files;  // by recorded name: each read once
    for (const PlannedRun& r : runs) {
        if (stopRequested()) throw Error(ErrorCode::Interrupted, "interrupted while the inputs were listed");
        for (const fs::path& f : filesOf(r.settings, dataDir))
            if (named.insert(f).second) files.emplace(inputName(f, dataDir), f);
    }
    std::vector<std::pair<std::string, std::string>> out;
    if (!source.empty()) out.emplace_back(inputName(source, dataDir), fileFingerprint(source));
    for (const auto& [name, file] : files) {
        std::error_code ec;
        if (!fs::is_regular_file(file, ec)) continue;  // the run's own check names it
        if (!out.empty() && out.front().first == name) continue;
        out.emplace_back(name, fileFingerprint(file));
    }
    return out;
}

}  // namespace firelab::harness

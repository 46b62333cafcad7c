// What a sweep's runs read besides their settings, by content: the experiment file, effect files, sprites
// (each layer's and the reference's) and camera paths, each named as meta.json records it (relative to the
// data folder when it lies there, else the path it resolved to) with a hash of its bytes. --resume and merge
// compare them (configDifferences), so an input edited, or a relative path that names another file from
// another working directory, is refused by name instead of mixing two fires in one result.
#pragma once
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "harness/settings/experiment.h"

namespace firelab::harness {

// "fnv1a64:<16 hex digits>" of the file's bytes; Error(MissingFile) naming it when it cannot be read.
std::string fileFingerprint(const std::filesystem::path& file);

// Every distinct file the runs read, sorted by name, with its fingerprint; the experiment file `source`
// first when given. Files the runs name but that do not exist are left to the runs' own checks.
std::vector<std::pair<std::string, std::string>> inputFingerprints(const std::vector<PlannedRun>& runs,
                                                                   const std::filesystem::path& source,
                                                                   const std::filesystem::path& dataDir);

}  // namespace firelab::harness

// Finds the folder that holds shaders/, textures/ and experiments/: an explicit --data-dir, else
// next to or above the executable (build trees and bundles), else the source tree firelab was built
// from, else the working directory.
#pragma once
#include <filesystem>
#include <string>

namespace firelab::harness {

// Throws firelab::Error(MissingFile) when `override` is given but lacks shaders/.
std::filesystem::path findDataDir(const std::string& override = {});

}  // namespace firelab::harness

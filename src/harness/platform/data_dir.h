// Finds the folder that holds shaders/, textures/ and experiments/: an explicit --data-dir, else
// next to or above the executable (build trees and bundles), else the source tree firelab was built
// from, else the working directory.
#pragma once
#include <filesystem>
#include <string>

namespace firelab::harness {

// Throws firelab::Error(MissingFile) when `override` is given but lacks shaders/. Without one, the folder
// setDefaultDataDir() named, if any (the command line's --data-dir, for lookups deep in the harness such
// as an effect's name), then the search above.
std::filesystem::path findDataDir(const std::string& override = {});
void setDefaultDataDir(const std::string& dir);

}  // namespace firelab::harness

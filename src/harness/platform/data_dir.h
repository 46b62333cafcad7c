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

// The file a path setting names (--effect, --camera-path): the path as given when it exists (or is
// absolute), else relative to the data folder, else a bare name (`campfire`) as FOLDER/NAME.toml there;
// else as given, for the reader to report missing. A name the file system refuses is a missing path.
std::filesystem::path resolveDataFile(const std::string& text, const std::filesystem::path& folder);

}  // namespace firelab::harness

#include "harness/platform/data_dir.h"

#include <unistd.h>

#include <array>

#include "core/error.h"

#ifndef FIRELAB_SOURCE_DIR
#define FIRELAB_SOURCE_DIR "."
#endif

namespace firelab::harness {
namespace fs = std::filesystem;

namespace {
bool isDataDir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p / "shaders", ec) && fs::is_directory(p / "textures", ec);
}

std::string& defaultDataDir() {
    static std::string dir;
    return dir;
}

fs::path executableDir() {
    std::array<char, 4096> buf{};
    const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (n <= 0) return {};
    return fs::path(std::string(buf.data(), static_cast<size_t>(n))).parent_path();
}
}  // namespace

void setDefaultDataDir(const std::string& dir) { defaultDataDir() = dir; }

fs::path findDataDir(const std::string& given) {
    const std::string& override = given.empty() ? defaultDataDir() : given;
    if (!override.empty()) {
        if (!isDataDir(override))
            throw Error(ErrorCode::MissingFile, "--data-dir " + override + ": no shaders/ and textures/ folders there");
        return fs::absolute(override);
    }
    const fs::path exe = executableDir();
    for (const fs::path& candidate :
         {exe, exe / "..", exe / "../..", exe / "../share/firelab", fs::path(FIRELAB_SOURCE_DIR), fs::current_path()}) {
        if (!candidate.empty() && isDataDir(candidate)) return fs::weakly_canonical(candidate);
    }
    throw Error(ErrorCode::MissingFile,
                "cannot find firelab's data (shaders/, textures/); pass --data-dir PATH to the repository or bundle");
}

fs::path resolveDataFile(const std::string& text, const fs::path& folder) {
    std::error_code ec;  // error_code forms throughout: a name the file system refuses is a missing path
    const fs::path given(text);
    if (fs::exists(given, ec) || given.is_absolute()) return given;
    const fs::path data = findDataDir();
    if (fs::exists(data / given, ec)) return data / given;
    const fs::path named = data / folder / (text + ".toml");
    if (!given.has_parent_path() && !given.has_extension() && fs::exists(named, ec)) return named;
    return given;
}

}  // namespace firelab::harness

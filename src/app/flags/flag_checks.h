// Checks of command-line values shared by the subcommands, with the flag named in the message.
#pragma once
#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

#include "core/error.h"

namespace firelab::app {

// A path flag that was given must name something: --out '' is refused, not read as "the default".
inline void checkNotEmpty(const CLI::Option* opt, const std::string& value, const std::string& what) {
    if (opt && opt->count() > 0 && value.empty())
        throw Error(ErrorCode::BadValue, opt->get_name() + " '': empty; name " + what);
}

// A TOML file named by the user (--config, the experiment): a directory or a missing file is said so,
// naming the flag.
inline void checkTomlPath(const std::filesystem::path& file, const std::string& flag) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw Error(ErrorCode::BadFile, flag + " " + file.string() + ": is a directory; name a TOML file");
    if (!std::filesystem::exists(file, ec))
        throw Error(ErrorCode::MissingFile, flag + " " + file.string() + ": no such file");
}

}  // namespace firelab::app

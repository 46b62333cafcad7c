// Checks of command-line values shared by the subcommands, with the flag named in the message.
#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "sim/error.h"

namespace firelab::app {

// A path flag that was given must name something: --out '' is refused, not read as "the default".
inline void checkNotEmpty(const CLI::Option* opt, const std::string& value, const std::string& what) {
    if (opt && opt->count() > 0 && value.empty())
        throw Error(ErrorCode::BadValue, opt->get_name() + " '': empty; name " + what);
}

}  // namespace firelab::app

// Command-line flags for the rendering options (--blend, --sort, --facing, --texture, --flipbook).
#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "render/options.h"

namespace firelab::app {

struct RenderFlags {
    std::string blend = "additive", sort = "none", facing = "view-plane", texture = "flame.png";
    bool flipbook = false;

    void addTo(CLI::App& cmd);
    // Throws firelab::Error(UnknownName) naming the flag, the value and the valid ones.
    render::RenderOptions resolve() const;
};

}  // namespace firelab::app

// Command-line flags for the rendering options (--blend, --sort, --facing, --texture, --flipbook).
#pragma once
#include <array>
#include <string>

#include <CLI/CLI.hpp>

namespace firelab::harness {
struct RunSettings;
}

namespace firelab::app {

struct RenderFlags {
    std::string blend = "additive", sort = "none", facing = "view-plane", texture = "flame.png";
    bool flipbook = false;

    void addTo(CLI::App& cmd);
    // Applies the flags that were given on top of `s` (e.g. loaded from --config). Throws
    // firelab::Error(UnknownName) naming the flag, the value and the valid ones.
    void applyTo(harness::RunSettings& s) const;

private:
    std::array<CLI::Option*, 5> options_{};
};

}  // namespace firelab::app

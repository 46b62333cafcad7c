// Command-line flags for every rendering option (one per entry of render::visitRenderOptions, with its
// help line): on/off options are flags (--hdr, --hdr=false), the others take a value. Shared by capture
// and view (applied on top of an optional --config file) and by run and sweep (where lists make axes).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/flags/model_flags.h"

namespace firelab::harness {
struct RunSettings;
}

namespace firelab::app {

class RenderFlags {
public:
    // Adds one --NAME per render option to `cmd`, in `group` (a path's help says it never takes a list).
    void addTo(CLI::App& cmd, const std::string& group = "Render");
    // The flags given on the command line, as (name, text), in name order.
    std::vector<std::pair<std::string, std::string>> given() const { return givenFlags(flags_); }
    // Applies the flags that were given on top of `s` (e.g. loaded from --config). Throws
    // firelab::Error naming the flag, the value and what is allowed.
    void applyTo(harness::RunSettings& s) const;

private:
    Flags flags_;
};

}  // namespace firelab::app

// Every setting as a flag of run and sweep, where a list makes a sweep axis: the run-level settings of
// harness::visitRunSettings (on/off ones are switches), the render options (RenderFlags) and the model's
// parameters (ModelFlags), applied on top of the experiment.
#pragma once
#include <CLI/CLI.hpp>

#include "app/flags/model_flags.h"
#include "app/flags/render_flags.h"
#include "harness/settings/experiment.h"

namespace firelab::app {

struct SettingFlags {
    ModelFlags model;
    RenderFlags render;
    Flags run;

    void addTo(CLI::App& cmd);
    // Each flag given overrides the experiment's value (a list replaces or makes an axis).
    void applyTo(harness::Experiment& e) const;
};

}  // namespace firelab::app

// Flags of the commands that draw or place a scene outside a run (snapshot, capture, view): the effect
// (--effect, --override-layers, a parameterised flame's --fire-diameter and --heat-release, --fire-light) and the view (harness::visitCameraSettings), each applied on top
// of --config and checked as a run's are. run and sweep take these as run settings (setting_flags.h).
#pragma once
#include <CLI/CLI.hpp>

#include "app/flags/model_flags.h"
#include "harness/settings/run_settings.h"

namespace firelab::app {

// --effect, --override-layers, --fire-diameter, --heat-release and (unless left out) --fire-light.
struct EffectFlags {
    Flags flags;

    void addTo(CLI::App& cmd, bool withFireLight = true);
    // Applies the flags given; a bad effect file fails here, naming it.
    void applyTo(harness::RunSettings& s) const;
};

// The view's settings, in the "Camera" group. A path file is read here, so a bad one fails before anything
// is drawn, naming the file, the line and the key.
struct CameraFlags {
    Flags flags;

    void addTo(CLI::App& cmd);
    void applyTo(harness::RunSettings& s) const;
};

// The fire model and the grid fluid's settings (fluid::visitFluidParams: --model, --motion, --medium, --grid...), in
// the "Fire model and grid fluid" group.
struct FluidFlags {
    Flags flags;

    void addTo(CLI::App& cmd);
    void applyTo(harness::RunSettings& s) const;
};

}  // namespace firelab::app

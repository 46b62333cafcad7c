// `firelab view`: an SDL2 window with a Dear ImGui interface to tune the fire and compare strategies
// by eye. Panels edit the same parameter structs the CLI and experiment files fill; an A/B split shows
// one simulation state drawn two ways with a movable divider (or, each side with its own --model, the paper's
// fire beside the grid fluid's). Each side draws the whole effect (--effect,
// or the single flame) through a harness::LayerRig, lit by its fire (--fire-light); the Layers panel
// edits the effect's layers (harness::EffectEditor) and saves or loads its file. Keys: Space pause, . step, S screenshot,
// Tab A/B split, H hide the panel, R reset camera, F1 help. --quit-after N --screenshot FILE automates captures.
#pragma once
#include <filesystem>
#include <string>

#include "harness/settings/experiment.h"

namespace firelab::app {

struct ViewerOptions {
    harness::RunSettings a;            // side A (and the model)
    std::string strategyB = "points";  // side B
    render::RenderOptions renderB;
    fluid::FluidParams
        fluidB;  // side B's fire model (--model, --motion and the grid fluid's): A's unless --compare sets them
    bool split = false;
    bool panel = true;  // the settings panel shown (H hides and shows it)
    bool vsync = true;
    int width = 1280, height = 720;
    int quitAfter = -1;      // frames; 0 quits once set up; -1 runs until closed
    std::string screenshot;  // written when quitting after --quit-after frames (>= 1)
    std::filesystem::path dataDir;
};

// Returns the exit code (130 after SIGINT/SIGTERM). Throws firelab::Error if no window or GL context can
// be made, or the --screenshot cannot be written.
int runViewer(const ViewerOptions& options);

}  // namespace firelab::app

// `firelab snapshot`: simulate from an empty system and write every live particle as CSV (with --effect, every
// layer's, a "layer" column first; with --view, where the camera sees each one).
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/command.h"
#include "app/flags/flag_checks.h"
#include "app/flags/model_flags.h"
#include "app/flags/scene_flags.h"
#include "app/flags/sim_flags.h"
#include "core/atomic_file.h"
#include "harness/settings/camera_path.h"
#include "harness/settings/effect.h"
#include "render/particles/view_census.h"
#include "sim/fire_system.h"
#include "sim/snapshot.h"

namespace firelab::app {
namespace {

class Snapshot : public Command {
public:
    void addTo(CLI::App& cmd) override {
        model_.addTo(cmd);
        effect_.addTo(cmd, false);
        camera_.addTo(cmd);
        sim_.addTo(cmd, "seconds to simulate; 0 writes N freshly emitted particles");
        outFlag_ = cmd.add_option("--out", out_, "output CSV file")->required();
        cmd.add_flag(
            "--view", view_,
            std::string("append each particle as the camera (--camera ...) sees it at the snapshot's time in a "
                        "--width x --height frame: ") +
                render::kViewColumns);
        widthFlag_ = cmd.add_option("--width", width_, "--view's frame width")->capture_default_str();
        heightFlag_ = cmd.add_option("--height", height_, "--view's frame height")->capture_default_str();
    }

    int run(const CommandContext&) override {
        checkNotEmpty(outFlag_, out_, "the CSV file to write");
        harness::RunSettings settings = model_.settings();
        effect_.applyTo(settings);
        camera_.applyTo(settings);
        // Given, they replace --config's (with the range checks of run's --width and --height).
        if (widthFlag_->count() > 0) harness::applySetting(settings, "width", std::to_string(width_));
        if (heightFlag_->count() > 0) harness::applySetting(settings, "height", std::to_string(height_));
        const float dt = checkedDt(sim_.dt);
        const long n = steps(sim_.time, dt);
        // With --effect, every layer's particles, a "layer" column first; without, the model's as always.
        std::vector<harness::Layer> layers = harness::resolveLayers(settings);
        const bool named = !settings.effect.empty();
        refuseToReplaceOtherFiles();
        core::AtomicFile file(out_);  // fails before simulating if the output cannot be written
        size_t written = 0;
        double time = 0.0;
        for (size_t l = 0; l < layers.size(); ++l) {
            sim::FireSystem fire(layers[l].params, checkedThreads(sim_.threads));
            if (n == 0)
                fire.emit(layers[l].params.particles);  // the emitter's initial distributions, for inspection
            else
                for (long i = 0; i < n; ++i) fire.step(dt);
            const sim::SnapshotExtra extra =
                view_ ? viewColumns(settings, fire, layers[l].render) : sim::SnapshotExtra{};
            sim::writeSnapshotCsv(fire, file.stream(), named ? layers[l].name : std::string_view{}, l == 0,
                                  view_ ? &extra : nullptr);
            written += fire.pool().alive(), time = fire.time();
        }
        file.commit();
        std::fprintf(stderr, "wrote %zu particles at t=%.3f s to %s\n", written, time, out_.c_str());
        return 0;
    }

private:
    // An existing --out is replaced only when it is a snapshot already (its header firelab's): never an
    // experiment's TOML or any other file given by mistake.
    void refuseToReplaceOtherFiles() const {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(out_, ec)) return;  // new, or not a file: AtomicFile says why
        std::ifstream in(out_);
        std::string first;
        std::getline(in, first);
        const std::string_view header = sim::kSnapshotHeader;
        if (first.starts_with(header) || first.starts_with("layer," + std::string(header))) return;
        throw Error(ErrorCode::BadFile, "--out " + out_ +
                                            ": an existing file that is not a firelab snapshot (its first line "
                                            "is not the snapshot header); give a new file name, or remove it first");
    }

    // --view's columns of one layer's particles, seen by the run's camera at the fire's time.
    static sim::SnapshotExtra viewColumns(const harness::RunSettings& s, const sim::FireSystem& fire,
                                          const render::RenderOptions& options) {
        const render::Camera cam = harness::RunCamera(s).at(fire.time(), s.width, s.height);
        return {render::kViewColumns,
                [&fire, cam, options](size_t i) { return render::viewFields(fire, i, cam, options); }};
    }

    ModelFlags model_;
    EffectFlags effect_;
    CameraFlags camera_;
    SimFlags sim_;
    std::string out_;
    bool view_ = false;
    int width_ = 1280, height_ = 720;
    const CLI::Option* outFlag_ = nullptr;
    const CLI::Option* widthFlag_ = nullptr;
    const CLI::Option* heightFlag_ = nullptr;
};

}  // namespace

extern constexpr CommandEntry kSnapshotCommand{
    "snapshot", "simulate from an empty system and write every live particle as CSV",
    []() -> std::unique_ptr<Command> { return std::make_unique<Snapshot>(); }};

}  // namespace firelab::app

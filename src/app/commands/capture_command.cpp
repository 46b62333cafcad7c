// `firelab capture`: the same simulated state drawn by each strategy into DIR/<strategy>.png, with a contact
// sheet, overdraw heat maps and compare.csv against a reference.
#include <cstdio>

#include "app/command.h"
#include "app/flags/flag_checks.h"
#include "app/flags/model_flags.h"
#include "app/flags/render_flags.h"
#include "app/flags/scene_flags.h"
#include "app/flags/sim_flags.h"
#include "harness/draw/capture.h"
#include "harness/platform/data_dir.h"
#include "harness/settings/experiment.h"
#include "render/strategies/strategy.h"

namespace firelab::app {
namespace {

constexpr int kMaxSide = 16384;  // an image's side, in pixels

class Capture : public Command {
public:
    void addTo(CLI::App& cmd) override {
        model_.addTo(cmd);
        render_.addTo(cmd);
        effect_.addTo(cmd);
        camera_.addTo(cmd);
        fluid_.addTo(cmd);
        sim_.addTo(cmd, "simulated time of the captured state, s");
        cmd.add_option("--strategy", strategies_, "comma-separated strategies, or all")->capture_default_str();
        cmd.add_option("--width", width_, "image width")->check(CLI::Range(1, kMaxSide))->capture_default_str();
        cmd.add_option("--height", height_, "image height")->check(CLI::Range(1, kMaxSide))->capture_default_str();
        outFlag_ = cmd.add_option("--out", out_, "output folder")->required();
        cmd.add_option("--reference", reference_,
                       "what compare.csv measures against: key=value;... of " + harness::referenceKeyList() +
                           " (settings not named follow the capture's); by default " + kParticleReference +
                           ", and under --model fluid (unless --motion fluid) " + kGridReference +
                           ", the grid's own medium");
    }

    int run(const CommandContext& context) override {
        checkNotEmpty(outFlag_, out_, "the output folder");
        if (!model_.config.empty()) checkTomlPath(model_.config, "--config");
        harness::CaptureSettings s;
        s.strategies = harness::parseStrategyList(strategies_);
        harness::RunSettings base = model_.settings();
        render_.applyTo(base);
        effect_.applyTo(base);
        camera_.applyTo(base);
        fluid_.applyTo(base);
        s.params = base.params;
        s.fluid = base.fluid;
        s.camera = base.camera;
        s.render = base.render;
        s.effect = base.effect;
        s.overrideLayers = base.overrideLayers;
        s.fireDiameter = base.fireDiameter, s.heatRelease = base.heatRelease;
        s.fireLight = base.fireLight;
        s.dt = checkedDt(sim_.dt);
        s.time = static_cast<float>(steps(sim_.time, s.dt)) * s.dt;
        s.threads = checkedThreads(sim_.threads);
        s.width = width_, s.height = height_;
        s.outDir = out_;
        s.reference = !reference_.empty()                         ? reference_
                      : render::onlyTheGridDrawsTheFluid(s.fluid) ? kGridReference
                                                                  : kParticleReference;
        s.dataDir = harness::findDataDir(context.dataDir);
        const auto results = harness::runCapture(s);
        for (const auto& r : results)
            std::fprintf(stderr, "%-22s %zu particles -> %s/%s.png\n", r.strategy.c_str(), r.drawn, out_.c_str(),
                         r.strategy.c_str());
        std::fprintf(stderr, "contact sheet -> %s/contact-sheet.png\n", out_.c_str());
        return 0;
    }

private:
    ModelFlags model_;
    RenderFlags render_;
    EffectFlags effect_;
    CameraFlags camera_;
    FluidFlags fluid_;
    SimFlags sim_;
    std::string strategies_ = "all";
    int width_ = 640, height_ = 480;
    std::string out_;
    // The default references: the paper's particles sorted, or the grid fluid's medium integrated exactly (sprites
    // draw no grid, and the particles move with it only under --motion fluid).
    static constexpr const char* kParticleReference = "strategy=billboards-cpu;sort=back-to-front";
    static constexpr const char* kGridReference = "strategy=volume-reference";
    std::string reference_;
    CLI::Option* outFlag_ = nullptr;
};

}  // namespace

extern constexpr CommandEntry kCaptureCommand{"capture",
                                              "draw the same state with each strategy into DIR/<strategy>.png",
                                              []() -> std::unique_ptr<Command> { return std::make_unique<Capture>(); }};

}  // namespace firelab::app

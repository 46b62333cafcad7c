// `firelab view`: the interactive viewer (viewer/viewer.h) with live parameters and an A/B split of two
// strategies; every flag is checked, and every file read, before the window opens.
#include <algorithm>

#include "app/command.h"
#include "app/flags/flag_checks.h"
#include "app/flags/model_flags.h"
#include "app/flags/render_flags.h"
#include "app/flags/scene_flags.h"
#include "app/viewer/viewer.h"
#include "core/atomic_file.h"
#include "core/text.h"
#include "harness/platform/data_dir.h"
#include "render/particles/particle_material.h"
#include "render/strategies/strategy.h"

namespace firelab::app {
namespace {

// The window's sides, in pixels.
constexpr int kMinSide = 64, kMaxSide = 16384;

class View : public Command {
public:
    void addTo(CLI::App& cmd) override {
        model_.addTo(cmd);
        render_.addTo(cmd);
        effect_.addTo(cmd);
        camera_.addTo(cmd);
        fluid_.addTo(cmd);
        strategyFlag_ = cmd.add_option("--strategy", strategy_,
                                       "strategy on side A (left); under --model fluid (unless --motion fluid) "
                                       "volume, the grid's medium, by default")
                            ->capture_default_str();
        compareFlag_ =
            cmd.add_option("--compare", compare_,
                           "side B (right) of the A/B split: a strategy, or a spec of KEY=VALUE pairs joined "
                           "by ';' (strategy and any render option, e.g. "
                           "strategy=billboards-cpu;blend=additive;soft=0.2); what it does not set is side "
                           "A's; under --model fluid by default " +
                               std::string(kFluidCompare) + ", the paper's fire beside the grid's")
                ->capture_default_str();
        cmd.add_flag("--split", split_, "start with the A/B split on");
        cmd.add_flag("--hide-panel", hidePanel_, "start with the settings panel hidden (H shows it)");
        cmd.add_flag("--no-vsync", noVsync_, "do not wait for vertical sync");
        cmd.add_option("--width", width_, "window width")->check(CLI::Range(kMinSide, kMaxSide))->capture_default_str();
        cmd.add_option("--height", height_, "window height")
            ->check(CLI::Range(kMinSide, kMaxSide))
            ->capture_default_str();
        quitAfterFlag_ = cmd.add_option("--quit-after", quitAfter_,
                                        "quit after this many frames (automation; 0: once set up, drawing nothing)");
        screenshotFlag_ = cmd.add_option("--screenshot", screenshot_, "PNG written when --quit-after ends the viewer");
    }

    int run(const CommandContext& context) override {
        checkNotEmpty(screenshotFlag_, screenshot_, "the PNG file to write");
        ViewerOptions o;
        o.a = sideA();
        const harness::RunSettings b = sideB(o.a);
        o.strategyB = b.strategy;
        o.renderB = b.render;
        o.fluidB = b.fluid;
        o.split = split_;
        o.panel = !hidePanel_;
        o.vsync = !noVsync_;
        checkWindowFlags();
        const bool quits = quitAfterFlag_->count() > 0;
        o.width = width_, o.height = height_, o.quitAfter = quits ? quitAfter_ : -1, o.screenshot = screenshot_;
        o.dataDir = harness::findDataDir(context.dataDir);
        checkFiles(o);
        return runViewer(o);
    }

private:
    // Side A's run, and the model: --config first ([run] and [model]), then the flags given.
    harness::RunSettings sideA() const {
        if (!model_.config.empty()) checkTomlPath(model_.config, "--config");
        harness::RunSettings a = model_.settings();
        render_.applyTo(a);
        effect_.applyTo(a);
        camera_.applyTo(a);
        fluid_.applyTo(a);
        if (strategyFlag_->count() > 0)
            harness::applySetting(a, "strategy", strategy_);
        else if (render::onlyTheGridDrawsTheFluid(a.fluid))
            harness::applySetting(a, "strategy", "volume");
        return a;
    }

    // Side B: side A's drawing with what --compare sets, a strategy ("points") or KEY=VALUE pairs of the strategy
    // and the render options ("strategy=billboards-cpu;blend=additive"), and the fire model's ("model=fluid;grid=48",
    // the paper's fire beside the fluid's). The model's parameters are A's.
    harness::RunSettings sideB(const harness::RunSettings& a) const {
        harness::RunSettings b = a;
        const std::string compare =
            compareFlag_->count() == 0 && render::onlyTheGridDrawsTheFluid(a.fluid) ? kFluidCompare : compare_;
        const bool spec = compare.find('=') != std::string::npos;
        for (const std::string& part : spec ? core::split(compare, ';') : std::vector<std::string>{compare}) {
            const size_t eq = part.find('=');
            const std::string key = spec ? core::trim(part.substr(0, eq)) : "strategy";
            const std::string value = spec && eq != std::string::npos ? core::trim(part.substr(eq + 1)) : part;
            const harness::SettingInfo* info = harness::findSetting(key);
            const auto& fluidNames = harness::fluidSettingNames();
            const bool fluidKey = std::find(fluidNames.begin(), fluidNames.end(), key) != fluidNames.end();
            if (spec && (eq == std::string::npos || (key != "strategy" && !fluidKey && (!info || !info->renderOption))))
                throw Error(ErrorCode::BadValue, "--compare '" + compare + "': '" + part +
                                                     "' is not KEY=VALUE of the strategy, a render option or a fluid "
                                                     "setting (" +
                                                     renderOptionNames() +
                                                     "); side B shares side A's other model parameters");
            try {
                harness::applySetting(b, key, value);
            } catch (const Error& e) {  // the message names --KEY: say it came through --compare
                std::string msg = e.what();
                if (!spec && msg.rfind("--strategy", 0) == 0) throw Error(e.code(), msg.replace(0, 10, "--compare"));
                throw Error(e.code(), "--compare '" + compare + "': " + msg);
            }
        }
        return b;
    }

    // Side B under --model fluid when --compare is not given: the paper's fire beside the grid's.
    static constexpr const char* kFluidCompare = "model=paper;strategy=billboards-instanced";

    static std::string renderOptionNames() {
        std::vector<std::string> names{"strategy"};
        for (const auto& o : harness::renderOptions()) names.push_back(o.name);
        for (const auto& n : harness::fluidSettingNames()) names.push_back(n);
        return core::join(names);
    }

    // The window's size, and --screenshot only where --quit-after (1 or more) ends the viewer.
    void checkWindowFlags() const {
        if (width_ < kMinSide || width_ > kMaxSide || height_ < kMinSide || height_ > kMaxSide)
            throw Error(ErrorCode::BadValue, "--width/--height " + std::to_string(width_) + "x" +
                                                 std::to_string(height_) + ": each must be in [64, 16384]");
        if (quitAfter_ < 0)
            throw Error(ErrorCode::BadValue, "--quit-after " + std::to_string(quitAfter_) + ": must be >= 0");
        if (!screenshot_.empty() && quitAfterFlag_->count() == 0)
            throw Error(ErrorCode::BadValue, "--screenshot " + screenshot_ +
                                                 ": written when --quit-after N ends the viewer; give --quit-after too "
                                                 "(or press S in the viewer)");
        if (!screenshot_.empty() && quitAfter_ == 0)
            throw Error(ErrorCode::BadValue, "--screenshot " + screenshot_ +
                                                 " with --quit-after 0: no frame is drawn; "
                                                 "give --quit-after 1 or more");
    }

    // Files are checked before the window opens, as the other commands do: a missing or unreadable
    // texture exits 2, a screenshot that cannot be written 1 (2 if it names a device, FIFO or folder).
    static void checkFiles(const ViewerOptions& o) {
        render::checkSprite(o.dataDir, o.a.render);
        if (!o.screenshot.empty()) {
            core::AtomicFile probe(core::checkedOutputPath(o.screenshot, "--screenshot"));  // abandoned: nothing kept
        }
    }

    ModelFlags model_;
    RenderFlags render_;
    EffectFlags effect_;
    CameraFlags camera_;
    FluidFlags fluid_;
    std::string strategy_ = "billboards-instanced", compare_ = "points", screenshot_;
    bool split_ = false, noVsync_ = false, hidePanel_ = false;
    int width_ = 1280, height_ = 720, quitAfter_ = 0;
    CLI::Option* strategyFlag_ = nullptr;
    CLI::Option* compareFlag_ = nullptr;
    CLI::Option* screenshotFlag_ = nullptr;
    CLI::Option* quitAfterFlag_ = nullptr;
};

}  // namespace

extern constexpr CommandEntry kViewCommand{"view", "interactive viewer: live parameters, A/B split of two strategies",
                                           []() -> std::unique_ptr<Command> { return std::make_unique<View>(); }};

}  // namespace firelab::app

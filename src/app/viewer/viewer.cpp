#include "app/viewer/viewer.h"

#include <SDL.h>
#include <epoxy/gl.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <vector>

#include <glm/geometric.hpp>

#include "core/atomic_file.h"
#include "harness/settings/effect.h"
#include "harness/settings/effect_editor.h"
#include "harness/platform/interrupt.h"
#include "harness/draw/layer_rig.h"
#include "harness/draw/overdraw.h"
#include "render/camera.h"
#include "render/gl/frame_target.h"
#include "render/gl/gl_context.h"
#include "render/gl/pass_timer.h"
#include "render/frame/frame_pipeline.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"
#include "core/error.h"
#include "sim/fire_system.h"
#include "sim/snapshot.h"
#include "sim/params.h"

namespace firelab::app {
namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// A combo box over an enum's names; true when the user picked another.
template <class E, size_t N>
bool combo(std::string_view label, E& v, const std::array<std::string_view, N>& names) {
    bool changed = false;
    if (ImGui::BeginCombo(std::string(label).c_str(), std::string(names[static_cast<size_t>(v)]).c_str())) {
        for (size_t k = 0; k < N; ++k)
            if (ImGui::Selectable(std::string(names[k]).c_str(), static_cast<size_t>(v) == k)) {
                changed = static_cast<size_t>(v) != k;
                v = static_cast<E>(k);
            }
        ImGui::EndCombo();
    }
    return changed;
}

void tip(std::string_view help) {
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(help).c_str());
}

// Edits the FireParams fields of one section of sim::visitParams (Emitter, Motion, Appearance: a panel
// each) with ImGui widgets; records whether any changed, and which. Every parameter belongs to a section,
// so every parameter has a widget.
struct ParamEditor {
    explicit ParamEditor(std::string_view section) : only(section) {}
    std::string_view only;  // the section shown
    bool changed = false;
    std::vector<std::string> edited{};
    std::string_view current{};  // the section being visited

    void section(std::string_view title) { current = title; }
    bool wanted(std::string_view) const { return current == only; }
    void note(std::string_view n, bool c) {
        if (!c) return;
        changed = true;
        edited.emplace_back(n);
    }
    void scalar(std::string_view n, float& v, float lo, float hi, std::string_view help, unsigned = 0) {
        if (!wanted(n)) return;
        const float speed = (hi - lo) > 100.0f ? 0.01f : (hi - lo) / 500.0f;
        note(n, ImGui::DragFloat(std::string(n).c_str(), &v, speed, lo, hi, "%.3f", ImGuiSliderFlags_AlwaysClamp));
        tip(help);
    }
    void count(std::string_view n, uint32_t& v, uint32_t lo, uint32_t hi, std::string_view help, unsigned = 0) {
        if (!wanted(n)) return;
        const uint32_t top = std::min<uint32_t>(hi, 2'000'000);
        note(n, ImGui::DragScalar(std::string(n).c_str(), ImGuiDataType_U32, &v, 50.0f, &lo, &top, "%u",
                                  ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic));
        tip(help);
    }
    void seed(std::string_view n, uint64_t& v, std::string_view help, unsigned = 0) {
        if (!wanted(n)) return;
        note(n, ImGui::InputScalar(std::string(n).c_str(), ImGuiDataType_U64, &v));
        tip(help);
    }
    void vec3(std::string_view n, glm::vec3& v, float lo, float hi, std::string_view help, unsigned = 0) {
        if (!wanted(n)) return;
        note(n, ImGui::DragFloat3(std::string(n).c_str(), &v.x, 0.01f, lo, hi, "%.2f", ImGuiSliderFlags_AlwaysClamp));
        tip(help);
    }
    template <class E, size_t N>
    void choice(std::string_view n, E& v, const std::array<std::string_view, N>& names, std::string_view help,
                unsigned = 0) {
        if (!wanted(n)) return;
        note(n, combo(n, v, names));
        tip(help);
    }
    void gradient(std::string_view n, std::vector<sim::ColorKey>& keys, std::string_view help, unsigned = 0) {
        if (!wanted(n)) return;
        ImGui::TextUnformatted("colour over life (t, RGBA)");
        tip(help);
        bool c = false;
        for (size_t i = 0; i < keys.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            ImGui::SetNextItemWidth(60);
            const float lo = i ? keys[i - 1].t : 0.0f, hi = i + 1 < keys.size() ? keys[i + 1].t : 1.0f;
            c |= ImGui::DragFloat("##t", &keys[i].t, 0.005f, lo, hi, "%.2f", ImGuiSliderFlags_AlwaysClamp);
            ImGui::SameLine();
            c |= ImGui::ColorEdit4("##c", &keys[i].rgba.x, ImGuiColorEditFlags_Float | ImGuiColorEditFlags_AlphaBar);
            ImGui::PopID();
        }
        note(n, c);
    }
    void span(std::string_view n, glm::vec2& v, float lo, float hi, std::string_view help, unsigned = 0) {
        if (!wanted(n)) return;
        const float least = std::max(lo, 1.0f);  // a span's ends lie above lo
        note(n, ImGui::DragFloat2(std::string(n).c_str(), &v.x, 5.0f, least, hi, "%.0f", ImGuiSliderFlags_AlwaysClamp));
        tip(help);
    }
};

// Edits the render options (render::visitRenderOptions) with ImGui widgets, every one or (layerOnly) those
// an effect's layer may set (core::kLayer): a combo per choice, a checkbox per flag, a slider per scalar,
// a pair of fields per interval and a text field for a path (taken on Enter); records which changed. The
// camera's settings (harness::visitCameraSettings) take it too: a number and a point are dragged.
struct SettingEditor {
    bool layerOnly = false;
    std::vector<std::string> edited{};

    bool wanted(unsigned attrs) const { return !layerOnly || (attrs & core::kLayer); }
    void note(std::string_view n, bool c) {
        if (c) edited.emplace_back(n);
    }
    template <class E, size_t N>
    void choice(std::string_view n, E& v, const std::array<std::string_view, N>& names, std::string_view help,
                unsigned attrs = 0) {
        if (!wanted(attrs)) return;
        note(n, combo(n, v, names));
        tip(help);
    }
    void flag(std::string_view n, bool& v, std::string_view help, unsigned attrs = 0) {
        if (!wanted(attrs)) return;
        note(n, ImGui::Checkbox(std::string(n).c_str(), &v));
        tip(help);
    }
    void scalar(std::string_view n, float& v, float lo, float hi, std::string_view help, unsigned attrs = 0) {
        if (!wanted(attrs)) return;
        note(n, ImGui::SliderFloat(std::string(n).c_str(), &v, lo, hi, "%.3g",
                                   ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic));
        tip(help);
    }
    void interval(std::string_view n, glm::vec2& v, float lo, float hi, std::string_view help, unsigned attrs = 0) {
        if (!wanted(attrs)) return;
        glm::vec2 x = v;
        if (ImGui::DragFloat2(std::string(n).c_str(), &x.x, 0.01f, lo, hi, "%.2f", ImGuiSliderFlags_AlwaysClamp)) {
            if (x.x >= x.y && x.y > 0.0f) x.x = std::max(lo, x.y - 0.01f);  // keeps NEAR below FAR
            if (x.y <= 0.0f) x = glm::vec2(0.0f);                           // FAR 0: off
            note(n, x != v);
            v = x;
        }
        tip(help);
    }
    template <class F>
    void number(std::string_view n, F& v, double lo, double hi, std::string_view help, unsigned = 0) {
        float x = static_cast<float>(v);
        const float span = static_cast<float>(std::min(hi - lo, 100.0));
        if (ImGui::DragFloat(std::string(n).c_str(), &x, span / 500.0f, static_cast<float>(lo), static_cast<float>(hi),
                             "%.3g", ImGuiSliderFlags_AlwaysClamp) &&
            x > static_cast<float>(lo) && x < static_cast<float>(hi)) {  // the open ends too (a distance of 0)
            note(n, static_cast<F>(x) != v);
            v = static_cast<F>(x);
        }
        tip(help);
    }
    void vec3(std::string_view n, glm::vec3& v, float lo, float hi, std::string_view help, unsigned = 0) {
        note(n, ImGui::DragFloat3(std::string(n).c_str(), &v.x, 0.01f, lo, hi, "%.2f", ImGuiSliderFlags_AlwaysClamp));
        tip(help);
    }
    // Whole numbers (the fluid's solver iterations) and a grid's cells, taken when the drag ends: each change
    // rebuilds the side's rig.
    template <class I>
    void integer(std::string_view n, I& v, long lo, long hi, std::string_view help, unsigned = 0) {
        int x = static_cast<int>(v);
        ImGui::DragInt(std::string(n).c_str(), &x, 1.0f, static_cast<int>(lo), static_cast<int>(hi), "%d",
                       ImGuiSliderFlags_AlwaysClamp);
        if (ImGui::IsItemDeactivatedAfterEdit() && static_cast<I>(x) != v) note(n, true), v = static_cast<I>(x);
        tip(help);
    }
    void grid(std::string_view n, glm::ivec3& v, int lo, int hi, std::string_view help, unsigned = 0) {
        glm::ivec3 x = v;
        ImGui::DragInt3(std::string(n).c_str(), &x.x, 0.25f, lo, hi, "%d", ImGuiSliderFlags_AlwaysClamp);
        if (ImGui::IsItemDeactivatedAfterEdit() && x != v) note(n, true), v = x;
        tip(help);
    }
    // A flipbook's layout: rows and columns, 0 for off (both, as the settings take it).
    void layout(std::string_view n, render::FlipbookLayout& v, std::string_view help, unsigned attrs = 0) {
        if (!wanted(attrs)) return;
        int x[2] = {v.rows, v.cols};
        if (ImGui::DragInt2(std::string(n).c_str(), x, 0.1f, 0, render::kMaxFlipbookSide, "%d",
                            ImGuiSliderFlags_AlwaysClamp)) {
            const render::FlipbookLayout f =
                x[0] > 0 && x[1] > 0 ? render::FlipbookLayout{x[0], x[1]} : render::FlipbookLayout{};
            note(n, f != v);
            v = f;
        }
        tip(help);
    }
    void path(std::string_view n, std::string& v, std::string_view help, unsigned attrs = 0) {
        if (!wanted(attrs)) return;
        // Room for any path the system takes (never a silently cut one), and for the one already there.
        std::vector<char> buffer(std::max<size_t>(PATH_MAX, v.size() + 1), '\0');
        std::copy(v.begin(), v.end(), buffer.begin());
        if (ImGui::InputText(std::string(n).c_str(), buffer.data(), buffer.size(),
                             ImGuiInputTextFlags_EnterReturnsTrue)) {
            note(n, v != buffer.data());
            v = buffer.data();
        }
        tip(help);
    }
};

// One side of the A/B split: a strategy with its options, the effect's layers drawn that way (a rig of
// its own, stepped to the viewer's time), its own target, and its error if it failed.
struct Side {
    std::string strategy;
    render::RenderOptions options;
    fluid::FluidParams fluid;  // the side's fire model (--model fluid: the grid fluid, its grid and solver)
    std::unique_ptr<harness::LayerRig> rig;
    long steps = 0;  // the steps rig has taken
    std::unique_ptr<render::FrameTarget> target;
    std::unique_ptr<render::FramePipeline> pipeline;  // the frame's passes for the rig and the target's size
    std::string error;
    std::string builtFor;  // what rig was made for; a change rebuilds it
    double simMs = 0.0;    // this frame's steps
};

class Viewer {
public:
    explicit Viewer(const ViewerOptions& o)
        : o_(o),
          context_({.debug = false,
                    .visible = true,
                    .width = o.width,
                    .height = o.height,
                    .resizable = true,
                    .title = "firelab"}),
          scene_(o.dataDir) {
        settings_ = o.a;
        reloadView();                     // main checked the camera: this reads the same path file
        if (!settings_.effect.empty()) {  // main read it already: an error here is one the user saw
            const auto path = harness::resolveEffectPath(settings_.effect);
            editor_ = harness::EffectEditor(harness::loadEffect(path), path);
        }
        std::snprintf(effectPath_, sizeof effectPath_, "%s", editor_.path().c_str());
        syncLayerName();
        a_.strategy = o.a.strategy, a_.options = o.a.render, a_.fluid = o.a.fluid;
        b_.strategy = o.strategyB, b_.options = o.renderB, b_.fluid = o.fluidB;
        split_ = o.split;
        panel_ = o.panel;
        context_.setVsync(o.vsync);
        vsync_ = o.vsync;
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini litter
        ImGui::StyleColorsDark();
        ImGui_ImplSDL2_InitForOpenGL(context_.window(), context_.sdlGlContext());
        ImGui_ImplOpenGL3_Init("#version 450");
        // At start: at steady state. A model the layers cannot take fails here, before the loop.
        const double prewarm =
            render::LayerStack::prewarmSecondsFor(harness::resolveLayers(runFor(a_), editor_.effect()));
        steps_ = std::lround(prewarm / settings_.dt);
        ensureRig(a_);
    }
    ~Viewer() {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
    }

    int run() {
        harness::StopScope stopScope;  // SIGINT/SIGTERM end the loop: exit 130
        if (o_.quitAfter == 0) return harness::stopRequested() ? harness::kInterruptedExitCode : 0;
        for (long frame = 0; running_; ++frame) {
            const auto frameStart = Clock::now();
            handleEvents();
            if (harness::stopRequested()) return harness::kInterruptedExitCode;
            if (fireDirty_) ++modelRevision_, fireDirty_ = false;  // the sides rebuild their rigs
            if (!paused_ || stepOnce_) ++steps_;                   // each side's rig steps there when it draws
            stepOnce_ = false;
            int w = 0, h = 0;
            SDL_GL_GetDrawableSize(context_.window(), &w, &h);
            w = std::max(w, 1), h = std::max(h, 1);
            drawSides(w, h, frame);
            drawUi(w, h);
            ImGui::Render();
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
            glViewport(0, 0, w, h);
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            const bool last = o_.quitAfter > 0 && frame + 1 >= o_.quitAfter;
            if (screenshotRequested_)
                saveScreenshot("firelab-screenshot-" + std::to_string(frame) + ".png", w, h, false);
            screenshotRequested_ = false;
            // --screenshot with --quit-after: a file that cannot be written is the command's failure.
            if (last && !o_.screenshot.empty()) saveScreenshot(o_.screenshot, w, h, true);
            if (last) running_ = false;
            context_.swap();
            frameMs_[frameIndex_++ % frameMs_.size()] = static_cast<float>(msSince(frameStart));
        }
        return o_.quitAfter > 0 ? scriptedOutcome() : 0;
    }

private:
    // A scripted session (--quit-after) that could not draw what it was asked to fails, naming why: on screen
    // the viewer keeps running with the message, but a script would read exit 0 as a picture drawn.
    int scriptedOutcome() const {
        int rc = 0;
        if (!modelError_.empty()) std::fprintf(stderr, "firelab: error: view: %s\n", modelError_.c_str()), rc = 1;
        for (const Side* s : {&a_, &b_}) {
            if (s == &b_ && !split_) break;
            if (s->error.empty()) continue;
            std::fprintf(stderr, "firelab: error: view: %s %s cannot draw: %s\n", s == &a_ ? "A" : "B",
                         s->strategy.c_str(), s->error.c_str());
            rc = 1;
        }
        return rc;
    }

    // The run a side draws: the viewer's settings with the side's strategy and options.
    harness::RunSettings runFor(const Side& s) const {
        harness::RunSettings r = settings_;
        r.strategy = s.strategy;
        r.render = s.options;
        r.fluid = s.fluid;
        return r;
    }

    double time() const { return static_cast<double>(steps_) * settings_.dt; }

    // Makes the side's rig for its strategy, options, the model and the effect when any changed, and
    // steps it to the viewer's time (from empty when that went back).
    void ensureRig(Side& s) {
        const std::string key = s.strategy + "|" + harness::renderOptionsText(s.options) + "|" +
                                harness::fluidParamsText(s.fluid) + "|" + std::to_string(modelRevision_) + "|" +
                                std::to_string(editor_.revision());
        if (key != s.builtFor || (s.rig && s.steps > steps_)) {
            s.builtFor = key;
            rebuildRig(s);
        }
        const auto t0 = Clock::now();
        for (; s.rig && s.steps < steps_; ++s.steps) s.rig->step(settings_.dt);
        s.simMs = msSince(t0);
    }

    void rebuildRig(Side& s) {
        const harness::RunSettings run = runFor(s);
        std::vector<harness::Layer> layers;
        try {
            layers = harness::resolveLayers(run, editor_.effect());
            modelError_.clear();
        } catch (const Error& e) {
            modelError_ = e.what();  // keep the last good rig running
            return;
        }
        s.rig.reset();
        s.pipeline.reset();  // the passes take the rig's frame options
        s.error.clear();
        s.steps = 0;
        try {
            s.rig = std::make_unique<harness::LayerRig>(run, std::move(layers), o_.dataDir);
        } catch (const Error& e) {
            s.error = e.what();  // shown on screen; the viewer keeps running
        }
    }

    void ensurePipeline(Side& s, int w, int h) {
        if (s.pipeline || !s.rig) return;
        try {
            s.pipeline = std::make_unique<render::FramePipeline>(o_.dataDir, s.rig->frameOptions(), w, h);
        } catch (const Error& e) {
            s.error = e.what();
            s.rig.reset();
        }
    }

    // The run's view (--camera: orbit, fixed or path) when scripted, else the free camera the mouse turns
    // around the run's target, with the run's field of view.
    render::Camera camera(int w, int h) const {
        if (scripted_) return runCamera_.at(time(), w, h);
        return render::lookAtCamera(freeEye(), settings_.camera.target, settings_.camera.fovDeg, w, h);
    }
    glm::vec3 freeEye() const {
        return settings_.camera.target + distance_ * glm::vec3(std::cos(elevation_) * std::cos(azimuth_),
                                                               std::sin(elevation_),
                                                               std::cos(elevation_) * std::sin(azimuth_));
    }

    // The camera settings as edited: a path file that does not read keeps the last good view, and says why.
    void reloadView() {
        try {
            harness::checkCamera(settings_);
            runCamera_ = harness::RunCamera(settings_);
            cameraMessage_.clear();
        } catch (const Error& e) {
            cameraMessage_ = e.what();
        }
    }

    // Puts the view on screen at this time into the keyframe file (created if missing), in its place by time
    // (a key of the same time replaced): a path built in the viewer, flown with --camera path --camera-path FILE.
    void saveKeyframe() {
        const render::CameraKey view =
            scripted_ ? runCamera_.keyAt(time())
                      : render::CameraKey{time(), freeEye(), settings_.camera.target, settings_.camera.fovDeg};
        try {
            const std::string text = harness::cameraPathWith(keyframePath_, view);
            core::AtomicFile f(keyframePath_);
            f.stream() << text;
            f.commit();
            cameraMessage_ = "saved the view at t = " + core::formatFloat(static_cast<float>(time())) + " s in " +
                             keyframePath_ + " (--camera path --camera-path " + keyframePath_ + ")";
        } catch (const Error& e) {
            cameraMessage_ = e.what();
        }
    }

    // Each side's frame at the resolution scale, blitted to its part of the window.
    void drawSides(int w, int h, long frame) {
        const int rw = std::max(1, static_cast<int>(static_cast<float>(w) * resolutionScale_));
        const int rh = std::max(1, static_cast<int>(static_cast<float>(h) * resolutionScale_));
        const render::Camera cam = camera(rw, rh);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, w, h);
        glClearColor(0.05f, 0.05f, 0.06f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        const int divider = split_ ? static_cast<int>(divider_ * static_cast<float>(w)) : w;
        for (Side* s : {&a_, &b_}) {
            if (s == &b_ && !split_) break;
            drawSide(*s, cam, rw, rh, frame);
            // Left of the divider shows A, right of it B, scaled from the render resolution.
            const int x0 = s == &a_ ? 0 : divider, x1 = s == &a_ ? divider : w;
            const int sx0 = x0 * rw / w, sx1 = x1 * rw / w;
            glBlitNamedFramebuffer(s->target->framebuffer(), 0, sx0, 0, sx1, rh, x0, 0, x1, h, GL_COLOR_BUFFER_BIT,
                                   GL_LINEAR);
        }
        if (const auto g = timer_.collect(frame)) gpuMs_ = g->frameMs;
        if (measureOverdraw_ && a_.rig && a_.pipeline && frame % 15 == 0) {
            const auto od = harness::measureOverdraw(*a_.pipeline, scene_, a_.rig->ordered(cam), cam);
            overdrawMean_ = od.mean, overdrawMax_ = od.max, overdrawCovered_ = od.coveredFraction;
        }
    }

    // The side's frame into its target (rw x rh): its rig's layers lit by their fire, or the scene alone
    // when it has none. Side A's frame is timed, its passes too.
    void drawSide(Side& s, const render::Camera& cam, int rw, int rh, long frame) {
        ensureRig(s);
        if (!s.target || s.target->width() != rw || s.target->height() != rh) {
            s.target = std::make_unique<render::FrameTarget>(rw, rh);
            s.pipeline.reset();
        }
        ensurePipeline(s, rw, rh);
        render::PassTimer* timer = &s == &a_ ? &timer_ : nullptr;
        if (timer) timer->beginFrame(frame);
        if (s.rig && s.pipeline) {
            s.rig->stack().setTimer(timer);
            s.pipeline->setTimer(timer);
            const double lightMs = s.rig->light(scene_, cam);  // the scene is shared: lit by this side's fire
            const auto t0 = Clock::now();
            s.rig->upload(cam);  // also when paused: CPU-built quads and sorting follow the camera
            if (&s == &a_) uploadMs_ = msSince(t0), lightMs_ = lightMs, simMs_ = s.simMs;
            s.pipeline->draw(scene_, s.rig->ordered(cam), cam, *s.target);
        } else {
            scene_.setStaticGlow();
            s.target->bind();
            scene_.draw(cam);
        }
        if (timer) timer->endFrame();
    }

    void sidePanel(const char* title, Side& s) {
        ImGui::PushID(title);
        ImGui::TextUnformatted(title);
        int idx = 0;
        const auto list = render::strategies();
        for (size_t i = 0; i < list.size(); ++i)
            if (list[i].name == s.strategy) idx = static_cast<int>(i);
        if (ImGui::BeginCombo("strategy", s.strategy.c_str())) {
            for (size_t i = 0; i < list.size(); ++i)
                if (ImGui::Selectable(std::string(list[i].name).c_str(), static_cast<int>(i) == idx))
                    s.strategy = list[i].name;
            ImGui::EndCombo();
        }
        render::visitRenderOptions(s.options, SettingEditor{});
        if (ImGui::TreeNode("fire model and grid fluid")) {
            SettingEditor editor;
            fluid::visitFluidParams(s.fluid, editor);
            ImGui::TreePop();
        }
        if (!s.error.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "unavailable: %s", s.error.c_str());
        ImGui::PopID();
    }

    void drawUi(int w, int h) {
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        if (panel_) panelWindow(h);
        sideLabels(w, h);
        if (help_) helpWindow(w, h);
    }

    // The panel's width at start: 380 px, less in a small window (at most 40 % of it), so that the fire shows.
    float panelWidth() const {
        int w = 1, h = 1;
        SDL_GetWindowSize(context_.window(), &w, &h);
        return std::min(380.0f, 0.4f * static_cast<float>(w));
    }

    // The window on the left: a collapsing header per section.
    void panelWindow(int h) {
        ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(panelWidth(), static_cast<float>(h) - 16), ImGuiCond_FirstUseEver);
        ImGui::Begin("firelab");
        ImGui::TextDisabled("H hides this panel, F1 help");
        modelPanels();
        if (ImGui::CollapsingHeader("Layers", ImGuiTreeNodeFlags_DefaultOpen)) layersPanel();
        if (ImGui::CollapsingHeader("Rendering", ImGuiTreeNodeFlags_DefaultOpen)) renderingPanel();
        if (ImGui::CollapsingHeader("Time and camera", ImGuiTreeNodeFlags_DefaultOpen)) timeAndCameraPanel();
        if (ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) statsPanel();
        if (ImGui::CollapsingHeader("Settings file")) settingsFilePanel();
        ImGui::End();
    }

    // The run's model, a panel per section of sim::visitParams: every layer that does not set a
    // parameter itself follows it.
    void modelPanels() {
        for (const auto& panel : sim::paramSections()) {
            const bool first = &panel == &sim::paramSections().front();
            if (!ImGui::CollapsingHeader(panel.title.c_str(), first ? ImGuiTreeNodeFlags_DefaultOpen : 0)) continue;
            ParamEditor e{panel.title};
            sim::visitParams(settings_.params, e);
            if (e.changed) fireDirty_ = true;
        }
        if (!modelError_.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", modelError_.c_str());
    }

    void renderingPanel() {
        sidePanel("A (left)", a_);
        ImGui::Checkbox("A/B split (Tab)", &split_);
        if (split_) sidePanel("B (right)", b_);
        ImGui::SliderFloat("resolution scale", &resolutionScale_, 0.25f, 1.0f, "%.2f");
        if (ImGui::Checkbox("vsync", &vsync_)) context_.setVsync(vsync_);
    }

    void timeAndCameraPanel() {
        ImGui::Checkbox("paused (Space)", &paused_);
        ImGui::SameLine();
        if (ImGui::Button("step (.)")) stepOnce_ = true;
        // Scrubbing re-simulates from 0 (the state at t is a function of t), once the slider is released.
        if (!scrubbing_) scrubTime_ = static_cast<float>(time());
        if (ImGui::SliderFloat("time", &scrubTime_, 0.0f, 60.0f, "%.2f s")) scrubbing_ = paused_ = true;
        if (ImGui::IsItemDeactivatedAfterEdit()) {
            steps_ = std::lround(scrubTime_ / settings_.dt);  // the sides re-simulate to it
            scrubbing_ = false;
        }
        if (bool run = scripted_; ImGui::Checkbox("run's camera", &run)) {
            if (run)
                resetCamera();
            else
                takeFreeCamera();
        }
        tip("the view --camera sets (orbit, fixed or a keyframe path); off: the free camera the mouse drags");
        ImGui::SameLine();
        if (ImGui::Button("reset camera (R)")) resetCamera();
        SettingEditor e;
        harness::visitCameraSettings(settings_.camera, e);
        if (!e.edited.empty()) reloadView();
        ImGui::InputText("keyframe file", keyframePath_, sizeof keyframePath_);
        if (ImGui::Button("save view as keyframe (K)")) saveKeyframe();
        tip("appends this view and time as a [[key]] of a camera path file");
        if (!cameraMessage_.empty()) ImGui::TextWrapped("%s", cameraMessage_.c_str());
    }

    // Side A's frame times, its CPU stages, its particles and (when asked) its overdraw.
    void statsPanel() {
        ImGui::PlotLines("frame ms", frameMs_.data(), static_cast<int>(frameMs_.size()),
                         static_cast<int>(frameIndex_ % frameMs_.size()), nullptr, 0.0f, FLT_MAX, ImVec2(0, 60));
        ImGui::Text("A: sim %.2f ms  light %.2f ms  upload %.2f ms  GPU %.2f ms%s", simMs_, lightMs_, uploadMs_, gpuMs_,
                    context_.info().timerQueriesMeaningful ? "" : " (not measured on llvmpipe)");
        ImGui::Text("alive %zu  (A draws %zu in %zu layers)", a_.rig ? a_.rig->stack().alive() : size_t{0},
                    a_.rig ? a_.rig->stack().drawnCount() : size_t{0}, a_.rig ? a_.rig->stack().size() : size_t{0});
        viewCensusLine();
        fluidLine("A", a_);
        if (split_) fluidLine("B", b_);
        ImGui::Checkbox("measure overdraw of A", &measureOverdraw_);
        if (measureOverdraw_)
            ImGui::Text("overdraw: mean %.1f  max %.0f fragments/px, %.1f%% covered", overdrawMean_, overdrawMax_,
                        100.0 * overdrawCovered_);
    }

    // A side's grid fluid (--model fluid): its grid, device, solver and last step, per pass.
    void fluidLine(const char* side, const Side& s) {
        const fluid::FluidSim* f = s.rig ? s.rig->stack().fluid() : nullptr;
        if (f == nullptr) return;
        const fluid::StepStats& st = f->lastStep();
        const glm::ivec3 n = f->params().grid;
        ImGui::Text("%s fluid %dx%dx%d on the %s, %s: %d iterations, residual %.2g, %d sub-steps", side, n.x, n.y, n.z,
                    std::string(f->device()).c_str(),
                    std::string(fluid::kSolverNames[static_cast<size_t>(f->params().solver)]).c_str(), st.iterations,
                    st.divergenceBefore > 0 ? st.divergenceAfter / st.divergenceBefore : 0.0, st.substeps);
        std::string passes;
        for (size_t p = 0; p < st.ms.size(); ++p) {
            char item[64];
            std::snprintf(item, sizeof item, "%s%s %.1f", p ? ", " : "", std::string(fluid::kPassNames[p]).c_str(),
                          st.ms[p]);
            passes += item;
        }
        ImGui::Text("  ms: %s", passes.c_str());
    }

    // What the view makes of side A's fire (render/particles/view_census.h), as runs record it; side A's
    // CPU pool only (a GPU-simulated strategy's census would replay its model every frame).
    void viewCensusLine() {
        if (!a_.rig || a_.rig->stack().gpuSimulated()) return;
        int w = 1, h = 1;
        SDL_GetWindowSize(context_.window(), &w, &h);
        const render::Camera cam = camera(w, h);
        const float largest = context_.info().pointSizeMax;
        const render::ViewCensus c = a_.rig->census(cam, largest);
        ImGui::Text("view: fire %.0f px, %.1f%% behind the camera, %.1f%% of points over %.0f px (clamped)",
                    render::firePixels(c, cam), 100.0 * c.behindFraction(), 100.0 * c.clampedFraction(),
                    static_cast<double>(largest));
    }

    void settingsFilePanel() {
        ImGui::InputText("file", configPath_, sizeof configPath_);
        if (ImGui::Button("save")) saveSettings();
        ImGui::SameLine();
        if (ImGui::Button("load")) loadSettings();
        if (!fileMessage_.empty()) ImGui::TextWrapped("%s", fileMessage_.c_str());
    }

    // A side's label: its strategy, and under --model fluid the grid, its device and the solver.
    static std::string label(const char* side, const Side& s) {
        std::string text = std::string(side) + ": " + s.strategy;
        if (s.fluid.model != fluid::Model::Fluid) return text;
        const glm::ivec3 n = s.fluid.grid;
        return text + " (fluid " + std::to_string(n.x) + "x" + std::to_string(n.y) + "x" + std::to_string(n.z) + " " +
               std::string(fluid::kDeviceNames[static_cast<size_t>(s.fluid.device)]) + " " +
               std::string(fluid::kSolverNames[static_cast<size_t>(s.fluid.solver)]) +
               (s.fluid.motion == fluid::Motion::Fluid ? ", particles carried" : "") + ")";
    }

    // Over the picture: each side's strategy, or why it is unavailable, and the divider of the split.
    void sideLabels(int w, int h) {
        auto* fg = ImGui::GetForegroundDrawList();
        float rightOfPanel = panel_ ? panelWidth() + 20.0f : 8.0f;
        if (split_) {
            const float x = divider_ * static_cast<float>(w);
            // A's label left of the divider, never under B's (a small window's panel reaches past the divider).
            const float widthA = ImGui::CalcTextSize(label("A", a_).c_str()).x;
            rightOfPanel = std::max(8.0f, std::min(rightOfPanel, x - widthA - 12.0f));
            fg->AddLine(ImVec2(x, 0), ImVec2(x, static_cast<float>(h)), IM_COL32(255, 255, 255, 200), 2.0f);
            fg->AddText(ImVec2(x + 8, 8), IM_COL32_WHITE, label("B", b_).c_str());
            if (!b_.error.empty())
                fg->AddText(ImVec2(x + 8, 28), IM_COL32(255, 110, 90, 255),
                            ("strategy unavailable: " + b_.error).c_str());
        }
        fg->AddText(ImVec2(rightOfPanel, 8), IM_COL32_WHITE, label("A", a_).c_str());
        if (!a_.error.empty())
            fg->AddText(ImVec2(rightOfPanel, 28), IM_COL32(255, 110, 90, 255),
                        ("strategy unavailable: " + a_.error).c_str());
    }

    void helpWindow(int w, int h) {
        ImGui::SetNextWindowPos(ImVec2(static_cast<float>(w) * 0.5f, static_cast<float>(h) * 0.5f), ImGuiCond_Always,
                                ImVec2(0.5f, 0.5f));
        ImGui::Begin("help (F1)", &help_, ImGuiWindowFlags_AlwaysAutoResize);
        ImGui::TextUnformatted(
            "Space  pause / resume\n.      single step\nS      screenshot (PNG in the working folder)\n"
            "Tab    A/B split on / off\nH      hide / show the panel\nR      reset camera\nK      save the view as a keyframe (the keyframe file)\n"
            "F1     this help\nEsc    quit\n"
            "mouse: drag to orbit, wheel to zoom, drag the divider to move it");
        ImGui::End();
    }

    void syncLayerName() { std::snprintf(layerName_, sizeof layerName_, "%s", editor_.selectedLayer().name.c_str()); }

    // The effect's layers (harness::EffectEditor is the model; this is its view): the list, add, copy,
    // remove, rename; the selected layer's overrides of the model and of the layer render options; the
    // effect file. An edit moves the editor's revision, which rebuilds the sides' rigs.
    void layersPanel() {
        ImGui::PushID("layers");
        fireLightSlider();
        layerList();
        layerButtons();
        if (ImGui::TreeNodeEx("edit", ImGuiTreeNodeFlags_DefaultOpen, "edit layer '%s'",
                              editor_.selectedLayer().name.c_str())) {
            layerEditors();
            overridesList();
            ImGui::TreePop();
        }
        effectFileButtons();
        editorMessage();
        ImGui::PopID();
    }

    void fireLightSlider() {
        if (ImGui::SliderInt("fire light", &settings_.fireLight, 0, harness::kMaxFireLights)) fireDirty_ = true;
        tip("point lights fitted each frame to the additive layers' light, lighting the scene; 0: a static glow");
    }

    // The effect's layers with their override counts; a click selects one.
    void layerList() {
        const float rows = static_cast<float>(std::min<size_t>(editor_.size(), 6) + 1);
        if (!ImGui::BeginListBox("##list", ImVec2(-FLT_MIN, rows * ImGui::GetTextLineHeightWithSpacing()))) return;
        for (size_t i = 0; i < editor_.size(); ++i) {
            const auto& l = editor_.layer(i);
            const std::string label =
                l.name + "  (" + std::to_string(l.settings.size()) + " overrides)##" + std::to_string(i);
            if (ImGui::Selectable(label.c_str(), i == editor_.selected())) {
                editor_.select(i);
                syncLayerName();
            }
        }
        ImGui::EndListBox();
    }

    // Add, copy, remove and rename the selected layer.
    void layerButtons() {
        if (ImGui::Button("add")) editor_.add(), syncLayerName();
        tip("a new layer without overrides: it follows the run's model and options");
        ImGui::SameLine();
        if (ImGui::Button("copy")) editor_.duplicate(), syncLayerName();
        tip("a copy of the selected layer");
        ImGui::SameLine();
        if (ImGui::Button("remove")) editor_.remove(), syncLayerName();
        ImGui::SetNextItemWidth(160);
        const bool entered =
            ImGui::InputText("##name", layerName_, sizeof layerName_, ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::SameLine();
        if (ImGui::Button("rename") || entered) editor_.rename(layerName_);
        tip("1 to 64 letters, digits, '.', '_' or '-'; names differ");
    }

    // The selected layer's settings (side A's run with the layer's overrides) in the look and model
    // editors: each value edited becomes an override of the layer.
    void layerEditors() {
        const harness::RunSettings run = runFor(a_);
        harness::RunSettings shown = shownLayerSettings(run);
        std::vector<std::string> edited;
        if (ImGui::TreeNode("look")) {
            SettingEditor e{.layerOnly = true};
            render::visitRenderOptions(shown.render, e);
            edited.insert(edited.end(), e.edited.begin(), e.edited.end());
            ImGui::TreePop();
        }
        for (const auto& panel : sim::paramSections()) {
            if (!ImGui::TreeNode(panel.title.c_str())) continue;
            ParamEditor e{panel.title};
            sim::visitParams(shown.params, e);
            edited.insert(edited.end(), e.edited.begin(), e.edited.end());
            ImGui::TreePop();
        }
        for (const auto& key : edited) editor_.set(key, harness::settingText(shown, key), run);
    }

    // What the selected layer draws with; the run's settings, under the error, when the layer holds a
    // value the run's settings no longer allow.
    harness::RunSettings shownLayerSettings(const harness::RunSettings& run) {
        try {
            return editor_.layerSettings(run);
        } catch (const Error& e) {
            ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", e.what());
            return run;
        }
    }

    // The selected layer's overrides, each with a button that drops it.
    void overridesList() {
        const auto& overrides = editor_.selectedLayer().settings;
        ImGui::TextDisabled("%s", overrides.empty() ? "no overrides: all the run's" : "overrides (x: the run's again)");
        std::string drop;
        for (const auto& [key, value] : overrides) {
            ImGui::PushID(key.c_str());
            if (ImGui::SmallButton("x")) drop = key;
            ImGui::SameLine();
            ImGui::TextWrapped("%s = %s", key.c_str(), value.c_str());
            ImGui::PopID();
        }
        if (!drop.empty()) editor_.unset(drop);
    }

    // The effect file: its path, save and load.
    void effectFileButtons() {
        ImGui::InputText("effect file", effectPath_, sizeof effectPath_);
        if (ImGui::Button("save effect")) {
            editor_.setPath(effectPath_);
            if (editor_.save()) settings_.effect = effectPath_;  // a saved settings file names it
        }
        ImGui::SameLine();
        if (ImGui::Button("load effect") && editor_.load(effectPath_)) {
            settings_.effect = editor_.path().string();
            std::snprintf(effectPath_, sizeof effectPath_, "%s", editor_.path().c_str());
            syncLayerName();
        }
    }

    // What the last layer or file action did, or why it was refused.
    void editorMessage() {
        if (editor_.message().empty()) return;
        if (!editor_.ok()) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.3f, 1));
        ImGui::TextWrapped("%s", editor_.message().c_str());
        if (!editor_.ok()) ImGui::PopStyleColor();
    }

    void resetCamera() { scripted_ = true; }
    // The mouse takes the camera: the free camera starts from the run's view now, so nothing jumps.
    void takeFreeCamera() {
        if (!scripted_) return;
        scripted_ = false;
        const render::CameraKey k = runCamera_.keyAt(time());
        const glm::vec3 d = k.eye - settings_.camera.target;
        distance_ = std::clamp(glm::length(d), 0.05f, 100.0f);
        azimuth_ = std::atan2(d.z, d.x);
        elevation_ = std::clamp(std::asin(std::clamp(d.y / distance_, -1.0f, 1.0f)), -1.5f, 1.5f);
    }

    void handleEvents() {
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            ImGui_ImplSDL2_ProcessEvent(&e);
            const ImGuiIO& io = ImGui::GetIO();
            if (e.type == SDL_QUIT) running_ = false;
            if (e.type == SDL_KEYDOWN && !io.WantCaptureKeyboard) onKey(e.key.keysym.sym);
            if (!io.WantCaptureMouse) onMouse(e);
        }
    }

    void onKey(SDL_Keycode key) {
        switch (key) {
        case SDLK_SPACE: paused_ = !paused_; break;
        case SDLK_PERIOD: stepOnce_ = true, paused_ = true; break;
        case SDLK_s: screenshotRequested_ = true; break;
        case SDLK_TAB: split_ = !split_; break;
        case SDLK_h: panel_ = !panel_; break;
        case SDLK_r: resetCamera(); break;
        case SDLK_k: saveKeyframe(); break;
        case SDLK_F1: help_ = !help_; break;
        case SDLK_ESCAPE: running_ = false; break;
        default: break;
        }
    }

    // A left drag orbits the camera, or moves the divider when it starts on it; the wheel zooms.
    void onMouse(const SDL_Event& e) {
        int w = 1;
        SDL_GetWindowSize(context_.window(), &w, nullptr);
        if (e.type == SDL_MOUSEBUTTONDOWN && e.button.button == SDL_BUTTON_LEFT) {
            draggingDivider_ = split_ && std::abs(e.button.x - static_cast<int>(divider_ * static_cast<float>(w))) < 8;
            dragging_ = !draggingDivider_;
        } else if (e.type == SDL_MOUSEBUTTONUP) {
            dragging_ = draggingDivider_ = false;
        } else if (e.type == SDL_MOUSEMOTION) {
            if (draggingDivider_)
                divider_ = std::clamp(static_cast<float>(e.motion.x) / static_cast<float>(w), 0.02f, 0.98f);
            if (dragging_) {
                takeFreeCamera();
                azimuth_ += static_cast<float>(e.motion.xrel) * 0.01f;
                elevation_ = std::clamp(elevation_ + static_cast<float>(e.motion.yrel) * 0.01f, -1.5f, 1.5f);
            }
        } else if (e.type == SDL_MOUSEWHEEL) {
            takeFreeCamera();
            distance_ = std::clamp(distance_ * std::pow(0.9f, static_cast<float>(e.wheel.y)), 0.05f, 100.0f);
        }
    }

    // Throws when `required` (--screenshot); else the error is shown in the settings panel and on stderr.
    void saveScreenshot(const std::string& file, int w, int h, bool required) {
        image::Image img(w, h);
        std::vector<uint8_t> rows(img.pixels.size());
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
        const size_t row = static_cast<size_t>(w) * 4;
        for (int y = 0; y < h; ++y)
            std::memcpy(&img.pixels[static_cast<size_t>(y) * row], &rows[static_cast<size_t>(h - 1 - y) * row], row);
        for (size_t i = 3; i < img.pixels.size(); i += 4) img.pixels[i] = 255;
        try {
            image::writePng(file, img);
            fileMessage_ = "screenshot: " + file;
        } catch (const Error& e) {
            if (required) throw;
            fileMessage_ = e.what();
        }
        std::fprintf(stderr, "firelab view: %s\n", fileMessage_.c_str());
    }

    void saveSettings() {
        harness::RunSettings s = settings_;
        s.strategy = a_.strategy;
        s.render = a_.options;
        s.fluid = a_.fluid;
        try {
            core::AtomicFile f(configPath_);
            f.stream() << harness::runSettingsToml(s);
            f.commit();
            fileMessage_ = std::string("saved ") + configPath_ + " (firelab run --config accepts it)";
        } catch (const Error& e) {
            fileMessage_ = e.what();
        }
    }

    void loadSettings() {
        try {
            harness::RunSettings s = harness::loadRunSettings(configPath_);
            harness::EffectEditor effect(harness::defaultEffect(), effectPath_);  // none named: the single flame
            if (!s.effect.empty() && !effect.load(s.effect)) throw Error(ErrorCode::BadFile, effect.message());
            settings_ = std::move(s);
            editor_ = std::move(effect);
            std::snprintf(effectPath_, sizeof effectPath_, "%s", editor_.path().c_str());
            syncLayerName();
            a_.strategy = settings_.strategy;
            a_.options = settings_.render;
            a_.fluid = settings_.fluid;
            reloadView();
            fireDirty_ = true;
            fileMessage_ = std::string("loaded ") + configPath_;
        } catch (const Error& e) {
            fileMessage_ = e.what();
        }
    }

    ViewerOptions o_;
    gl::Context context_;
    render::Scene scene_;
    harness::RunSettings settings_;
    harness::EffectEditor editor_;  // the effect the sides draw, as edited
    long steps_ = 0;                // the simulation's step: its time over dt
    uint64_t modelRevision_ = 0;    // moves when the run's model or fire light changes
    Side a_, b_;
    render::PassTimer timer_;
    bool running_ = true, paused_ = false, stepOnce_ = false, split_ = false, vsync_ = true, help_ = false;
    bool panel_ = true;
    bool scripted_ = true, dragging_ = false, draggingDivider_ = false, fireDirty_ = false;
    bool screenshotRequested_ = false, measureOverdraw_ = false, scrubbing_ = false;
    float scrubTime_ = 0.0f;
    float divider_ = 0.5f, resolutionScale_ = 1.0f, azimuth_ = 0.35f, elevation_ = 0.19f, distance_ = 3.3f;
    double simMs_ = 0, lightMs_ = 0, uploadMs_ = 0, gpuMs_ = 0, overdrawMean_ = 0, overdrawMax_ = 0,
           overdrawCovered_ = 0;
    std::array<float, 240> frameMs_{};
    size_t frameIndex_ = 0;
    // Paths as long as the system takes them (PATH_MAX): a longer effect path was saved to a truncated one.
    char configPath_[PATH_MAX] = "firelab-view.toml";
    char effectPath_[PATH_MAX] = "";
    char layerName_[128] = "";
    std::string modelError_, fileMessage_;
    harness::RunCamera runCamera_;  // the run's view, as last edited and read
    char keyframePath_[PATH_MAX] = "camera-path.toml";
    std::string cameraMessage_;
};

}  // namespace

int runViewer(const ViewerOptions& options) {
    Viewer viewer(options);
    return viewer.run();
}

}  // namespace firelab::app

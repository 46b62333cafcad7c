// The fire model's parameters: one plain struct with defaults that make a convincing fire.
// The CLI, experiment files and the viewer all fill this struct through visitParams(), so every
// parameter has one name, one help line and one valid range, wherever it is set.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/setting.h"
#include "core/text.h"

namespace firelab::sim {

// Each enum ends in Count and its names table has one name per value (checked at compile time).
enum class EmitterShape { Rect, Circle, Sphere, Ring, Count };
enum class Distribution { Uniform, Normal, Count };
enum class Ground { Off, Bounce, Stage, Count };
enum class ColorModel { Gradient, Blackbody, Grid, Count };
enum class DragOn { Velocity, Launch, Count };
enum class SizeUnit { Metres, Pixels, Count };

inline constexpr auto kEmitterShapeNames = std::to_array<std::string_view>({"rect", "circle", "sphere", "ring"});
inline constexpr auto kDistributionNames = std::to_array<std::string_view>({"uniform", "normal"});
inline constexpr auto kGroundNames = std::to_array<std::string_view>({"off", "bounce", "stage"});
inline constexpr auto kColorModelNames = std::to_array<std::string_view>({"gradient", "blackbody", "grid"});
inline constexpr auto kDragOnNames = std::to_array<std::string_view>({"velocity", "launch"});
inline constexpr auto kSizeUnitNames = std::to_array<std::string_view>({"m", "px"});
static_assert(core::namesEveryValue<EmitterShape>(kEmitterShapeNames));
static_assert(core::namesEveryValue<Distribution>(kDistributionNames));
static_assert(core::namesEveryValue<Ground>(kGroundNames));
static_assert(core::namesEveryValue<ColorModel>(kColorModelNames));
static_assert(core::namesEveryValue<DragOn>(kDragOnNames));
static_assert(core::namesEveryValue<SizeUnit>(kSizeUnitNames));

// One key of the colour-over-life gradient: normalised age t in [0, 1] and linear RGBA in [0, 1].
struct ColorKey {
    float t = 0.0f;
    glm::vec4 rgba{1.0f};
};

// A named gradient (--gradient NAME): paper, FireParams' default (white through yellow to red); nvidia, NVIDIA's
// particle shader's (../shared/seeds/002): red 1, green (1 - t)^2 so that yellow turns red, blue 0, alpha 1 - t,
// its green's parabola in kNvidiaGradientKeys straight pieces (within 1/(2 (keys - 1)^2) of it). Empty: no such preset.
inline constexpr auto kGradientPresetNames = std::to_array<std::string_view>({"paper", "nvidia"});
inline constexpr int kNvidiaGradientKeys = 9;
std::vector<ColorKey> gradientPreset(std::string_view name);

struct FireParams {
    // Emitter. Rect and circle lie in the xz plane and emit upward (+y) within a cone of half-angle
    // coneAngleDeg; the sphere emits radially outward. Rect uses extent as its half-sizes (the paper's
    // VarArea per axis: a box, or the flat rectangle with extent.y = 0), circle and sphere use extent.x
    // as the radius. The ring (the D3D9 tutorial's FireRing) emits from the circle's edge, radius extent.x,
    // every particle outwards on the cone's surface: tilted coneAngleDeg from +y towards its own azimuth.
    EmitterShape shape = EmitterShape::Circle;
    Distribution distribution = Distribution::Normal;
    glm::vec3 center{0.0f, 0.0f, 0.0f};
    glm::vec3 extent{0.35f, 0.0f, 0.35f};
    float sigma = 0.4f;          // normal distribution: standard deviation as a fraction of the extent
    float coneAngleDeg = 12.0f;  // ejection cone half-angle (rect, circle); the ring's tilt from +y
    // The emitter's world rotation (the D3D9 system's world matrix), degrees about the world's x, then
    // y, then z axis through the centre: it turns the region and the emission directions (and the
    // initial velocity), not the world-space acceleration.
    glm::vec3 rotationDeg{0.0f};
    // The emitter's path (an animated world transform: a torch carried about): at time t the centre is
    // center + pathAmplitude * (sin 2pi fx t, sin 2pi fy t, cos 2pi fz t), f = pathFrequency (Hz). A
    // particle is born where the emitter is at its birth and does not follow it afterwards.
    glm::vec3 pathAmplitude{0.0f};
    glm::vec3 pathFrequency{0.0f};

    // Motion. Speed is drawn as mean + rand[-1,1]*var per axis in the emission frame (+y along the
    // emission direction); acceleration likewise in world space (buoyancy is +y).
    glm::vec3 speedMean{0.0f, 0.9f, 0.0f};
    glm::vec3 speedVar{0.15f, 0.35f, 0.15f};
    glm::vec3 accelMean{0.0f, 1.1f, 0.0f};
    glm::vec3 accelVar{0.1f, 0.4f, 0.1f};
    float drag = 1.2f;  // 1/s: velocity decays as exp(-drag*t)
    // What the drag slows. Velocity: the whole velocity, dv/dt = a - drag v (a terminal speed a / drag).
    // Launch (NVIDIA's particle shader, seeds/002): only what the particle was launched with (and the turbulence's
    // push), the acceleration integrated undamped: v = a age + u, du/dt = -drag u, so p = p0 + v0 (1 - e^-drag t)
    // / drag + a t^2 / 2 with neither turbulence nor bounce. A bounce reflects the whole velocity; its launched part
    // is then what is not a age.
    DragOn dragOn = DragOn::Velocity;
    float turbulence = 1.6f;           // strength of the curl-noise field, m/s^2
    float turbulenceFrequency = 2.2f;  // spatial frequency of the field, 1/m
    float turbulenceSpeed = 1.5f;      // how fast the field evolves, 1/s (the sway)

    // Ground plane (NVIDIA's particle shader): with Bounce, no particle goes below y = groundHeight. One
    // that crosses it bounces: the normal speed after is restitution x the speed before, the tangential
    // speed loses the fraction friction. Births below the plane start on it. With Stage the particles bounce the
    // same way on the stage's logs and stone too (sim/stage.h, as the scene draws them: sim/ground.h on the CPU,
    // the scene's depth buffer in the compute strategy).
    Ground ground = Ground::Off;
    float groundHeight = 0.0f;  // m
    float restitution = 0.5f;
    float friction = 0.0f;

    // Life and appearance.
    float lifetimeMean = 1.2f;  // s
    float lifetimeVar = 0.4f;   // s, uniform +-
    float sizeStart = 0.22f;    // m, quad edge at birth
    float sizeEnd = 0.06f;      // m, at death
    float sizeVar = 0.25f;      // relative, uniform +- on the per-particle scale
    // What the sizes measure. Metres: the sprite's edge in the world. Pixels (the D3D9 tutorial's point sprites,
    // seeds/000: PSIZE without point scaling): its edge on screen, in pixels of the frame, whatever its distance;
    // the renderers turn it into metres at the particle's view depth (render::spriteWorldSize).
    SizeUnit sizeUnit = SizeUnit::Metres;
    float colorVar = 0.0f;  // relative, uniform +- per channel on the gradient's colour (sim/look.h)
    // NVIDIA's fog by bounce number (seeds/002: fog 1 - bounce / 3): the rgb times max(0, 1 - bounces / bounceFog),
    // toward black, its fog colour here (an ember dimming as each landing cools it); 0: off.
    float bounceFog = 0.0f;
    // The sprite's turn in its plane (sim/look.h): rotationVarDeg + (spinDeg + spinVarDeg) * age, each
    // variance uniform +- per particle.
    float rotationVarDeg = 0.0f;  // initial angle, degrees
    float spinDeg = 0.0f;         // mean spin, degrees per second (positive: counter-clockwise as seen)
    float spinVarDeg = 0.0f;      // degrees per second
    // Alphas stay well below 1: a flame is hundreds of overlapping particles (overdraw ~100 at the
    // defaults), so each contributes little and the core still saturates to white.
    std::vector<ColorKey> gradient{
        {0.00f, {1.00f, 0.97f, 0.92f, 0.30f}},  // white core
        {0.18f, {1.00f, 0.75f, 0.20f, 0.26f}},  // yellow
        {0.50f, {0.90f, 0.28f, 0.04f, 0.16f}},  // red
        {1.00f, {0.10f, 0.02f, 0.01f, 0.00f}},  // dark, faded out
    };
    // Where the rgb comes from (sim/look.h, colorOf). Gradient: the gradient's. Blackbody: a blackbody's
    // radiance (sim/blackbody.h) at the particle's temperature, which cools linearly over normalised age from
    // temperature.x (START, at birth) to temperature.y (END, at death), offset per particle by a uniform
    // +-temperatureVar; its luminance is in physical proportion to the luminance at temperatureRef (0: START),
    // which is 1. The gradient's alpha still fades the particle over its life in both.
    ColorModel color = ColorModel::Gradient;
    // The paper's colour by position in the flame (seeds/003: white at the core, yellow, red at the outer flame):
    // the rgb is the colour model's at mix(t, s, colorPosition) instead of at the normalised age t, where s is the
    // particle's place in the flame, 0 at its base's centre and 1 on an ellipsoid flameRadius wide and flameHeight
    // tall (sim/look.h, colorCoordinate). The alpha stays the age's. 0: by age alone.
    float colorPosition = 0.0f;
    float flameRadius = 0.0f;                 // m; 0: the emitter's radius (half-width)
    float flameHeight = 0.0f;                 // m; 0: the mean particle's height at the end of its life
    glm::vec2 temperature{2000.0f, 1200.0f};  // K, START:END
    float temperatureVar = 0.0f;              // K, uniform +- per particle
    float temperatureRef = 0.0f;              // K, luminance 1; 0: START
    // The fire's power, kW, where --heat-release set it (physics/physical_fire.h); 0: not given. Not drawn on by the
    // particles: it is what a grid fluid's burner releases under --combustion mixing.
    float heatRelease = 0.0f;

    // Emission. Without a rate, particles is the steady-state count: rate = particles / lifetimeMean.
    // With one (D3D9's timePerParticle = 1 / rate), particles is the most alive at once (D3D9's fixed
    // pool): a birth that finds it full is dropped.
    uint32_t particles = 20000;
    float rate = 0.0f;         // particles/s; 0: particles / lifetimeMean
    uint32_t burst = 0;        // particles emitted at once on the first step
    float burstPeriod = 0.0f;  // s: the burst repeats this often (an explosion that goes off again); 0: once
    uint64_t seed = 1;
};

// Parameter names and bounds, for validation and every front end. A visitor provides (attrs: core::SettingAttr
// bits, kColumn for the parameters runs.csv has a column for):
//   void scalar(std::string_view name, float& v, float lo, float hi, std::string_view help, unsigned attrs = 0);
//   void count(std::string_view name, uint32_t& v, uint32_t lo, uint32_t hi, std::string_view help, unsigned attrs = 0);
//   void seed(std::string_view name, uint64_t& v, std::string_view help, unsigned attrs = 0);
//   void vec3(std::string_view name, glm::vec3& v, float lo, float hi, std::string_view help, unsigned attrs = 0);
//   template <class E, size_t N> void choice(std::string_view name, E& v,
//                                            const std::array<std::string_view, N>& names, help, unsigned attrs = 0);
//   void gradient(std::string_view name, std::vector<ColorKey>& keys, std::string_view help, unsigned attrs = 0);
//   void span(std::string_view name, glm::vec2& v, float lo, float hi, std::string_view help, unsigned attrs = 0);
// (a span is two numbers START:END, each in (lo, hi]: a quantity that changes over a particle's life)
// and, if it groups them (the viewer's panels), section(std::string_view title) before each group.
inline constexpr uint32_t kMaxParticles = 50'000'000;
inline constexpr float kMaxTemperature = 50000.0f;  // K: the temperatures allowed are (0, kMaxTemperature]

template <class P, class V>
void visitParams(P& p, V&& v) {
    core::section(v, "Emitter");
    v.choice("emitter", p.shape, kEmitterShapeNames,
             "emission region: rect | circle | sphere | ring (the circle's edge, outwards at --cone: D3D9's FireRing)",
             core::kColumn);
    v.choice("distribution", p.distribution, kDistributionNames, "position distribution: uniform | normal",
             core::kColumn);
    v.vec3("center", p.center, -1e3f, 1e3f, "emitter centre x,y,z (m)");
    v.vec3("extent", p.extent, 0.0f, 1e3f, "rect half-sizes x,y,z; circle/sphere radius in x (m)");
    v.scalar("sigma", p.sigma, 0.01f, 10.0f, "normal distribution sigma, fraction of the extent");
    v.scalar("cone", p.coneAngleDeg, 0.0f, 90.0f,
             "ejection cone half-angle, degrees (rect, circle); ring: every particle's tilt from +y, outwards");
    v.scalar("rotate-x", p.rotationDeg.x, -360.0f, 360.0f, "emitter rotation about the world x axis, degrees (first)");
    v.scalar("rotate-y", p.rotationDeg.y, -360.0f, 360.0f, "emitter rotation about the world y axis, degrees (second)");
    v.scalar("rotate-z", p.rotationDeg.z, -360.0f, 360.0f, "emitter rotation about the world z axis, degrees (last)");
    v.vec3("path", p.pathAmplitude, 0.0f, 1e3f,
           "emitter path amplitude x,y,z (m): centre + a*(sin, sin, cos)(2 pi f t)");
    v.vec3("path-freq", p.pathFrequency, 0.0f, 100.0f, "emitter path frequency per axis x,y,z (Hz)");
    v.count("particles", p.particles, 1, kMaxParticles, "steady-state particle count (with --rate: the most alive)",
            core::kColumn);
    v.scalar("rate", p.rate, 0.0f, 1e9f,
             "emission rate (particles/s); 0: particles / lifetime; with a rate, "
             "--particles caps the live count");
    v.count("burst", p.burst, 0, kMaxParticles, "particles emitted at once on the first step");
    v.scalar("burst-period", p.burstPeriod, 0.0f, 3600.0f, "the burst repeats every this many seconds (s); 0 = once");
    v.seed("seed", p.seed, "random seed", core::kColumn);
    core::section(v, "Motion");
    v.vec3("speed", p.speedMean, -100.0f, 100.0f, "mean initial velocity in the emission frame x,y,z (m/s)");
    v.vec3("speed-var", p.speedVar, 0.0f, 100.0f, "per-axis variance of the initial velocity (m/s)");
    v.vec3("accel", p.accelMean, -100.0f, 100.0f, "mean acceleration x,y,z (m/s^2)");
    v.vec3("accel-var", p.accelVar, 0.0f, 100.0f, "per-axis variance of the acceleration (m/s^2)");
    v.scalar("drag", p.drag, 0.0f, 100.0f, "velocity damping rate (1/s)");
    v.choice("drag-on", p.dragOn, kDragOnNames,
             "what --drag slows: velocity (all of it: a terminal speed) | launch (the launch velocity only, the "
             "acceleration undamped: NVIDIA's shader)");
    v.scalar("turbulence", p.turbulence, 0.0f, 100.0f, "curl-noise strength (m/s^2)");
    v.scalar("turbulence-freq", p.turbulenceFrequency, 0.0f, 100.0f, "curl-noise spatial frequency (1/m)");
    v.scalar("turbulence-speed", p.turbulenceSpeed, 0.0f, 100.0f, "curl-noise evolution rate (1/s)");
    v.choice(
        "ground", p.ground, kGroundNames,
        "ground plane: off | bounce (particles bounce off y = ground-height) | stage (and off the scene's logs and "
        "stone: exactly on the CPU, against the depth buffer in the compute strategy)");
    v.scalar("ground-height", p.groundHeight, -1e3f, 1e3f, "height y of the ground plane (m)");
    v.scalar("restitution", p.restitution, 0.0f, 1.0f, "normal speed after a bounce, fraction of the speed before");
    v.scalar("friction", p.friction, 0.0f, 1.0f, "tangential speed a bounce takes away, fraction");
    core::section(v, "Appearance");
    v.scalar("lifetime", p.lifetimeMean, 0.01f, 600.0f, "mean particle lifetime (s)");
    v.scalar("lifetime-var", p.lifetimeVar, 0.0f, 600.0f, "lifetime variance, uniform +- (s)");
    v.scalar("size-start", p.sizeStart, 0.0f, 100.0f, "particle size at birth (m, or px with --size-unit px)");
    v.scalar("size-end", p.sizeEnd, 0.0f, 100.0f, "particle size at death (m, or px with --size-unit px)");
    v.scalar("size-var", p.sizeVar, 0.0f, 0.99f, "relative size variance, uniform +-");
    v.choice("size-unit", p.sizeUnit, kSizeUnitNames,
             "what --size-start and --size-end measure: m (the sprite's edge in the world) | px (its edge on screen at "
             "any distance, D3D9's point sprites; not the media strategies)");
    v.gradient("gradient", p.gradient,
               "colour keys t:r:g:b:a,... over normalised age, or a preset: paper (the default) | nvidia (NVIDIA's "
               "shader: red, green (1 - t)^2, alpha 1 - t)");
    v.scalar("color-var", p.colorVar, 0.0f, 1.0f, "per-particle colour variation, relative +- per channel");
    v.scalar("bounce-fog", p.bounceFog, 0.0f, 255.0f,
             "bounces after which a particle's colour has faded to black, by 1/N a bounce (NVIDIA's fog by bounce "
             "number: 3); 0 = off");
    v.choice("color", p.color, kColorModelNames,
             "where the colour comes from: gradient | blackbody (rgb from the temperature, alpha from the gradient) | "
             "grid (blackbody rgb from the temperature of the grid fluid's gas around the particle; needs --model "
             "fluid --motion fluid)");
    v.scalar("color-position", p.colorPosition, 0.0f, 1.0f,
             "colour by place in the flame (the paper's): 0 = by age alone, 1 = by place alone (core white, outer "
             "flame red; alpha still by age)");
    v.scalar("flame-radius", p.flameRadius, 0.0f, 1e3f,
             "--color-position: the flame's radius (m), where the colour is the gradient's end; 0 = the emitter's");
    v.scalar("flame-height", p.flameHeight, 0.0f, 1e3f,
             "--color-position: the flame's height (m) above the emitter; 0 = the mean particle's at the end of its "
             "life");
    v.span("temperature", p.temperature, 0.0f, kMaxTemperature,
           "blackbody: START:END (K), cooling linearly over the particle's life from START to END");
    v.scalar("temperature-var", p.temperatureVar, 0.0f, kMaxTemperature,
             "blackbody: per-particle temperature offset, uniform +- (K), below the cooler end");
    v.scalar("temperature-ref", p.temperatureRef, 0.0f, kMaxTemperature,
             "blackbody: the temperature whose luminance is 1 (K), the others' in proportion; 0 = START");
    v.scalar("rotation-var", p.rotationVarDeg, 0.0f, 180.0f, "sprite's initial angle, uniform +- (degrees)");
    v.scalar("spin", p.spinDeg, -3600.0f, 3600.0f, "sprite's mean spin (degrees/s, counter-clockwise as seen)");
    v.scalar("spin-var", p.spinVarDeg, 0.0f, 3600.0f, "sprite's spin variance, uniform +- (degrees/s)");
}

// Throws firelab::Error (BadValue) naming the parameter, the value and the allowed range.
void validate(const FireParams& p);

// Setting parameters by name from text, as the CLI and experiment files do. Vectors are "x,y,z" (a
// single number sets all three), gradients "t:r:g:b:a,t:r:g:b:a,...". Throws firelab::Error naming
// the parameter: UnknownName for a name that is not a parameter or a choice that is not allowed,
// BadValue for a malformed or out-of-range value.
void setParam(FireParams& p, std::string_view name, std::string_view value);
std::string getParam(const FireParams& p, std::string_view name);
std::vector<std::string> paramNames();
// visitParams's sections (core::section: Emitter, Motion, Appearance) with their parameters, in order;
// every parameter is in one (the viewer has a panel per section).
struct ParamSection {
    std::string title;
    std::vector<std::string> names;
};
const std::vector<ParamSection>& paramSections();


}  // namespace firelab::sim

// Rendering options shared by every strategy and by the frame's passes (scene, low-resolution
// particles, composite, tone map), with their names, help and ranges for the CLI, experiment files and
// viewer: every front end goes through visitRenderOptions(), as the model's do through sim::visitParams.
#pragma once
#include <array>
#include <limits>
#include <string>
#include <string_view>

#include <glm/vec2.hpp>

#include "core/setting.h"

namespace firelab::render {

// Each enum ends in Count and its names table has one name per value (checked at compile time).
enum class Blend { Additive, Alpha, Premultiplied, Count };
enum class Sort { None, BackToFront, Wboit, Moment, Abuffer, Count };
enum class Facing { ViewPlane, Viewpoint, Velocity, Ground, Plane, Count };
enum class ParticleScale { Full, Half, Quarter, Count };
enum class Upsample { Bilinear, NearestDepth, Count };
enum class Hull { Quad, Four, Eight, Count };
enum class Tonemap { Clamp, Reinhard, Aces, Count };
enum class Filter { Trilinear, Bilinear, Nearest, Count };
enum class LayerOrder { Layers, DepthSlices, Count };
enum class VolumeCell { Px4, Px8, Px16, Px32, Count };
enum class VolumeSlices { S32, S64, S128, S256, Count };
enum class FlipbookBlend { None, Linear, Motion, Count };
enum class Lit { None, Vertex, Pixel, Count };
enum class DrawAs { Strategy, Trail, Haze, Count };

inline constexpr auto kBlendNames = std::to_array<std::string_view>({"additive", "alpha", "premultiplied"});
inline constexpr auto kSortNames =
    std::to_array<std::string_view>({"none", "back-to-front", "wboit", "moment", "abuffer"});
inline constexpr auto kFacingNames =
    std::to_array<std::string_view>({"view-plane", "viewpoint", "velocity", "ground", "plane"});
inline constexpr auto kParticleScaleNames = std::to_array<std::string_view>({"1", "0.5", "0.25"});
inline constexpr auto kUpsampleNames = std::to_array<std::string_view>({"bilinear", "nearest-depth"});
inline constexpr auto kHullNames = std::to_array<std::string_view>({"quad", "4", "8"});
inline constexpr auto kTonemapNames = std::to_array<std::string_view>({"clamp", "reinhard", "aces"});
inline constexpr auto kFilterNames = std::to_array<std::string_view>({"trilinear", "bilinear", "nearest"});
inline constexpr auto kLayerOrderNames = std::to_array<std::string_view>({"layers", "depth-slices"});
inline constexpr auto kVolumeCellNames = std::to_array<std::string_view>({"4", "8", "16", "32"});
inline constexpr auto kVolumeSlicesNames = std::to_array<std::string_view>({"32", "64", "128", "256"});
inline constexpr auto kFlipbookBlendNames = std::to_array<std::string_view>({"none", "linear", "motion"});
inline constexpr auto kLitNames = std::to_array<std::string_view>({"none", "vertex", "pixel"});
inline constexpr auto kDrawAsNames = std::to_array<std::string_view>({"strategy", "trail", "haze"});
static_assert(core::namesEveryValue<Blend>(kBlendNames));
static_assert(core::namesEveryValue<Sort>(kSortNames));
static_assert(core::namesEveryValue<Facing>(kFacingNames));
static_assert(core::namesEveryValue<ParticleScale>(kParticleScaleNames));
static_assert(core::namesEveryValue<Upsample>(kUpsampleNames));
static_assert(core::namesEveryValue<Hull>(kHullNames));
static_assert(core::namesEveryValue<Tonemap>(kTonemapNames));
static_assert(core::namesEveryValue<Filter>(kFilterNames));
static_assert(core::namesEveryValue<LayerOrder>(kLayerOrderNames));
static_assert(core::namesEveryValue<VolumeCell>(kVolumeCellNames));
static_assert(core::namesEveryValue<VolumeSlices>(kVolumeSlicesNames));
static_assert(core::namesEveryValue<FlipbookBlend>(kFlipbookBlendNames));
static_assert(core::namesEveryValue<Lit>(kLitNames));
static_assert(core::namesEveryValue<DrawAs>(kDrawAsNames));

// A flipbook atlas's layout: its frames in `rows` rows of `cols` columns, played row by row from the top-left
// cell over the particle's life; 0x0 (off): the sprite is one picture. Written "RxC" or "off".
struct FlipbookLayout {
    int rows = 0, cols = 0;
    explicit operator bool() const { return rows > 0 && cols > 0; }
    int frames() const { return *this ? rows * cols : 1; }
    auto operator<=>(const FlipbookLayout&) const = default;
};
inline constexpr FlipbookLayout kFlameAtlasLayout{4, 4};  // textures/flame_atlas.png, --flipbook's first atlas
inline constexpr int kMaxFlipbookSide = 64;               // rows or columns of an atlas at most
inline std::string flipbookText(const FlipbookLayout& f) {
    return f ? std::to_string(f.rows) + "x" + std::to_string(f.cols) : std::string("off");
}
// --flipbook-blend motion's vectors (a motion atlas beside the colour atlas, render::motionAtlasPath): red and
// green bytes b hold a frame's motion to the next, (b - 128) / 127 * kMotionRange cells along u and v (v up), so
// 128 is still; what moves further is clamped when baked. particle_common.glsl's flipbookMotion() decodes it.
inline constexpr float kMotionRange = 0.5f;

// The order-independent modes (render/frame/order_independent.h): every alpha layer of the frame blended per
// fragment, not in draw order.
inline bool orderIndependent(Sort s) { return s == Sort::Wboit || s == Sort::Moment || s == Sort::Abuffer; }

// A light's value on the display, as the frame's tone mapping shows it (tonemap.frag, the same formulas).
inline float displayedLight(float light, bool hdr, Tonemap tonemap, float exposure) {
    const auto unit = [](float v) { return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; };
    if (!hdr) return unit(light);
    const float c = (light > 0.0f ? light : 0.0f) * exposure;
    switch (tonemap) {
    case Tonemap::Reinhard: return c / (1.0f + c);
    case Tonemap::Aces: return unit((c * (2.51f * c + 0.03f)) / (c * (2.43f * c + 0.59f) + 0.14f));
    default: return unit(c);
    }
}

// The particle pass's size as a fraction of the frame's.
inline float scaleFactor(ParticleScale s) {
    return s == ParticleScale::Full ? 1.0f : s == ParticleScale::Half ? 0.5f : 0.25f;
}
// Whether --camera-fade is on, and a particle's factor at view depth `depth` (shaders/particle_common.glsl's
// cameraFade, the same formula): 0 at NEAR and nearer, 1 at FAR and beyond.
inline bool fadesNearCamera(const glm::vec2& fade) { return fade.y > 0.0f; }
inline float cameraFadeAt(const glm::vec2& fade, float depth) {
    if (!fadesNearCamera(fade)) return 1.0f;
    const float f = (depth - fade.x) / (fade.y - fade.x);
    return f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
}
// The particle pass's size (pixels) for a frame `size` pixels wide or tall: the frame's divided by 1, 2 or
// 4, rounded up.
inline int passSize(int size, ParticleScale s) {
    const int k = s == ParticleScale::Full ? 1 : s == ParticleScale::Half ? 2 : 4;
    const int n = (size + k - 1) / k;
    return n > 1 ? n : 1;
}
// The volume strategy's froxel: its side in pixels of the pass, and the grid's depth slices.
inline int volumeCellPixels(VolumeCell c) { return 4 << static_cast<int>(c); }
inline int volumeSliceCount(VolumeSlices s) { return 32 << static_cast<int>(s); }
// Vertices of a trimmed sprite (4 for the plain quad too).
inline int hullVertices(Hull h) { return h == Hull::Eight ? 8 : 4; }

struct RenderOptions {
    // What draws a layer's particles (render/layers/layer_kind.h): the run's strategy; a ribbon through each one's
    // last positions (trail: sparks' and embers' streaks, the explosion's smoke trails); or a screen-space offset
    // that the frame's haze pass refracts the scene behind the fire by (haze: the air shimmering over a fire).
    // Trail and haze layers are simulated on the CPU whatever the strategy.
    DrawAs drawAs = DrawAs::Strategy;
    float trailSeconds = 0.15f;  // a trail's length: the particle's positions over the last this many seconds
    float trailWidth = 1.0f;     // a trail's width at its head, in the particle's sizes (it narrows to 0 at the tail)
    // A haze particle's deflection at its centre (radians of view angle), times its heat (1 - age / life) and
    // a noise that drifts with time; 0 leaves the frame as it is, bit for bit.
    float hazeStrength = 0.012f;
    Blend blend = Blend::Additive;
    Sort sort = Sort::None;
    Facing facing = Facing::ViewPlane;
    std::string texture = "flame.png";  // under textures/, or a path
    // The sprite is an atlas of frames played over the particle's life (render/particles/particle_material.h):
    // --texture's, or with the default texture textures/flame_atlas.png (4x4).
    FlipbookLayout flipbook;
    // How a flipbook moves from frame to frame: one frame held for its share of the life, then cut (none), the
    // two frames around the particle's age blended by its fraction (linear: Niagara's sub-image blend), or each
    // of the two warped along its motion vectors towards the instant shown before the blend (motion: Unreal's
    // and EmberGen's motion-vector flipbooks; the vectors from the atlas's motion atlas).
    FlipbookBlend flipbookBlend = FlipbookBlend::None;
    // Lit particles (shaders/particle_light.glsl): an alpha or premultiplied layer's colour lit by the fire's
    // fitted lights and the moon, as the scene is, with a sphere's normal per vertex or per pixel. Additive
    // layers emit their light and ignore it.
    Lit lit = Lit::None;
    // Multiplies the light of a textured layer's particles (their colour's rgb, unclipped): a baked flipbook's
    // light_scale (firelab bake), whose atlas holds its light divided by it.
    float spriteGain = 1.0f;
    float velocityStretch = 0.35f;  // velocity facing: extra length per m/s, in sizes
    // Multiplies every particle's alpha (its emitted light, for additive blending): the harness sets it
    // to (reference count / run count) for --energy-preserving, so fewer particles emit the same light.
    float alphaScale = 1.0f;
    // Skip, on the CPU before upload, the particles wholly behind the camera's near plane (they cannot reach
    // the screen: the picture is the same). Off only to check that it is (tests, benchmarks).
    bool cullBehind = true;
    // Skip, before upload, a CPU-simulated layer whose particles' bounding box (their centres' box widened by
    // the largest sprite's half-diagonal) lies wholly outside the view: the D3D9 tutorial's AABB, which it
    // computed and never used to cull. The picture is the same; off only to check that it is (tests).
    bool cullBox = true;
    // Draw only the particles whose view depth lies in [sliceNear, sliceFar) (render/frame/layer_stack.h's
    // depth-sliced order sets it per slice); the whole depth range otherwise. Not an option.
    float sliceNear = -std::numeric_limits<float>::infinity();
    float sliceFar = std::numeric_limits<float>::infinity();

    // Fill rate: the particle pass's resolution and how it returns to the frame's (GPU Gems 3 ch. 23).
    ParticleScale particleScale = ParticleScale::Full;
    Upsample upsample = Upsample::NearestDepth;
    bool edgeFixup = false;             // redraw the pixels on the low-resolution depth edges at full resolution
    Hull hull = Hull::Quad;             // the sprite's geometry: the quad, or a polygon trimmed to its visible texels
    Filter filter = Filter::Trilinear;  // the sprite's texture filter
    // Light: accumulate the frame in RGBA16F and tone-map, or blend in the 8-bit target (the paper's
    // look, where the fire's core clips to a flat white disk). The default, ACES at exposure 0.35, keeps
    // the core's gradient from white through yellow to red.
    bool hdr = true;
    Tonemap tonemap = Tonemap::Aces;
    float exposure = 0.35f;
    float soft = 0.0f;  // soft particles: fade over this depth distance to the scene (m); 0 off
    // Camera fade (--camera-fade NEAR,FAR): a particle's alpha falls from 1 at view depth FAR to 0 at NEAR (VFX
    // Graph's Camera Fade, Effekseer's near fade), and a particle nearer than NEAR is not drawn at all: the
    // fill it would cost inside the fire is saved. By the particle's centre, so a view-plane sprite fades as
    // a whole. (0, 0): off.
    glm::vec2 cameraFade{0.0f, 0.0f};
    // How an effect's layers are ordered (render/frame/layer_stack.h): whole layers in blend order, or every
    // layer's particles interleaved by view depth in kDepthSlices slices (the sorted-together reference).
    LayerOrder layerOrder = LayerOrder::Layers;
    // The volume strategy's view-aligned grid (render/strategies/volume_strategy.cpp): a froxel's side in
    // pixels of the pass and the slices across the medium's depth range.
    VolumeCell volumeCell = VolumeCell::Px8;
    VolumeSlices volumeSlices = VolumeSlices::S64;
    // --sort abuffer: the per-pixel fragment lists' memory (MiB); the fragments beyond it are counted, and a
    // frame with any is refused.
    float abufferMib = 256.0f;
};

// Every option with its name (the CLI flag without "--", the TOML key and the CSV column with '_'),
// help line, range and attributes (core::SettingAttr): kColumn (runs.csv has a column), kLayer (an effect's
// layer may set it: its look; the others are the frame's), kApproximation (a fill-rate approximation, which a
// quality reference returns to its default). A visitor provides:
//   template <class E, size_t N> void choice(std::string_view name, E& v, const std::array<std::string_view, N>&,
//                                            std::string_view help, unsigned attrs = 0);
//   void flag(std::string_view name, bool& v, std::string_view help, unsigned attrs = 0);
//   void scalar(std::string_view name, float& v, float lo, float hi, std::string_view help, unsigned attrs = 0);
//   void path(std::string_view name, std::string& v, std::string_view help, unsigned attrs = 0);
//   void interval(std::string_view name, glm::vec2& v, float lo, float hi, std::string_view help, unsigned attrs = 0);
//   void layout(std::string_view name, FlipbookLayout& v, std::string_view help, unsigned attrs = 0);
// An interval is "A,B" with lo <= A < B <= hi, or "0,0": off.
// velocityStretch, alphaScale, cullBehind and the slice are not options (set by the model's facing, by the harness, by
// tests).
template <class O, class V>
void visitRenderOptions(O& o, V&& v) {
    using namespace core;  // the attributes
    v.choice("draw-as", o.drawAs, kDrawAsNames,
             "what draws the layer: strategy (the run's --strategy) | trail (a ribbon through each particle's last "
             "positions) | haze (a heat-haze layer: the scene behind it refracted, not drawn)",
             kColumn | kLayer);
    v.scalar("trail-seconds", o.trailSeconds, 0.001f, 2.0f,
             "--draw-as trail: a trail's length, the particle's positions over the last this many seconds",
             kColumn | kLayer);
    v.scalar("trail-width", o.trailWidth, 0.001f, 100.0f,
             "--draw-as trail: a trail's width at its head, in particle sizes (it narrows to 0 at its tail)",
             kColumn | kLayer);
    v.scalar("haze-strength", o.hazeStrength, 0.0f, 0.5f,
             "--draw-as haze: a haze particle's deflection of the view at its centre (radians), times its heat "
             "(1 - age/life); 0 leaves the frame unchanged",
             kColumn | kLayer);
    v.choice("blend", o.blend, kBlendNames, "additive | alpha | premultiplied", kColumn | kLayer);
    v.choice("sort", o.sort, kSortNames,
             "none | back-to-front (by view depth) | wboit (weighted blended OIT) | moment (moment-based OIT, two "
             "passes) | abuffer (per-pixel fragment lists sorted: exact); wboit, moment and abuffer blend every alpha "
             "layer of the frame per fragment",
             kColumn | kLayer);
    v.choice(
        "facing", o.facing, kFacingNames,
        "view-plane | viewpoint | velocity | ground (lying flat in the xz plane: a shockwave ring) | plane (lying in "
        "the emitter's plane, its xz plane turned by --rotate-x/y/z: a fixed-plane quad, a ring on a wall)",
        kColumn | kLayer);
    v.path("texture", o.texture, "sprite under textures/ (or a path); with --flipbook, the atlas", kLayer | kColumn);
    v.layout("flipbook", o.flipbook,
             "off | RxC: --texture is an atlas of R rows by C columns of frames, played over each particle's life "
             "(with the default texture, textures/flame_atlas.png, 4x4)",
             kColumn | kLayer);
    v.choice("flipbook-blend", o.flipbookBlend, kFlipbookBlendNames,
             "with --flipbook: none (each frame held, then cut) | linear (two fetches blended by the fractional "
             "frame) | motion (each frame warped along its motion vectors, from the atlas's NAME_motion.png, "
             "then blended)",
             kColumn | kLayer);
    v.scalar("sprite-gain", o.spriteGain, 0.001f, 1000.0f,
             "multiplies a textured layer's particle colour (unclipped): a baked flipbook's light_scale divided by "
             "the sprites alive at once",
             kColumn | kLayer);
    v.choice("lit", o.lit, kLitNames,
             "alpha and premultiplied layers lit by the fire lights and the moon: none | vertex | pixel (a sphere's "
             "normal per vertex or per pixel; additive layers emit and ignore it)",
             kColumn | kLayer);
    v.choice("particle-scale", o.particleScale, kParticleScaleNames,
             "particle pass resolution, fraction of the frame: 1 | 0.5 | 0.25", kColumn | kApproximation);
    v.choice("upsample", o.upsample, kUpsampleNames, "low-resolution particles to the frame: bilinear | nearest-depth",
             kColumn | kApproximation);
    v.flag("edge-fixup", o.edgeFixup, "redraw particles at full resolution on depth edges (particle-scale < 1)",
           kColumn | kApproximation);
    v.choice("hull", o.hull, kHullNames, "sprite geometry: quad | 4 | 8 (polygon trimmed to the visible texels)",
             kColumn | kLayer | kApproximation);
    v.choice("filter", o.filter, kFilterNames, "sprite texture filter: trilinear | bilinear | nearest",
             kColumn | kLayer | kApproximation);
    v.flag("hdr", o.hdr, "accumulate particles in RGBA16F and tone-map", kColumn);
    v.choice("tonemap", o.tonemap, kTonemapNames, "HDR tone mapping: clamp | reinhard | aces", kColumn);
    v.scalar("exposure", o.exposure, 0.01f, 100.0f, "HDR exposure, multiplies the light before tone mapping", kColumn);
    v.scalar("soft", o.soft, 0.0f, 100.0f, "soft particles: fade distance to the scene's depth (m); 0 = off",
             kColumn | kLayer);
    v.interval("camera-fade", o.cameraFade, 0.0f, 1000.0f,
               "NEAR,FAR (m): particles fade out as their view depth falls from FAR to NEAR and are not drawn nearer "
               "(the inside-the-fire fill technique); 0,0 = off",
               kColumn | kApproximation);
    v.choice("layer-order", o.layerOrder, kLayerOrderNames,
             "an effect's layers: layers (whole layers, alpha back to front, then additive) | depth-slices (all "
             "layers' particles interleaved in 48 view-depth slices: the sorted-together reference; CPU-simulated "
             "strategies)",
             kColumn);
    v.scalar("abuffer-mib", o.abufferMib, 1.0f, 16384.0f,
             "--sort abuffer: memory for the frame's fragment lists (MiB, 16 bytes a fragment); a frame that needs "
             "more is refused, saying how much",
             kColumn);
    v.choice("volume-cell", o.volumeCell, kVolumeCellNames,
             "volume strategy: a froxel's side in pixels: 4 | 8 | 16 | 32", kColumn | kApproximation);
    v.choice("volume-slices", o.volumeSlices, kVolumeSlicesNames,
             "volume strategy: depth slices across the medium: 32 | 64 | 128 | 256", kColumn | kApproximation);
}

}  // namespace firelab::render

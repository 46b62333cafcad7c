#include "render/strategies/strategy.h"

#include <array>
#include <cmath>

#include "core/error.h"
#include "core/text.h"
#include "sim/look.h"

namespace firelab::render {

// >>registry: every strategy, once, in sweep order (`all` runs them in this order; `firelab list` and the
// viewer show them so). Each name is the StrategyEntry the strategy's own file defines; a strategy added is
// its file and one line here, before the closing comment.
#define FIRELAB_STRATEGIES(X)       \
    X(kPointsStrategy)              \
    X(kPointSpritesStrategy)        \
    X(kBillboardsCpuStrategy)       \
    X(kBillboardsInstancedStrategy) \
    X(kBillboardsGeometryStrategy)  \
    X(kGpuStatelessStrategy)        \
    X(kComputeStrategy)             \
    X(kComputeSplatStrategy)        \
    X(kVolumeStrategy)              \
    X(kVolumeReferenceStrategy)     \
    /* end of the registry */

#define FIRELAB_DECLARE_STRATEGY(entry) extern const StrategyEntry entry;
FIRELAB_STRATEGIES(FIRELAB_DECLARE_STRATEGY)
#undef FIRELAB_DECLARE_STRATEGY

namespace {

#define FIRELAB_STRATEGY_ADDRESS(entry) &entry,
constexpr const StrategyEntry* kRegistry[] = {FIRELAB_STRATEGIES(FIRELAB_STRATEGY_ADDRESS)};
#undef FIRELAB_STRATEGY_ADDRESS
#undef FIRELAB_STRATEGIES

const StrategyEntry& find(std::string_view name) {
    for (const StrategyEntry* e : kRegistry)
        if (e->info.name == name) return *e;
    throw Error(ErrorCode::UnknownName,
                "--strategy '" + std::string(name) + "': unknown; valid values are " + core::join(strategyNames()));
}
}  // namespace

// The entries' infos side by side, as the span needs them.
std::span<const StrategyInfo> strategies() {
    static const auto infos = [] {
        std::array<StrategyInfo, std::size(kRegistry)> a{};
        for (size_t i = 0; i < a.size(); ++i) a[i] = kRegistry[i]->info;
        return a;
    }();
    return infos;
}

std::vector<std::string> strategyNames(const std::function<bool(const StrategyInfo&)>& keep) {
    std::vector<std::string> names;
    for (const StrategyInfo& info : strategies())
        if (!keep || keep(info)) names.emplace_back(info.name);
    return names;
}

const StrategyInfo& strategyInfo(std::string_view name) { return find(name).info; }

void checkOptions(std::string_view name, const RenderOptions& options) {
    const StrategyInfo& info = find(name).info;
    const std::string who(info.name);
    if (options.sort == Sort::BackToFront && !info.canSort)
        throw Error(ErrorCode::BadValue,
                    "--sort back-to-front: " + who +
                        " cannot sort, its particle positions exist only inside "
                        "the vertex shader; use --sort none, or the compute strategy, which sorts on the GPU");
    if (options.hull != Hull::Quad && info.primitive != Primitive::Sprites)
        throw Error(
            ErrorCode::BadValue,
            "--hull " + std::string(kHullNames[static_cast<size_t>(options.hull)]) + ": " + who +
                (info.primitive == Primitive::Points ? " draws GL_POINTS, squares the rasteriser makes"
                                                     : " splats square footprints and skips their transparent texels "
                                                       "itself") +
                "; a trimmed hull needs a polygon strategy (use --hull quad)");
    if (orderIndependent(options.sort)) {
        const std::string mode(kSortNames[static_cast<size_t>(options.sort)]);
        if (info.primitive == Primitive::Medium || info.primitive == Primitive::Splats)
            throw Error(ErrorCode::BadValue,
                        "--sort " + mode + ": " + who +
                            " does not rasterise its particles' fragments, so it has none to blend "
                            "order-independently; use a sprite or point strategy");
        if (options.particleScale != ParticleScale::Full)
            throw Error(ErrorCode::BadValue, "--sort " + mode +
                                                 ": the order-independent modes draw at the frame's "
                                                 "resolution; use --particle-scale 1");
        if (options.layerOrder == LayerOrder::DepthSlices)
            throw Error(ErrorCode::BadValue, "--sort " + mode +
                                                 " with --layer-order depth-slices: two answers to one "
                                                 "question (the layers' order); choose one");
    }
    if (info.primitive == Primitive::Medium) return;  // a medium: no sprite, no order, every blend mode
    if (options.layerOrder == LayerOrder::DepthSlices && (info.simulatesOnGpu || info.primitive == Primitive::Splats))
        throw Error(ErrorCode::BadValue, "--layer-order depth-slices: " + who +
                                             " does not stream its particles from the CPU, so it cannot draw them "
                                             "slice by slice; use a CPU-simulated strategy such as billboards-cpu");
    if (options.facing != Facing::ViewPlane && info.viewPlaneOnly)
        throw Error(ErrorCode::BadValue,
                    "--facing " + std::string(kFacingNames[static_cast<size_t>(options.facing)]) + ": " + who +
                        " draws every particle as the screen-aligned square of a view-plane quad; it allows only "
                        "--facing view-plane");
    if (options.blend != Blend::Additive && info.additiveOnly)
        throw Error(ErrorCode::BadValue,
                    "--blend " + std::string(kBlendNames[static_cast<size_t>(options.blend)]) + ": " + who +
                        " accumulates light order-independently, which is exact only for additive blending "
                        "(use --blend additive)");
}

void checkTimed(std::string_view name) {
    const StrategyInfo& info = find(name).info;
    if (info.referenceOnly)
        throw Error(ErrorCode::BadValue, "--strategy " + std::string(info.name) +
                                             ": a reference renderer (seconds to minutes a frame), not a timed "
                                             "strategy; score against it with --quality --reference 'strategy=" +
                                             std::string(info.name) + "', or draw it with capture or view");
}

size_t volumeGridBytes(int width, int height, const RenderOptions& o) {
    const auto cell = static_cast<size_t>(volumeCellPixels(o.volumeCell));
    const size_t columns =
        ((static_cast<size_t>(width) + cell - 1) / cell) * ((static_cast<size_t>(height) + cell - 1) / cell);
    const auto slices = static_cast<size_t>(volumeSliceCount(o.volumeSlices));
    // Per cell: the splat's four fixed-point sums (16 bytes) and the integrated RGBA16F texel (8 bytes), one
    // more integrated layer in front.
    return columns * (slices * 16 + (slices + 1) * 8);
}

void checkVolumeGrid(std::string_view name, int width, int height, const RenderOptions& o) {
    const StrategyInfo& info = find(name).info;
    if (info.primitive != Primitive::Medium || info.referenceOnly) return;
    const size_t bytes = volumeGridBytes(width, height, o);
    if (bytes <= kMaxVolumeGridBytes) return;
    throw Error(ErrorCode::BadValue,
                "--volume-cell " + std::string(kVolumeCellNames[static_cast<size_t>(o.volumeCell)]) +
                    " --volume-slices " + std::string(kVolumeSlicesNames[static_cast<size_t>(o.volumeSlices)]) + ": " +
                    std::string(name) + "'s grid at " + std::to_string(width) + "x" + std::to_string(height) +
                    " would take " + std::to_string(bytes >> 20) + " MiB, more than its bound of " +
                    std::to_string(kMaxVolumeGridBytes >> 20) + " MiB; use larger cells or fewer slices");
}

bool drawsGrid(const fluid::FluidParams& f) {
    return f.model == fluid::Model::Fluid && f.medium != fluid::MediumOf::Particles;
}

bool onlyTheGridDrawsTheFluid(const fluid::FluidParams& f) {
    return f.model == fluid::Model::Fluid && f.motion != fluid::Motion::Fluid;
}

void checkFluid(std::string_view name, const fluid::FluidParams& f) {
    const StrategyInfo& info = find(name).info;
    const std::string who(info.name);
    const bool fluidModel = f.model == fluid::Model::Fluid;
    if (f.motion == fluid::Motion::Fluid && !fluidModel)
        throw Error(ErrorCode::BadValue,
                    "--motion fluid: the particles follow the grid fluid's velocity, and there is "
                    "a grid with --model fluid only; add --model fluid");
    if (f.medium == fluid::MediumOf::Grid && !fluidModel)
        throw Error(ErrorCode::BadValue,
                    "--medium grid: there is a grid with --model fluid only; add --model fluid, "
                    "or use --medium auto");
    const bool drawsParticles = info.primitive != Primitive::Medium || !drawsGrid(f);
    if (!fluidModel || !drawsParticles) return;
    if (onlyTheGridDrawsTheFluid(f))
        throw Error(ErrorCode::BadValue,
                    "--model fluid: " + who +
                        " draws particles, and the fluid moves them only with --motion fluid; add --motion fluid, or "
                        "draw the grid itself with volume or volume-reference");
    if (info.simulatesOnGpu)
        throw Error(ErrorCode::BadValue, "--motion fluid: " + who +
                                             " simulates its particles on the GPU, and the fluid carries the CPU's; "
                                             "use a strategy that draws the CPU's particles (firelab list)");
}

void checkColor(const sim::FireParams& params, const fluid::FluidParams& fluid) {
    if (params.color == sim::ColorModel::Grid && fluid.motion != fluid::Motion::Fluid)
        throw Error(ErrorCode::BadValue,
                    "--color grid: each particle takes the temperature of the grid fluid's gas around it, which "
                    "needs --model fluid --motion fluid; or use --color blackbody or gradient");
}

void checkModel(std::string_view name, const sim::FireParams& params) {
    const StrategyInfo& info = find(name).info;
    const std::string who(info.name);
    if (info.viewPlaneOnly && sim::hasTurn(params))
        throw Error(ErrorCode::BadValue,
                    "--rotation-var, --spin, --spin-var: " + who +
                        " splats every particle as an unturned "
                        "screen-aligned square and cannot turn sprites; set them to 0, or use a billboard strategy");
    if (info.primitive == Primitive::Medium && params.sizeUnit == sim::SizeUnit::Pixels)
        throw Error(ErrorCode::BadValue,
                    "--size-unit px: " + who +
                        " builds a medium of world-sized blobs of gas, which a size on screen does not give; use "
                        "--size-unit m, or a sprite strategy (points, point-sprites, the billboards, compute, "
                        "gpu-stateless)");
    if (!info.closedForm) return;
    if (params.ground == sim::Ground::Stage)
        throw Error(ErrorCode::BadValue,
                    "--ground stage: " + who +
                        " computes each particle's path in closed form, which bounces on the ground plane only, not "
                        "on the logs and stone; use --ground bounce, or a strategy that steps the particles (compute "
                        "collides with the scene's depth buffer, the CPU-simulated ones with the boxes)");
    if (params.burst > 0 && params.burstPeriod > 0.0f && params.burstPeriod < params.lifetimeMean + params.lifetimeVar)
        throw Error(ErrorCode::BadValue,
                    "--burst-period " + core::formatFloat(params.burstPeriod) + ": " + who +
                        " reuses each burst slot "
                        "every period, shorter than the longest lifetime (" +
                        core::formatFloat(params.lifetimeMean + params.lifetimeVar) +
                        " s), which would cut lives short; use a period of at least the longest lifetime");
    // Its slots are reborn every particles / rate seconds: a longer life would be cut short, and its burst
    // slots come on top, where the CPU model drops the births beyond --particles instead.
    const float longest = params.lifetimeMean + params.lifetimeVar;
    const double needed = std::ceil(static_cast<double>(params.rate * longest)) + params.burst;
    if (params.rate > 0.0f && needed > static_cast<double>(params.particles))
        throw Error(ErrorCode::BadValue, "--rate " + core::formatFloat(params.rate) + ": " + who +
                                             " reuses its --particles " + std::to_string(params.particles) +
                                             " slots every particles / rate seconds, shorter than "
                                             "the longest lifetime (" +
                                             core::formatFloat(longest) + " s, --burst " +
                                             std::to_string(params.burst) +
                                             " on top), which would cut lives short; use --particles " +
                                             std::to_string(static_cast<uint64_t>(needed)) + " or more");
}

std::unique_ptr<RenderStrategy> makeStrategy(std::string_view name, const StrategyContext& context) {
    checkOptions(name, context.options);
    checkModel(name, context.params);
    return find(name).make(context);
}

}  // namespace firelab::render

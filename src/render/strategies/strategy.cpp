#include "render/strategies/strategy.h"

#include <array>
#include <cmath>

#include "core/error.h"
#include "core/text.h"
#include "sim/look.h"

namespace firelab::render {

// One factory per strategy file.
std::unique_ptr<RenderStrategy> makePoints(const StrategyContext&);
std::unique_ptr<RenderStrategy> makePointSprites(const StrategyContext&);
std::unique_ptr<RenderStrategy> makeBillboardsCpu(const StrategyContext&);
std::unique_ptr<RenderStrategy> makeBillboardsInstanced(const StrategyContext&);
std::unique_ptr<RenderStrategy> makeBillboardsGeometry(const StrategyContext&);
std::unique_ptr<RenderStrategy> makeGpuStateless(const StrategyContext&);
std::unique_ptr<RenderStrategy> makeCompute(const StrategyContext&);
std::unique_ptr<RenderStrategy> makeComputeSplat(const StrategyContext&);

namespace {
struct Entry {
    StrategyInfo info;
    std::unique_ptr<RenderStrategy> (*make)(const StrategyContext&);
};

constexpr StrategyInfo info(std::string_view name, std::string_view summary, Primitive primitive, bool gpu = false,
                            bool canSort = true, bool additiveOnly = false, bool viewPlaneOnly = false,
                            bool closedForm = false) {
    return {name, summary, gpu, canSort, primitive, additiveOnly, viewPlaneOnly, closedForm};
}

const std::array<Entry, 8> kEntries{{
    {info("points", "the paper's point-light particles: GL_POINTS, untextured soft round falloff", Primitive::Points),
     makePoints},
    {info("point-sprites", "GL_POINTS textured with the flame sprite through gl_PointCoord", Primitive::Points),
     makePointSprites},
    {info("billboards-cpu", "camera-facing quads (or --hull polygons) built on the CPU, 4 or 8 vertices per particle",
          Primitive::Sprites),
     makeBillboardsCpu},
    {info("billboards-instanced", "one instanced quad per particle, corners expanded in the vertex shader",
          Primitive::Sprites),
     makeBillboardsInstanced},
    {info("billboards-geometry", "points expanded to quads in a geometry shader", Primitive::Sprites),
     makeBillboardsGeometry},
    {info("gpu-stateless", "closed-form motion in the vertex shader from birth parameters uploaded once",
          Primitive::Sprites, true, false, false, false, true),
     makeGpuStateless},
    {info("compute", "the fire model simulated in compute shaders, drawn by vertex pulling", Primitive::Sprites, true),
     makeCompute},
    {info("compute-splat", "CPU-simulated particles rasterised by compute shaders into a fixed-point light buffer",
          Primitive::Splats, false, true, true, true),
     makeComputeSplat},
}};

const std::array<StrategyInfo, kEntries.size()> kInfos = [] {
    std::array<StrategyInfo, kEntries.size()> a{};
    for (size_t i = 0; i < a.size(); ++i) a[i] = kEntries[i].info;
    return a;
}();

const Entry& find(std::string_view name) {
    for (const auto& e : kEntries)
        if (e.info.name == name) return e;
    std::string valid;
    for (const auto& e : kEntries) valid += (valid.empty() ? "" : ", ") + std::string(e.info.name);
    throw Error(ErrorCode::UnknownName,
                "--strategy '" + std::string(name) + "': unknown; valid values are " + valid + " (or all)");
}
}  // namespace

std::span<const StrategyInfo> strategies() { return kInfos; }

const StrategyInfo& strategyInfo(std::string_view name) { return find(name).info; }

void checkOptions(std::string_view name, const RenderOptions& options) {
    const StrategyInfo& info = find(name).info;
    const std::string who(info.name);
    if (options.sort == Sort::BackToFront && !info.canSort)
        throw Error(ErrorCode::BadValue,
                    "--sort back-to-front: " + who + " cannot sort, its particle positions exist only inside "
                    "the vertex shader; use --sort none, or the compute strategy, which sorts on the GPU");
    if (options.hull != Hull::Quad && info.primitive != Primitive::Sprites)
        throw Error(ErrorCode::BadValue, "--hull " + std::string(kHullNames[static_cast<size_t>(options.hull)]) +
                                             ": " + who +
                                             (info.primitive == Primitive::Points
                                                  ? " draws GL_POINTS, squares the rasteriser makes"
                                                  : " splats square footprints and skips their transparent texels "
                                                    "itself") +
                                             "; a trimmed hull needs a polygon strategy (use --hull quad)");
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

void checkModel(std::string_view name, const sim::FireParams& params) {
    const StrategyInfo& info = find(name).info;
    const std::string who(info.name);
    if (info.viewPlaneOnly && sim::hasTurn(params))
        throw Error(ErrorCode::BadValue,
                    "--rotation-var, --spin, --spin-var: " + who + " splats every particle as an unturned "
                    "screen-aligned square and cannot turn sprites; set them to 0, or use a billboard strategy");
    if (!info.closedForm) return;
    if (params.burst > 0 && params.burstPeriod > 0.0f &&
        params.burstPeriod < params.lifetimeMean + params.lifetimeVar)
        throw Error(ErrorCode::BadValue,
                    "--burst-period " + core::formatFloat(params.burstPeriod) + ": " + who + " reuses each burst slot "
                    "every period, shorter than the longest lifetime (" +
                        core::formatFloat(params.lifetimeMean + params.lifetimeVar) +
                        " s), which would cut lives short; use a period of at least the longest lifetime");
    // Its slots are reborn every particles / rate seconds: a longer life would be cut short, and its burst
    // slots come on top, where the CPU model drops the births beyond --particles instead.
    const float longest = params.lifetimeMean + params.lifetimeVar;
    const double needed = std::ceil(static_cast<double>(params.rate * longest)) + params.burst;
    if (params.rate > 0.0f && needed > static_cast<double>(params.particles))
        throw Error(ErrorCode::BadValue,
                    "--rate " + core::formatFloat(params.rate) + ": " + who + " reuses its --particles " +
                        std::to_string(params.particles) + " slots every particles / rate seconds, shorter than "
                        "the longest lifetime (" + core::formatFloat(longest) + " s, --burst " +
                        std::to_string(params.burst) + " on top), which would cut lives short; use --particles " +
                        std::to_string(static_cast<uint64_t>(needed)) + " or more");
}

std::unique_ptr<RenderStrategy> makeStrategy(std::string_view name, const StrategyContext& context) {
    checkOptions(name, context.options);
    checkModel(name, context.params);
    return find(name).make(context);
}

}  // namespace firelab::render

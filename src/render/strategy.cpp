#include "render/strategy.h"

#include <array>

#include "sim/error.h"

namespace firelab::render {

// One factory per strategy file.
std::unique_ptr<RenderStrategy> makePoints(const StrategyContext&);
std::unique_ptr<RenderStrategy> makePointSprites(const StrategyContext&);
std::unique_ptr<RenderStrategy> makeBillboardsCpu(const StrategyContext&);
std::unique_ptr<RenderStrategy> makeBillboardsInstanced(const StrategyContext&);
std::unique_ptr<RenderStrategy> makeBillboardsGeometry(const StrategyContext&);
std::unique_ptr<RenderStrategy> makeGpuStateless(const StrategyContext&);
std::unique_ptr<RenderStrategy> makeCompute(const StrategyContext&);

namespace {
struct Entry {
    StrategyInfo info;
    std::unique_ptr<RenderStrategy> (*make)(const StrategyContext&);
};

const std::array<Entry, 7> kEntries{{
    {{"points", "the paper's point-light particles: GL_POINTS, untextured soft round falloff", false}, makePoints},
    {{"point-sprites", "GL_POINTS textured with the flame sprite through gl_PointCoord", false}, makePointSprites},
    {{"billboards-cpu", "camera-facing quads built on the CPU, 4 vertices per particle, streamed", false},
     makeBillboardsCpu},
    {{"billboards-instanced", "one instanced quad per particle, corners expanded in the vertex shader", false},
     makeBillboardsInstanced},
    {{"billboards-geometry", "points expanded to quads in a geometry shader", false}, makeBillboardsGeometry},
    {{"gpu-stateless", "closed-form motion in the vertex shader from birth parameters uploaded once", true},
     makeGpuStateless},
    {{"compute", "the fire model simulated in compute shaders, drawn by vertex pulling", true}, makeCompute},
}};

const std::array<StrategyInfo, 7> kInfos = [] {
    std::array<StrategyInfo, 7> a{};
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
    const Entry& e = find(name);
    if (options.sort == Sort::BackToFront && e.info.name == "gpu-stateless")
        throw Error(ErrorCode::BadValue,
                    "--sort back-to-front: gpu-stateless cannot sort, its particle positions exist only inside "
                    "the vertex shader; use --sort none, or the compute strategy, which sorts on the GPU");
}

std::unique_ptr<RenderStrategy> makeStrategy(std::string_view name, const StrategyContext& context) {
    checkOptions(name, context.options);
    return find(name).make(context);
}

}  // namespace firelab::render

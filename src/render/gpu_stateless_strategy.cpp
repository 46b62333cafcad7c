// PLACEHOLDER until the GPU-simulated strategy lands.
#include "render/strategy.h"
#include "sim/error.h"
namespace firelab::render {
std::unique_ptr<RenderStrategy> makeGpuStateless(const StrategyContext&) {
    throw Error(ErrorCode::GlUnsupported, "gpu_stateless: not implemented yet");
}
}  // namespace firelab::render

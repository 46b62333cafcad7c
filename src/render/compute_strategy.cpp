// PLACEHOLDER until the GPU-simulated strategy lands.
#include "render/strategy.h"
#include "sim/error.h"
namespace firelab::render {
std::unique_ptr<RenderStrategy> makeCompute(const StrategyContext&) {
    throw Error(ErrorCode::GlUnsupported, "compute: not implemented yet");
}
}  // namespace firelab::render

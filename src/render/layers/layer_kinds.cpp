#include "render/layers/layer_kinds.h"

namespace firelab::render {

std::unique_ptr<RenderStrategy> makeLayerDrawer(std::string_view strategy, const StrategyContext& context) {
    switch (context.options.drawAs) {
    case DrawAs::Trail: return makeTrailLayer(context);
    case DrawAs::Haze: return makeHazeLayer(context);
    default: return makeStrategy(strategy, context);
    }
}

}  // namespace firelab::render

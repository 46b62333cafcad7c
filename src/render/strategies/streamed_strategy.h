// What points, point-sprites, billboards-instanced and billboards-geometry share: each frame the CPU
// pool is turned into Instance records (less the particles wholly behind the camera) and streamed to one
// buffer (InstanceStream), which a vertex array feeds to the strategy's shaders. A strategy says only which shaders and which draw call.
#pragma once
#include <string>
#include <vector>

#include "render/particles/instance_stream.h"
#include "render/particles/particle_material.h"
#include "render/strategies/strategy.h"

namespace firelab::render {

class StreamedStrategy : public RenderStrategy {
public:
    enum class Draw {
        SizedPoints,     // GL_POINTS, one per particle, size from the vertex shader
        Points,          // GL_POINTS, one per particle, expanded by a geometry shader
        InstancedQuads,  // the sprite polygon's triangle strip (4 or 8 vertices) instanced once per particle
    };

    StreamedStrategy(const StrategyContext& context, std::string_view name, const std::vector<std::string>& shaders,
                     Draw draw);
    std::string_view name() const override { return name_; }
    void upload(const sim::FireSystem& fire, const Camera& camera) override;
    void draw(const DrawPass& pass) override;
    size_t drawnCount() const override { return stream_.count(); }
    bool setDepthSlice(float nearDepth, float farDepth) override {
        options_.sliceNear = nearDepth, options_.sliceFar = farDepth;
        return true;
    }

private:
    std::string_view name_;
    Draw draw_;
    ParticleMaterial material_;
    gl::VertexArray vao_;
    InstanceStream stream_;
    RenderOptions options_;  // the sort, and the sprite's reach for skipping particles behind the camera
};

}  // namespace firelab::render

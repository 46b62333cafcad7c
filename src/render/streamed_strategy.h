// What points, point-sprites, billboards-instanced and billboards-geometry share: each frame the CPU
// pool is turned into Instance records and streamed to one buffer (InstanceStream), which a vertex array
// feeds to the strategy's shaders. A strategy says only which shaders, whether a record feeds a vertex
// or an instance, and which draw call to issue.
#pragma once
#include <string>
#include <vector>

#include "render/particle_common.h"

namespace firelab::render {

class StreamedStrategy : public RenderStrategy {
public:
    enum class Feed { PerVertex, PerInstance };

    StreamedStrategy(const StrategyContext& context, std::string_view name, const std::vector<std::string>& shaders,
                     Feed feed);
    std::string_view name() const override { return name_; }
    void upload(const sim::FireSystem& fire, const Camera& camera) override;
    void draw(const Camera& camera) override;
    size_t drawnCount() const override { return stream_.count(); }

protected:
    // The draw call for `count` particles, with the program, textures and vertex array bound.
    virtual void issueDraw(GLsizei count) = 0;

private:
    std::string_view name_;
    ParticleMaterial material_;
    gl::Program program_;
    gl::VertexArray vao_;
    InstanceStream stream_;
    Sort sort_;
};

}  // namespace firelab::render

// `points` and `point-sprites`: GL_POINTS, one vertex per particle, size set per vertex.
#pragma once
#include "render/particle_common.h"

namespace firelab::render {

class PointsStrategy : public RenderStrategy {
public:
    PointsStrategy(const StrategyContext& context, std::string_view name, const char* fragmentShader);
    std::string_view name() const override { return name_; }
    void upload(const sim::FireSystem& fire, const Camera& camera) override;
    void draw(const Camera& camera) override;
    size_t drawnCount() const override { return stream_.count(); }

private:
    std::string_view name_;
    ParticleMaterial material_;
    gl::Program program_;
    gl::VertexArray vao_;
    InstanceStream stream_;
    Sort sort_;
};

// Vertex attributes 0 (posSize) and 1 (velAge) from binding 0, one Instance per vertex (divisor 0)
// or per instance (divisor 1).
void setInstanceAttributes(const gl::VertexArray& vao, GLuint divisor);

}  // namespace firelab::render

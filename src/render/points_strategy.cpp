// points: the paper's baseline, point-light particles. GL_POINTS, untextured: the fragment shader
// computes a soft round falloff; the point size is perspective-correct. The reference the other
// strategies differ from.
#include "render/points_strategy.h"

namespace firelab::render {

void setInstanceAttributes(const gl::VertexArray& vao, GLuint divisor) {
    for (GLuint a = 0; a < 2; ++a) {
        glEnableVertexArrayAttrib(vao.id(), a);
        glVertexArrayAttribFormat(vao.id(), a, 4, GL_FLOAT, GL_FALSE, a * 16);
        glVertexArrayAttribBinding(vao.id(), a, 0);
    }
    glVertexArrayBindingDivisor(vao.id(), 0, divisor);
}

PointsStrategy::PointsStrategy(const StrategyContext& c, std::string_view name, const char* fragmentShader)
    : name_(name), material_(c), program_(c.dataDir / "shaders", {"points.vert", fragmentShader}),
      sort_(c.options.sort) {
    setInstanceAttributes(vao_, 0);
}

void PointsStrategy::upload(const sim::FireSystem& fire, const Camera& camera) { stream_.upload(fire, camera, sort_); }

void PointsStrategy::draw(const Camera& camera) {
    material_.beginParticles();
    glEnable(GL_PROGRAM_POINT_SIZE);
    program_.use();
    material_.bind(program_, camera);
    glBindVertexArray(vao_.id());
    glVertexArrayVertexBuffer(vao_.id(), 0, stream_.buffer(), 0, sizeof(Instance));
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(stream_.count()));
    glDisable(GL_PROGRAM_POINT_SIZE);
    ParticleMaterial::endParticles();
}

std::unique_ptr<RenderStrategy> makePoints(const StrategyContext& c) {
    return std::make_unique<PointsStrategy>(c, "points", "points.frag");
}

}  // namespace firelab::render

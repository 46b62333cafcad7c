#include "render/streamed_strategy.h"

namespace firelab::render {

StreamedStrategy::StreamedStrategy(const StrategyContext& c, std::string_view name,
                                   const std::vector<std::string>& shaders, Feed feed)
    : name_(name), material_(c), program_(c.dataDir / "shaders", shaders), sort_(c.options.sort) {
    // Attributes 0 (posSize) and 1 (velAge) from binding 0, one Instance per vertex or per instance.
    for (GLuint a = 0; a < 2; ++a) {
        glEnableVertexArrayAttrib(vao_.id(), a);
        glVertexArrayAttribFormat(vao_.id(), a, 4, GL_FLOAT, GL_FALSE, a * 16);
        glVertexArrayAttribBinding(vao_.id(), a, 0);
    }
    glVertexArrayBindingDivisor(vao_.id(), 0, feed == Feed::PerInstance ? 1 : 0);
}

void StreamedStrategy::upload(const sim::FireSystem& fire, const Camera& camera) { stream_.upload(fire, camera, sort_); }

void StreamedStrategy::draw(const Camera& camera) {
    material_.beginParticles();
    program_.use();
    material_.bind(program_, camera);
    glBindVertexArray(vao_.id());
    glVertexArrayVertexBuffer(vao_.id(), 0, stream_.buffer(), 0, sizeof(Instance));
    issueDraw(static_cast<GLsizei>(stream_.count()));
    ParticleMaterial::endParticles();
}

}  // namespace firelab::render

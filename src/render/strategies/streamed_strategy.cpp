#include "render/strategies/streamed_strategy.h"

namespace firelab::render {

StreamedStrategy::StreamedStrategy(const StrategyContext& c, std::string_view name,
                                   const std::vector<std::string>& shaders, Draw draw)
    : name_(name), draw_(draw), material_(c, shaders), options_(c.options) {
    // Attributes 0 (posSize) and 1 (velAge) from binding 0, one Instance per vertex or per instance; 2 (the
    // look) from binding 1 when the model varies it (bindLooks, per draw).
    for (GLuint a = 0; a < 2; ++a) {
        glEnableVertexArrayAttrib(vao_.id(), a);
        glVertexArrayAttribFormat(vao_.id(), a, 4, GL_FLOAT, GL_FALSE, a * 16);
        glVertexArrayAttribBinding(vao_.id(), a, 0);
    }
    glVertexArrayBindingDivisor(vao_.id(), 0, draw == Draw::InstancedQuads ? 1 : 0);
}

void StreamedStrategy::upload(const sim::FireSystem& fire, const Camera& camera) {
    stream_.upload(fire, camera, options_);
}

void StreamedStrategy::draw(const DrawPass& pass) {
    if (!material_.drawsIn(pass)) return;
    material_.begin(pass);
    glBindVertexArray(vao_.id());
    glVertexArrayVertexBuffer(vao_.id(), 0, stream_.buffer(), 0, sizeof(Instance));
    bindLooks(vao_.id(), 2, 1, stream_.lookBuffer(), draw_ == Draw::InstancedQuads ? 1 : 0);
    const auto count = static_cast<GLsizei>(stream_.count());
    switch (draw_) {
    case Draw::SizedPoints:
        glEnable(GL_PROGRAM_POINT_SIZE);
        glDrawArrays(GL_POINTS, 0, count);
        glDisable(GL_PROGRAM_POINT_SIZE);
        break;
    case Draw::Points: glDrawArrays(GL_POINTS, 0, count); break;
    case Draw::InstancedQuads: glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, material_.hullVertices(), count); break;
    }
    ParticleMaterial::end();
    FIRELAB_GL_CHECK();
}

}  // namespace firelab::render

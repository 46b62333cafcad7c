// billboards-cpu: instead of one point per particle (points), the CPU builds a camera-facing quad of
// four vertices per particle every frame (the explosion seed's getQuadBillboard) and streams them;
// the vertex shader only transforms. The corner math mirrors billboardCorner() in particle_common.glsl.
#include <glm/geometric.hpp>

#include "render/instance_stream.h"
#include "render/particle_material.h"
#include "render/sprite_geometry.h"

namespace firelab::render {
namespace {

struct QuadVertex {
    glm::vec3 pos;
    glm::vec2 uv;
    float age;
};
static_assert(sizeof(QuadVertex) == 24);

class BillboardsCpu : public RenderStrategy {
public:
    explicit BillboardsCpu(const StrategyContext& c)
        : material_(c, {"billboard_cpu.vert", "quad.frag"}), options_(c.options) {
        const GLuint v = vao_.id();
        glEnableVertexArrayAttrib(v, 0);
        glVertexArrayAttribFormat(v, 0, 3, GL_FLOAT, GL_FALSE, offsetof(QuadVertex, pos));
        glEnableVertexArrayAttrib(v, 1);
        glVertexArrayAttribFormat(v, 1, 2, GL_FLOAT, GL_FALSE, offsetof(QuadVertex, uv));
        glEnableVertexArrayAttrib(v, 2);
        glVertexArrayAttribFormat(v, 2, 1, GL_FLOAT, GL_FALSE, offsetof(QuadVertex, age));
        for (GLuint a = 0; a < 3; ++a) glVertexArrayAttribBinding(v, a, 0);
    }
    std::string_view name() const override { return "billboards-cpu"; }

    void upload(const sim::FireSystem& fire, const Camera& camera) override {
        buildInstances(fire, camera, options_.sort, instances_, scratch_);
        const size_t n = instances_.size();
        vertices_.resize(n * 4);
        for (size_t i = 0; i < n; ++i) {
            const Instance& in = instances_[i];
            const glm::vec3 p(in.posSize);
            glm::vec3 right, up;
            float halfW, halfH;
            billboardAxes(camera, options_, p, in.posSize.w, glm::vec3(in.velAge), right, up, halfW, halfH);
            const glm::vec3 r = right * halfW, u = up * halfH;
            QuadVertex* q = &vertices_[i * 4];
            q[0] = {p - r - u, {0.0f, 0.0f}, in.velAge.w};
            q[1] = {p + r - u, {1.0f, 0.0f}, in.velAge.w};
            q[2] = {p - r + u, {0.0f, 1.0f}, in.velAge.w};
            q[3] = {p + r + u, {1.0f, 1.0f}, in.velAge.w};
        }
        streamInto(vertexBuffer_, vertexBytes_, vertices_.data(), vertices_.size() * sizeof(QuadVertex));
        if (n > indexQuads_) makeIndices(n);
        count_ = n;
    }

    void draw(const DrawPass& pass) override {
        material_.begin(pass);
        glBindVertexArray(vao_.id());
        glVertexArrayVertexBuffer(vao_.id(), 0, vertexBuffer_.id(), 0, sizeof(QuadVertex));
        glVertexArrayElementBuffer(vao_.id(), indexBuffer_.id());
        glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(count_ * 6), GL_UNSIGNED_INT, nullptr);
        ParticleMaterial::end();
        FIRELAB_GL_CHECK();
    }
    size_t drawnCount() const override { return count_; }

private:
    void makeIndices(size_t quads) {
        indexQuads_ = std::max<size_t>(quads * 2, 1024);
        std::vector<uint32_t> idx(indexQuads_ * 6);
        for (uint32_t q = 0; q < indexQuads_; ++q) {
            const uint32_t b = q * 4;
            const uint32_t tri[6] = {b, b + 1, b + 2, b + 2, b + 1, b + 3};
            std::copy(tri, tri + 6, &idx[q * 6]);
        }
        indexBuffer_ = gl::makeBuffer(static_cast<GLsizeiptr>(idx.size() * 4), idx.data(), GL_STATIC_DRAW);
    }

    ParticleMaterial material_;
    RenderOptions options_;
    gl::VertexArray vao_;
    gl::Buffer vertexBuffer_, indexBuffer_;
    size_t vertexBytes_ = 0, indexQuads_ = 0, count_ = 0;
    std::vector<Instance> instances_;
    SortScratch scratch_;
    std::vector<QuadVertex> vertices_;
};

}  // namespace

std::unique_ptr<RenderStrategy> makeBillboardsCpu(const StrategyContext& c) { return std::make_unique<BillboardsCpu>(c); }

}  // namespace firelab::render

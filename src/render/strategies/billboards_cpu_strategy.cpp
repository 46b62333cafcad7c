// billboards-cpu: instead of one point per particle (points), the CPU builds a camera-facing quad of
// four vertices per particle every frame (the explosion seed's getQuadBillboard), or the sprite's trimmed
// polygon of 4 or 8 (--hull), and streams them; the vertex shader only transforms. The corner math mirrors
// billboardCorner() in particle_common.glsl, the polygon's triangles the strip of sprite_hull.glsl.
#include <algorithm>

#include <glm/geometric.hpp>

#include "render/particles/instance_stream.h"
#include "render/particles/particle_material.h"
#include "render/strategies/strategy.h"
#include "render/particles/sprite_geometry.h"
#include "sim/look.h"

namespace firelab::render {
namespace {

constexpr StrategyInfo kInfo{
    .name = "billboards-cpu",
    .summary = "camera-facing quads (or --hull polygons) built on the CPU, 4 or 8 vertices per particle",
    .primitive = Primitive::Sprites};

struct QuadVertex {
    glm::vec3 pos;
    glm::vec2 uv;
    float age;
    float fade;     // --camera-fade's factor, by the particle's centre (cameraFadeAt): the same on every corner
    float colorAt;  // sim::colorCoordinate of the particle (age t without --color-position)
};
static_assert(sizeof(QuadVertex) == 32);

class BillboardsCpu : public RenderStrategy {
public:
    explicit BillboardsCpu(const StrategyContext& c)
        : material_(c, {"billboard_cpu.vert", "quad.frag"}),
          options_(c.options),
          plane_(spritePlane(c.params)),
          flame_(sim::flameFrame(c.params)) {
        const GLuint v = vao_.id();
        glEnableVertexArrayAttrib(v, 0);
        glVertexArrayAttribFormat(v, 0, 3, GL_FLOAT, GL_FALSE, offsetof(QuadVertex, pos));
        glEnableVertexArrayAttrib(v, 1);
        glVertexArrayAttribFormat(v, 1, 2, GL_FLOAT, GL_FALSE, offsetof(QuadVertex, uv));
        glEnableVertexArrayAttrib(v, 2);
        glVertexArrayAttribFormat(v, 2, 1, GL_FLOAT, GL_FALSE, offsetof(QuadVertex, age));
        glEnableVertexArrayAttrib(v, 4);
        glVertexArrayAttribFormat(v, 4, 1, GL_FLOAT, GL_FALSE, offsetof(QuadVertex, fade));
        glEnableVertexArrayAttrib(v, 6);
        glVertexArrayAttribFormat(v, 6, 1, GL_FLOAT, GL_FALSE, offsetof(QuadVertex, colorAt));
        for (GLuint a : {0u, 1u, 2u, 4u, 6u}) glVertexArrayAttribBinding(v, a, 0);
        if (litShading(options_) != Lit::None) {  // the corners' sides, a stream of their own
            glEnableVertexArrayAttrib(v, 5);
            glVertexArrayAttribFormat(v, 5, 3, GL_FLOAT, GL_FALSE, 0);
            glVertexArrayAttribBinding(v, 5, 2);
        }
    }
    std::string_view name() const override { return kInfo.name; }
    bool setDepthSlice(float nearDepth, float farDepth) override {
        options_.sliceNear = nearDepth, options_.sliceFar = farDepth;
        return true;
    }

    void upload(const sim::FireSystem& fire, const Camera& camera) override {
        buildInstances(fire, camera, options_, instances_, scratch_, &looks_);
        const size_t n = instances_.size(), k = static_cast<size_t>(material_.hullVertices());
        vertices_.resize(n * k);
        const bool lit = litShading(options_) != Lit::None;
        sides_.resize(lit ? n * k : 0);
        for (size_t i = 0; i < n; ++i) {
            const Instance& in = instances_[i];
            const glm::vec3 p(in.posSize);
            glm::vec3 right, up;
            float halfW, halfH;
            billboardAxes(camera, options_, p, in.posSize.w, glm::vec3(in.velAge), right, up, halfW, halfH, plane_);
            if (!looks_.empty()) turnAxes(right, up, looks_[i].w);
            const glm::vec3 r = right * halfW, u = up * halfH;
            const SpriteHull& hull = material_.hullFor(camera, p, in.posSize.w, in.velAge.w);
            const float fade = cameraFadeAt(options_.cameraFade, glm::dot(camera.forward, p - camera.eye));
            const float at = sim::colorCoordinate(flame_, in.velAge.w, p);
            for (size_t j = 0; j < k; ++j) {
                const glm::vec2 uv = hull.uv[j], c = uv * 2.0f - 1.0f;  // the quad's corners: exactly +-1
                vertices_[i * k + j] = {p + r * c.x + u * c.y, uv, in.velAge.w, fade, at};
                if (lit) sides_[i * k + j] = right * c.x + up * c.y;  // billboardCorner()'s side
            }
        }
        streamInto(vertexBuffer_, vertexBytes_, vertices_.data(), vertices_.size() * sizeof(QuadVertex));
        streamVertexLooks(k);
        if (lit) streamInto(sideBuffer_, sideBytes_, sides_.data(), sides_.size() * sizeof(glm::vec3));
        if (n > indexSprites_) makeIndices(n);
        count_ = n;
    }

    void draw(const DrawPass& pass) override {
        if (!material_.drawsIn(pass)) return;
        material_.begin(pass);
        glBindVertexArray(vao_.id());
        glVertexArrayVertexBuffer(vao_.id(), 0, vertexBuffer_.id(), 0, sizeof(QuadVertex));
        glVertexArrayElementBuffer(vao_.id(), indexBuffer_.id());
        bindLooks(vao_.id(), 3, 1, vertexLooks_.empty() ? 0 : lookBuffer_.id(), 0);
        if (!sides_.empty()) glVertexArrayVertexBuffer(vao_.id(), 2, sideBuffer_.id(), 0, sizeof(glm::vec3));
        glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(count_ * indicesPerSprite()), GL_UNSIGNED_INT, nullptr);
        ParticleMaterial::end();
        FIRELAB_GL_CHECK();
    }
    size_t drawnCount() const override { return count_; }

private:
    // Each particle's look on each of its k vertices (none when the model does not vary it).
    void streamVertexLooks(size_t k) {
        vertexLooks_.resize(looks_.size() * k);
        for (size_t i = 0; i < looks_.size(); ++i)
            std::fill_n(vertexLooks_.begin() + static_cast<std::ptrdiff_t>(i * k), k, looks_[i]);
        if (!vertexLooks_.empty())
            streamInto(lookBuffer_, lookBytes_, vertexLooks_.data(), vertexLooks_.size() * sizeof(Look));
    }

    size_t indicesPerSprite() const { return 3 * static_cast<size_t>(material_.hullVertices() - 2); }

    // Per sprite the k - 2 triangles of the polygon's zig-zag strip, in GL's strip order (odd triangles swap
    // their first two vertices): for the quad, the triangles {0, 1, 2}, {2, 1, 3} of the corners in strip order.
    void makeIndices(size_t sprites) {
        indexSprites_ = std::max<size_t>(sprites * 2, 1024);
        const int k = material_.hullVertices();
        std::vector<uint32_t> tri;
        for (int t = 0; t + 2 < k; ++t) {
            const int a = hullStripIndex(t, k), b = hullStripIndex(t + 1, k), c = hullStripIndex(t + 2, k);
            for (int v : {t % 2 ? b : a, t % 2 ? a : b, c}) tri.push_back(static_cast<uint32_t>(v));
        }
        std::vector<uint32_t> idx(indexSprites_ * tri.size());
        for (size_t q = 0; q < indexSprites_; ++q)
            for (size_t i = 0; i < tri.size(); ++i)
                idx[q * tri.size() + i] = static_cast<uint32_t>(q * static_cast<size_t>(k)) + tri[i];
        indexBuffer_ = gl::makeBuffer(static_cast<GLsizeiptr>(idx.size() * 4), idx.data(), GL_STATIC_DRAW);
    }

    ParticleMaterial material_;
    RenderOptions options_;
    glm::mat3 plane_;        // --facing plane's (spritePlane)
    sim::FlameFrame flame_;  // --color-position's
    gl::VertexArray vao_;
    gl::Buffer vertexBuffer_, indexBuffer_, lookBuffer_, sideBuffer_;
    size_t vertexBytes_ = 0, lookBytes_ = 0, sideBytes_ = 0, indexSprites_ = 0, count_ = 0;
    std::vector<Instance> instances_;
    std::vector<Look> looks_, vertexLooks_;
    SortScratch scratch_;
    std::vector<QuadVertex> vertices_;
    std::vector<glm::vec3> sides_;  // with --lit: each corner's side (billboardCorner())
};

}  // namespace

extern constexpr StrategyEntry kBillboardsCpuStrategy{
    kInfo,
    [](const StrategyContext& c) -> std::unique_ptr<RenderStrategy> { return std::make_unique<BillboardsCpu>(c); }};

}  // namespace firelab::render

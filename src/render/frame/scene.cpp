#include "render/frame/scene.h"

#include <cmath>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "core/error.h"
#include "sim/stage.h"

namespace firelab::render {
namespace {

struct Vertex {
    glm::vec3 pos, normal, color;
};

void addBox(std::vector<Vertex>& out, const glm::mat4& m, const glm::vec3& half, const glm::vec3& color) {
    static const glm::vec3 n[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (const auto& f : n) {
        // Two axes spanning the face, ordered so the triangles wind counter-clockwise seen from outside.
        const glm::vec3 a = std::fabs(f.y) > 0.5f ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
        const glm::vec3 b = glm::cross(f, a);
        auto corner = [&](float s, float t) {
            const glm::vec3 local = (f + a * s + b * t) * half;
            return Vertex{glm::vec3(m * glm::vec4(local, 1.0f)), glm::normalize(glm::vec3(m * glm::vec4(f, 0.0f))),
                          color};
        };
        const Vertex v00 = corner(-1, -1), v10 = corner(1, -1), v01 = corner(-1, 1), v11 = corner(1, 1);
        out.insert(out.end(), {v00, v10, v11, v00, v11, v01});
    }
}

// fire_lights.glsl's block in std140.
struct LightBlock {
    glm::vec4 position[Scene::kMaxFireLights];
    glm::vec4 intensity[Scene::kMaxFireLights];
    GLint count;
    GLint fireLit;
    GLint pad[2];
};
static_assert(sizeof(LightBlock) == 2 * 16 * Scene::kMaxFireLights + 16);

}  // namespace

Scene::Scene(const std::filesystem::path& dataDir)
    : program_(dataDir / "shaders", {"scene.vert", "scene.frag"},
               {"MAX_FIRE_LIGHTS " + std::to_string(kMaxFireLights)}),
      lightBlock_(gl::makeBuffer(sizeof(LightBlock), nullptr, GL_DYNAMIC_DRAW)) {
    uploadLights();
    std::vector<Vertex> v;
    const glm::vec3 ground(0.16f, 0.14f, 0.12f);
    addBox(v, glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -0.05f, 0.0f)), {6.0f, 0.05f, 6.0f}, ground);
    for (const sim::StageBox& b : sim::stageBoxes()) addBox(v, b.toWorld, b.half, b.color);  // logs, stone
    vertexCount_ = static_cast<int>(v.size());
    vertices_ = gl::makeBuffer(static_cast<GLsizeiptr>(v.size() * sizeof(Vertex)), v.data(), GL_STATIC_DRAW);
    const GLuint a = vao_.id();
    for (GLuint i = 0; i < 3; ++i) {
        glEnableVertexArrayAttrib(a, i);
        glVertexArrayAttribFormat(a, i, 3, GL_FLOAT, GL_FALSE, i * 12);
        glVertexArrayAttribBinding(a, i, 0);
    }
    glVertexArrayVertexBuffer(a, 0, vertices_.id(), 0, sizeof(Vertex));
}

void Scene::draw(const Camera& camera) const {
    glClearColor(0.015f, 0.015f, 0.03f, 1.0f);
    glClearDepth(1.0);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glEnable(GL_CULL_FACE);
    program_.use();
    program_.set("uViewProj", camera.viewProj);
    bindLights();
    glBindVertexArray(vao_.id());
    glDrawArrays(GL_TRIANGLES, 0, vertexCount_);
    glDisable(GL_CULL_FACE);
    FIRELAB_GL_CHECK();
}

void Scene::setFireLights(std::span<const sim::PointLight> lights) {
    if (lights.size() > static_cast<size_t>(kMaxFireLights))
        throw Error(ErrorCode::BadValue, std::to_string(lights.size()) + " fire lights: the scene draws at most " +
                                             std::to_string(kMaxFireLights));
    fireLit_ = true;
    fireLightCount_ = static_cast<int>(lights.size());
    for (size_t k = 0; k < lights.size(); ++k)
        fireLightPos_[k] = lights[k].position, fireLightIntensity_[k] = lights[k].intensity;
    uploadLights();
}

void Scene::setStaticGlow() {
    fireLit_ = false, fireLightCount_ = 0;
    uploadLights();
}

void Scene::bindLights() const { glBindBufferBase(GL_UNIFORM_BUFFER, kLightBinding, lightBlock_.id()); }

void Scene::uploadLights() const {
    LightBlock b{};
    for (int k = 0; k < fireLightCount_; ++k)
        b.position[k] = glm::vec4(fireLightPos_[k], 1.0f), b.intensity[k] = glm::vec4(fireLightIntensity_[k], 0.0f);
    b.count = fireLightCount_;
    b.fireLit = fireLit_ ? 1 : 0;
    glNamedBufferSubData(lightBlock_.id(), 0, sizeof b, &b);
}

}  // namespace firelab::render

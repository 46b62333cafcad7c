// The stage the fire burns on, GL-free: the campfire's logs and the stone beside them as oriented boxes,
// declared once here. The scene draws them (render/frame/scene.cpp) and the grid fluid makes them solid
// cells (fluid/fluid_sim.h), so the flame the fluid computes flows round the logs the picture shows.
#pragma once
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace firelab::sim {

// A box of half-sizes `half` about the origin of its own frame, placed by `toWorld`.
struct StageBox {
    glm::mat4 toWorld{1.0f};
    glm::vec3 half{0.0f};
    glm::vec3 color{0.0f};  // linear rgb, the scene's
};

// The four logs crossed around the emitter (the origin), then the stone block in front.
inline std::vector<StageBox> stageBoxes() {
    std::vector<StageBox> boxes;
    const glm::vec3 wood(0.30f, 0.18f, 0.09f);
    for (int i = 0; i < 4; ++i) {
        const float a = static_cast<float>(i) * 1.5707964f + 0.4f;
        glm::mat4 m = glm::rotate(glm::mat4(1.0f), a, glm::vec3(0, 1, 0));
        m = glm::translate(m, glm::vec3(0.45f, 0.09f, 0.0f));
        m = glm::rotate(m, 0.35f, glm::vec3(0, 0, 1));
        boxes.push_back({m, {0.32f, 0.07f, 0.07f}, wood});
    }
    boxes.push_back(
        {glm::translate(glm::mat4(1.0f), glm::vec3(0.2f, 0.12f, 0.9f)), {0.14f, 0.12f, 0.12f}, {0.35f, 0.35f, 0.37f}});
    return boxes;
}

// Whether the world point p lies inside the box.
inline bool insideBox(const StageBox& b, const glm::vec3& p) {
    const glm::vec3 q = glm::vec3(glm::inverse(b.toWorld) * glm::vec4(p, 1.0f));
    return std::abs(q.x) <= b.half.x && std::abs(q.y) <= b.half.y && std::abs(q.z) <= b.half.z;
}

}  // namespace firelab::sim

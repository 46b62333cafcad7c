#include "sim/gradient.h"

#include <algorithm>

#include "sim/look.h"

namespace firelab::sim {

glm::vec4 evaluateGradient(const std::vector<ColorKey>& keys, float t) {
    if (keys.empty()) return glm::vec4(1.0f);
    t = std::clamp(t, 0.0f, 1.0f);
    if (t <= keys.front().t) return keys.front().rgba;
    for (size_t i = 1; i < keys.size(); ++i) {
        if (t <= keys[i].t) {
            const float span = keys[i].t - keys[i - 1].t;
            const float f = span > 0.0f ? (t - keys[i - 1].t) / span : 1.0f;
            return keys[i - 1].rgba + (keys[i].rgba - keys[i - 1].rgba) * f;
        }
    }
    return keys.back().rgba;
}

std::vector<glm::vec4> gradientLut(const std::vector<ColorKey>& keys) {
    std::vector<glm::vec4> lut(kGradientLutSize);
    for (int i = 0; i < kGradientLutSize; ++i)
        lut[static_cast<size_t>(i)] = evaluateGradient(keys, static_cast<float>(i) / (kGradientLutSize - 1));
    return lut;
}

std::vector<glm::vec4> gradientLut(const FireParams& p) {
    std::vector<glm::vec4> lut = gradientLut(p.gradient);
    if (p.color == ColorModel::Gradient) return lut;
    const bool perParticle = hasTemperatureVar(p);
    for (int i = 0; i < kGradientLutSize; ++i) {
        const float t = static_cast<float>(i) / (kGradientLutSize - 1);
        auto& c = lut[static_cast<size_t>(i)];
        c = glm::vec4(perParticle ? glm::vec3(1.0f) : temperatureTable(p).at(temperatureAt(p, t)), c.a);
    }
    return lut;
}

}  // namespace firelab::sim

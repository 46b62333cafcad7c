// Colour over normalised age: piecewise-linear interpolation between ColorKeys.
// evaluate() is exact; the renderers use a 256-entry table sampled from it (see lut()).
#pragma once
#include <vector>

#include <glm/vec4.hpp>

#include "sim/params.h"

namespace firelab::sim {

glm::vec4 evaluateGradient(const std::vector<ColorKey>& keys, float t);

// kGradientLutSize samples of the gradient at t = i / (kGradientLutSize - 1), RGBA.
inline constexpr int kGradientLutSize = 256;
std::vector<glm::vec4> gradientLut(const std::vector<ColorKey>& keys);

}  // namespace firelab::sim

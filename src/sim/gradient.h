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
// The model's colour table over t, which the renderers multiply by each particle's sim::lookTint: with
// --color gradient the gradient's; with blackbody, alpha the gradient's and rgb the blackbody colour at
// temperatureAt(t), or 1 with a temperature variance (each particle's colour is then its own, in lookTint).
std::vector<glm::vec4> gradientLut(const FireParams& p);

}  // namespace firelab::sim

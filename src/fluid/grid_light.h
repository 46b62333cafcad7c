// The light the grid fluid's gas sends, declared once for everything that reads it: the medium strategies draw it
// (render/particles/medium.h, gridKernels) and the fire probes measure it (physics/fire_probe.h). A cell at
// temperature T sends --emission x blackbodyRgb(T, reference) per metre of gas (linear sRGB), the reference the
// look's --temperature-ref (or its START): the particles' own blackbody colours and luminance scale, so that the
// grid and the particles under --color blackbody are drawn alike. Air at or below ambient sends nothing.
#pragma once
#include <glm/vec3.hpp>

#include "fluid/fluid_params.h"
#include "sim/blackbody.h"
#include "sim/params.h"

namespace firelab::fluid {

class GridLight {
public:
    GridLight(const FluidParams& fluid, const sim::FireParams& look);
    // Light per metre (linear rgb) of gas at `kelvin`.
    glm::vec3 at(float kelvin) const { return kelvin > ambient_ ? emission_ * table_->at(kelvin) : glm::vec3(0.0f); }
    float reference() const { return reference_; }

private:
    float ambient_, emission_, reference_;
    const sim::TemperatureTable* table_;
};

// The hottest temperature the light's table holds (hotter reads as this).
inline constexpr float kGridLightHottest = 10000.0f;  // K

}  // namespace firelab::fluid

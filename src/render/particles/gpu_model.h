// The fire model's parameters as uniforms of shaders/fire_model.glsl, for the GPU-simulated strategies.
#pragma once
#include "render/gl/shader.h"
#include "sim/params.h"
#include "sim/turbulence.h"

namespace firelab::render {

// Applies a TurbulenceField to a program's uWaveK/uWaveAmp/uWavePhase uniforms.
void setTurbulenceUniforms(const gl::Program& program, const sim::TurbulenceField& field);
// Applies the model parameters to a program's fire_model.glsl uniforms.
void setModelUniforms(const gl::Program& program, const sim::FireParams& params);

}  // namespace firelab::render

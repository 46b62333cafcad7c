#include "render/particles/gpu_model.h"

#include <cmath>

#include <glm/trigonometric.hpp>

#include "sim/emitter.h"
#include "sim/look.h"

namespace firelab::render {

void setTurbulenceUniforms(const gl::Program& program, const sim::TurbulenceField& field) {
    glm::vec3 k[sim::kTurbulenceWaves], amp[sim::kTurbulenceWaves];
    float phase[sim::kTurbulenceWaves];
    for (size_t i = 0; i < field.size(); ++i) k[i] = field[i].k, amp[i] = field[i].amp, phase[i] = field[i].phase;
    program.setArray("uWaveK", k, sim::kTurbulenceWaves);
    program.setArray("uWaveAmp", amp, sim::kTurbulenceWaves);
    program.setArray("uWavePhase", phase, sim::kTurbulenceWaves);
}

void setModelUniforms(const gl::Program& program, const sim::FireParams& p) {
    program.set("uShape", static_cast<int>(p.shape));
    program.set("uDistribution", static_cast<int>(p.distribution));
    program.set("uCenter", p.center);
    program.set("uExtent", p.extent);
    program.set("uSigma", p.sigma);
    program.set("uConeCos", std::cos(glm::radians(p.coneAngleDeg)));
    const sim::EmitterTransform transform = sim::emitterTransform(p);
    program.set("uEmitterRotated", transform.rotated ? 1 : 0);
    glProgramUniformMatrix3fv(program.id(), program.location("uEmitterRotation"), 1, GL_FALSE,
                              &transform.rotation[0][0]);
    program.set("uPathAmplitude", p.pathAmplitude);
    program.set("uPathFrequency", p.pathFrequency);
    program.set("uSpeedMean", p.speedMean);
    program.set("uSpeedVar", p.speedVar);
    program.set("uAccelMean", p.accelMean);
    program.set("uAccelVar", p.accelVar);
    program.set("uDrag", p.drag);
    program.set("uDragLaunch", p.dragOn == sim::DragOn::Launch ? 1 : 0);
    program.set("uGroundBounce", p.ground != sim::Ground::Off ? 1 : 0);
    program.set("uGroundHeight", p.groundHeight);
    program.set("uRestitution", p.restitution);
    program.set("uFriction", p.friction);
    program.set("uLifetimeMean", p.lifetimeMean);
    program.set("uLifetimeVar", p.lifetimeVar);
    program.set("uSizeStart", p.sizeStart);
    program.set("uSizeEnd", p.sizeEnd);
    program.set("uSizeVar", p.sizeVar);
    program.set("uColorVar", p.colorVar);
    program.set("uBounceFog", p.bounceFog);
    // A blackbody temperature variance: each particle's colour from its temperature (ParticleMaterial binds
    // the table); uTemperatureVar 0 leaves the tint alone.
    const bool perParticle = sim::hasTemperatureVar(p);
    program.set("uTemperatureVar", perParticle ? p.temperatureVar : 0.0f);
    program.set("uTemperatureSpan", p.temperature);
    const sim::TemperatureTable* table = perParticle ? &sim::temperatureTable(p) : nullptr;
    program.set("uTemperatureRange", table ? glm::vec2(table->lo, table->hi) : glm::vec2(0.0f, 1.0f));
    const sim::SpinRadians spin = sim::spinRadians(p);
    program.set("uRotationVar", spin.rotationVar);
    program.set("uSpin", spin.spin);
    program.set("uSpinVar", spin.spinVar);
    glProgramUniform2ui(program.id(), program.location("uSeed"), static_cast<GLuint>(p.seed),
                        static_cast<GLuint>(p.seed >> 32));
}

}  // namespace firelab::render

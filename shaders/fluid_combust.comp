#version 450 core
// The grid fluid's combustion (FluidSim::combust): fuel hotter than ignition burns, heating the gas and making
// soot; radiation cools the gas towards ambient (four explicit quarter steps, each at most down to ambient);
// soot decays. Each cell's temperature rise from burning goes to `released` (the heat release's sum).
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"

layout(std430, binding = 0) buffer Temperature { float temperature[]; };
layout(std430, binding = 1) buffer Fuel { float fuel[]; };
layout(std430, binding = 2) buffer Soot { float soot[]; };
layout(std430, binding = 3) readonly buffer Solid { uint solid[]; };
layout(std430, binding = 4) writeonly buffer Released { float released[]; };
uniform float uBurnt;  // 1 - exp(-burn-rate dt): the fraction of the fuel burnt this step
uniform float uKeep;   // exp(-soot-dissipation dt)
uniform float uIgnition, uHeat, uSootYield, uAmbient, uCooling, uDt;

float cooled(float t) {
    float ta4 = uAmbient * uAmbient * uAmbient * uAmbient;
    for (int q = 0; q < 4; ++q) {
        if (t <= uAmbient) break;
        float rate = uCooling * (t * t * t * t - ta4) / 1e9;
        t = max(uAmbient, t - rate * 0.25 * uDt);
    }
    return t;
}

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(c, uN))) return;
    uint i = cellIndex(c);
    released[i] = 0.0;
    if (solid[i] != 0u) return;
    float t = temperature[i], f = fuel[i], s = soot[i];
    if (t > uIgnition && f > 0.0) {
        float b = f * uBurnt;
        f -= b;
        t += uHeat * b;
        s += uSootYield * b;
        released[i] = uHeat * b;
    }
    temperature[i] = cooled(t);
    fuel[i] = f;
    soot[i] = s * uKeep;
}

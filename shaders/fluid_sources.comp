#version 450 core
// The grid fluid's sources (FluidSim::addSources): the cells the emitter's births fell in are raised to the
// source's fuel and temperature, and the faces they blow through set (each face once: fluid::SourceWrites).
layout(local_size_x = 64) in;

struct Face {
    uint field;  // 0 u, 1 v, 2 w
    uint index;
    float value;
};
layout(std430, binding = 0) readonly buffer Cells { uint cells[]; };
layout(std430, binding = 1) readonly buffer Faces { Face faces[]; };
layout(std430, binding = 2) buffer Temperature { float temperature[]; };
layout(std430, binding = 3) buffer Fuel { float fuel[]; };
layout(std430, binding = 4) buffer U { float u[]; };
layout(std430, binding = 5) buffer V { float v[]; };
layout(std430, binding = 6) buffer W { float w[]; };
uniform uint uCells, uFaces;
uniform float uFuel, uTemperature;

void main() {
    uint n = gl_GlobalInvocationID.x;
    if (n < uCells) {
        uint c = cells[n];
        fuel[c] = max(fuel[c], uFuel);
        temperature[c] = max(temperature[c], uTemperature);
    } else if (n < uCells + uFaces) {
        Face f = faces[n - uCells];
        if (f.field == 0u) u[f.index] = f.value;
        else if (f.field == 1u) v[f.index] = f.value;
        else w[f.index] = f.value;
    }
}

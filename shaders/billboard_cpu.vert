#version 450 core
// Corners already expanded on the CPU: pass through.
uniform mat4 uViewProj;
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec2 aUv;
layout(location = 2) in float aAge;
out vec2 vUv;
out float vAge;
void main() {
    gl_Position = uViewProj * vec4(aPos, 1.0);
    vUv = aUv;
    vAge = aAge;
}

#version 450 core
// The opaque scene, lit by the moon and the fire (fire_lights.glsl: the fitted point lights, or the static glow).
#include "fire_lights.glsl"
in vec3 vPos;
in vec3 vNormal;
in vec3 vColor;
out vec4 fragColor;

void main() { fragColor = vec4(vColor * lightAt(vPos, normalize(vNormal)), 1.0); }

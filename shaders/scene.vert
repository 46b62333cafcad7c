#version 450 core
// The opaque scene: world-space vertices with a normal and a colour.
uniform mat4 uViewProj;
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 aColor;
out vec3 vPos;
out vec3 vNormal;
out vec3 vColor;
void main() {
    vPos = aPos;
    vNormal = aNormal;
    vColor = aColor;
    gl_Position = uViewProj * vec4(aPos, 1.0);
}

#version 450 core
// The minimal billboard render_bench.cpp measures the billboard strategies against: a view-plane quad
// per Instance (instanced, corners from gl_VertexID), the colour looked up once per vertex, the
// flipbook's cell chosen per vertex (FLIPBOOK defined). No options, no uniform branches.
layout(location = 0) in vec4 aPosSize;
layout(location = 1) in vec4 aVelAge;
uniform mat4 uViewProj;
uniform vec3 uCamRight, uCamUp;
uniform sampler1D uGradient;
out vec2 vUv;
flat out vec4 vColor;  // the gradient's colour, premultiplied by its alpha
void main() {
    vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    vec3 p = aPosSize.xyz + (uCamRight * c.x + uCamUp * c.y) * (0.5 * aPosSize.w);
    gl_Position = uViewProj * vec4(p, 1.0);
    float t = clamp(aVelAge.w, 0.0, 1.0);
    vUv = c * 0.5 + 0.5;
#ifdef FLIPBOOK
    float frame = min(floor(aVelAge.w * 16.0), 15.0);
    vUv = (vec2(mod(frame, 4.0), 3.0 - floor(frame / 4.0)) + vUv) * 0.25;
#endif
    vec4 g = texture(uGradient, t);
    vColor = vec4(g.rgb * g.a, g.a);
}

#version 450 core
// One triangle over the whole target, for the frame's passes (depth downsample, edge mark, composite,
// tone map): vUv is 0..1 across the target.
out vec2 vUv;
void main() {
    vec2 p = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1)) - 1.0;  // (-1,-1) (3,-1) (-1,3)
    vUv = p * 0.5 + 0.5;
    gl_Position = vec4(p, 0.0, 1.0);
}

#version 450 core
// compute-splat: the light buffer onto the pass's target (blending adds it there), or in the counting
// passes the fragments counted. Drawn with fullscreen.vert.
#include "splat_accum.glsl"
uniform int uWidth;          // the pass's width: the buffer's row length
uniform int uCountOverdraw;  // DrawMode: 0 colour, else counts
out vec4 fragColor;
void main() {
    const uint at = 4u * uint(int(gl_FragCoord.y) * uWidth + int(gl_FragCoord.x));
    const uvec4 v = uvec4(accum[at], accum[at + 1u], accum[at + 2u], accum[at + 3u]);
    if (v == uvec4(0u)) discard;
    fragColor = uCountOverdraw != 0 ? vec4(float(v.w)) : vec4(vec3(v.xyz) / kLightScale, 0.0);
}

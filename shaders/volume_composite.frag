#version 450 core
// volume: the integrated grid onto the pass's target at each pixel's scene depth (trilinear: between
// columns and between slices), premultiplied over the scene; in the counting passes, 1 for each pixel the
// medium reaches (the fragments that survive) or the cells its column touched (the work shaded).
#include "view_depth.glsl"
uniform sampler3D uIntegrated;
uniform sampler2D uTouched;
uniform sampler2D uSceneDepth;
uniform bool uHasDepth;
uniform vec2 uPassSize;
uniform vec2 uGridScale;   // the frame's size over the grid's (columns x cell pixels)
uniform vec2 uDepthRange;  // the grid's first slice's near depth; its slice depth
uniform int uSlices;
uniform int uCountOverdraw;  // DrawMode: 0 colour, 1 visible, 2 shaded
out vec4 fragColor;
void main() {
    vec2 uv = gl_FragCoord.xy / uPassSize * uGridScale;
    float depth = 3.0e38;
    if (uHasDepth) {
        float d = texelFetch(uSceneDepth, ivec2(gl_FragCoord.xy), 0).r;
        if (d < 1.0) depth = viewDistance(d);
    }
    float layer = clamp((depth - uDepthRange.x) / uDepthRange.y, 0.0, float(uSlices));
    vec4 m = texture(uIntegrated, vec3(uv, (layer + 0.5) / float(uSlices + 1)));
    vec4 out_ = vec4(m.rgb, 1.0 - m.a);
    if (uCountOverdraw == 2) {
        float touched = texture(uTouched, uv).r;
        if (touched <= 0.0) discard;
        fragColor = vec4(touched);
        return;
    }
    if (out_.a <= 0.0 && out_.rgb == vec3(0.0)) discard;
    fragColor = uCountOverdraw != 0 ? vec4(1.0) : out_;
}

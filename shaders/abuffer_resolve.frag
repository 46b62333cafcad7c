#version 450 core
// --sort abuffer's resolve: the pixel's list, sorted by view distance, composited front to back:
// C += T * c, T *= 1 - a; written as (C, T) over the frame with blending (ONE, SRC_ALPHA): frame = C + T frame.
// The exact order of every alpha fragment, up to MAX_PER_PIXEL a pixel (the rest are counted as overflow).
#include "abuffer.glsl"
#ifndef MAX_PER_PIXEL
#define MAX_PER_PIXEL 256  // render::kAbufferMaxPerPixel compiles it in
#endif
const int kMaxPerPixel = MAX_PER_PIXEL;
out vec4 fragColor;
void main() {
    uvec4 nodes[kMaxPerPixel];
    int n = 0;
    uint dropped = 0u;
    for (uint i = imageLoad(uAbufferHeads, ivec2(gl_FragCoord.xy)).r; i != kEndOfList;) {
        uvec4 node = abufferLoad(i);
        if (n < kMaxPerPixel) nodes[n++] = node;
        else ++dropped;
        i = node.w;
    }
    if (n == 0) discard;
    if (dropped > 0u) atomicAdd(abufferOverflow, dropped);
    atomicMax(abufferMaxDepth, uint(n) + dropped);
    for (int i = 1; i < n; ++i) {  // insertion sort, nearest first: lists are short and nearly any order
        uvec4 key = nodes[i];
        float d = abufferDistance(key);
        int j = i - 1;
        for (; j >= 0 && abufferDistance(nodes[j]) > d; --j) nodes[j + 1] = nodes[j];
        nodes[j + 1] = key;
    }
    vec3 color = vec3(0.0);
    float transmittance = 1.0;
    for (int i = 0; i < n; ++i) {
        vec4 c = abufferColor(nodes[i]);
        color += transmittance * c.rgb;
        transmittance *= 1.0 - c.a;
    }
    fragColor = vec4(color, transmittance);
}

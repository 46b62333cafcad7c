// What the composite and the edge mark share: the scene's depth at full and low resolution, as view
// distance, and the low-resolution neighbours a full-resolution pixel is upsampled from.
uniform sampler2D uDepth;     // full-resolution scene depth
uniform sampler2D uLowDepth;  // the particle pass's depth (farthest of each block)
uniform float uEdgeRatio;     // neighbours whose distance differs by more than this fraction disagree
#include "view_depth.glsl"

// The four low-resolution texels around the pixel's centre (the bilinear footprint), clamped.
void lowNeighbours(vec2 uv, out ivec2 texel[4]) {
    ivec2 size = textureSize(uLowDepth, 0);
    ivec2 base = ivec2(floor(uv * vec2(size) - 0.5));
    for (int i = 0; i < 4; ++i) texel[i] = clamp(base + ivec2(i & 1, i >> 1), ivec2(0), size - 1);
}

// Index of the neighbour whose distance is nearest the pixel's, or -1 where all agree with it (then
// bilinear filtering is right).
int nearestDepthNeighbour(vec2 uv) {
    ivec2 texel[4];
    lowNeighbours(uv, texel);
    float d = viewDistance(texelFetch(uDepth, ivec2(gl_FragCoord.xy), 0).r);
    int best = 0;
    float bestDiff = 1e30, worst = 0.0;
    for (int i = 0; i < 4; ++i) {
        float diff = abs(viewDistance(texelFetch(uLowDepth, texel[i], 0).r) - d);
        if (diff < bestDiff) bestDiff = diff, best = i;
        worst = max(worst, diff);
    }
    return worst > uEdgeRatio * d ? best : -1;
}

#version 450 core
// The low-resolution particles over the full-resolution scene: frame = scene * T + C, with blending
// (ONE, SRC_ALPHA), where the pass accumulated colour C and transmittance T. Upsampled bilinearly, or with
// NEAREST_DEPTH from the neighbour nearest in depth where the neighbours' depths disagree (a variant: the
// depth test costs even where it is not taken).
#ifndef NEAREST_DEPTH
#define NEAREST_DEPTH 1
#endif
#include "upsample.glsl"
uniform sampler2D uParticles;  // RGBA16F: colour, transmittance
in vec2 vUv;
out vec4 fragColor;
void main() {
    if (NEAREST_DEPTH == 1) {
        int n = nearestDepthNeighbour(vUv);
        if (n >= 0) {
            ivec2 texel[4];
            lowNeighbours(vUv, texel);
            fragColor = texelFetch(uParticles, texel[n], 0);
            return;
        }
    }
    fragColor = texture(uParticles, vUv);
}

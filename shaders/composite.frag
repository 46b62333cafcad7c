#version 450 core
// The low-resolution particles over the full-resolution scene: frame = scene * T + C, with blending
// (ONE, SRC_ALPHA), where the pass accumulated colour C and transmittance T.
#include "upsample.glsl"
uniform sampler2D uParticles;  // RGBA16F: colour, transmittance
uniform int uNearestDepth;     // 1: nearest-depth upsampling where the neighbours' depths disagree
in vec2 vUv;
out vec4 fragColor;
void main() {
    if (uNearestDepth == 1) {
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

#version 450 core
// Edge fix-up: keeps (for the stencil) the pixels whose low-resolution neighbours straddle a depth edge;
// particles are drawn there again at full resolution instead of upsampled.
#include "upsample.glsl"
in vec2 vUv;
void main() {
    if (nearestDepthNeighbour(vUv) < 0) discard;
}

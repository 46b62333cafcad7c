// Soft particles (Lorach 2007), for fragment shaders and compute rasterisers: a fragment fades by its
// view distance to the opaque scene behind it, so sprites meet the ground and logs without a hard line.
// Included after particle_common.glsl.
uniform sampler2D uSceneDepth;  // the scene's depth at the pass's size (DrawPass::sceneDepth)
uniform float uSoft;            // 1 / fade distance (m)
#include "view_depth.glsl"

// 1 far from the scene, falling linearly to 0 where a particle at `depth` meets the scene at
// `sceneDepth` (both depth-buffer values).
float softFadeAt(float sceneDepth, float depth) {
    return clamp((viewDistance(sceneDepth) - viewDistance(depth)) * uSoft, 0.0, 1.0);
}

#ifndef SOFT_PARTICLES_NO_FRAGMENT  // compute shaders (compute_splat.comp) have no gl_FragCoord
// softFadeAt() for this fragment (always 1 without SOFT).
float softFade() {
    if (SOFT == 0) return 1.0;
    return softFadeAt(texelFetch(uSceneDepth, ivec2(gl_FragCoord.xy), 0).r, gl_FragCoord.z);
}
#endif

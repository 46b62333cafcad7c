#version 450 core
// The low-resolution particle pass's depth: the farthest scene depth of the full-resolution block under
// each low-resolution pixel, so a particle is hidden only where the scene hides all of the block.
uniform sampler2D uDepth;  // the scene's full-resolution depth
uniform ivec2 uLowSize;    // this pass's size
void main() {
    ivec2 full = textureSize(uDepth, 0);
    vec2 ratio = vec2(full) / vec2(uLowSize);
    ivec2 lo = ivec2(floor((gl_FragCoord.xy - 0.5) * ratio));
    ivec2 hi = min(ivec2(ceil((gl_FragCoord.xy + 0.5) * ratio)), full) - 1;
    float farthest = 0.0;
    for (int y = lo.y; y <= hi.y; ++y)
        for (int x = lo.x; x <= hi.x; ++x) farthest = max(farthest, texelFetch(uDepth, ivec2(x, y), 0).r);
    gl_FragDepth = farthest;
}

#version 450 core
// The heat-haze pass: the frame so far (the opaque scene, before the fire) seen through the haze layers' summed
// screen-space offsets (haze.frag). A pixel no haze touches is discarded, so a zero offset leaves the frame as it
// was, bit for bit. The pass runs inside the haze's screen rectangle (the frame pipeline's scissor) and reads the
// scene's copy inside uReadRect, a margin beyond it: an offset that would reach farther is clamped there.
uniform sampler2D uOffsets;  // RG16F: pixels
uniform sampler2D uScene;    // a copy of the frame's colour, fresh inside uReadRect
uniform vec4 uReadRect;      // the copy's pixels: (x0, y0, x1, y1)
layout(location = 0) out vec4 fragColor;
void main() {
    vec2 offset = texelFetch(uOffsets, ivec2(gl_FragCoord.xy), 0).rg;
    if (offset == vec2(0.0)) discard;
    vec2 at = clamp(gl_FragCoord.xy + offset, uReadRect.xy + 0.5, uReadRect.zw - 0.5);
    fragColor = texture(uScene, at / vec2(textureSize(uScene, 0)));
}

#version 450 core
// The heat-haze pass: the frame so far (the opaque scene, before the fire) seen through the haze layers' summed
// screen-space offsets (haze.frag). A pixel no haze touches is discarded, so a zero offset leaves the frame as it
// was, bit for bit.
uniform sampler2D uOffsets;  // RG16F: pixels
uniform sampler2D uScene;    // a copy of the frame's colour
layout(location = 0) out vec4 fragColor;
void main() {
    vec2 offset = texelFetch(uOffsets, ivec2(gl_FragCoord.xy), 0).rg;
    if (offset == vec2(0.0)) discard;
    fragColor = texture(uScene, (gl_FragCoord.xy + offset) / vec2(textureSize(uScene, 0)));
}

#version 450 core
// Corners already expanded on the CPU: pass through, with the particle's colour and sprite frame. The CPU
// computed the camera fade from the particle's centre (and left out the particles faded wholly).
#include "particle_common.glsl"
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec2 aUv;
layout(location = 2) in float aAge;
layout(location = 3) in vec4 aLook;  // tint (render::Look; the CPU turned the corners)
layout(location = 4) in float aFade;  // render::cameraFadeAt of the particle's centre; 1 without --camera-fade
layout(location = 5) in vec3 aSide;   // with --lit: the corner's place across the sprite along its unit axes
layout(location = 6) in float aColorAt;  // sim::colorCoordinate of the particle (its age t without --color-position)
#define PARTICLE_EMITS
#include "particle_light.glsl"
out vec2 vUv;
flat out vec4 vColor;
flat out vec4 vNext;  // flipbookNext()
void main() {
    gl_Position = uViewProj * vec4(aPos, 1.0);
    litVertex(aPos, aSide, billboardBack(aPos));  // (viewpoint facing: towards the eye from the corner, not the centre)
    vUv = spriteUv(aUv, flipbookCell(aAge));
    vNext = flipbookNext(aAge);
    vColor = tinted(particleColor(aAge, aColorAt), aLook.rgb) * vec4(1.0, 1.0, 1.0, aFade);
}

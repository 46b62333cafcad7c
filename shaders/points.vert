#version 450 core
// GL_POINTS with a perspective-correct size: the point covers what a view-plane quad of the same
// world size covers. Used by `points` and `point-sprites`.
#include "particle_common.glsl"
#define PARTICLE_EMITS
#include "particle_light.glsl"
layout(location = 0) in vec4 aPosSize;
layout(location = 1) in vec4 aVelAge;
layout(location = 2) in vec4 aLook;  // tint, angle (render::Look)
flat out vec4 vColor;
flat out vec2 vCell;
flat out vec4 vNext;  // flipbookNext()
flat out float vAngle;  // the sprite's turn (radians), for point-sprites
void main() {
    float fade = cameraFade(aPosSize.xyz);
    gl_Position = fade > 0.0 ? uViewProj * vec4(aPosSize.xyz, 1.0) : kCulledPosition;
    // The implementation clamps gl_PointSize to its GL_POINT_SIZE_RANGE: the harness counts the particles it
    // clamps (points_clamped_fraction, render::pointPixels).
    gl_PointSize = max(1.0, aPosSize.w * uProjScale / gl_Position.w);
    vColor = tinted(particleColor(aVelAge.w, colorCoordinate(aVelAge.w, aPosSize.xyz)), aLook.rgb) *
             vec4(1.0, 1.0, 1.0, fade);
    vCell = flipbookCell(aVelAge.w);
    vNext = flipbookNext(aVelAge.w);
    vAngle = aLook.w;
    litVertex(aPosSize.xyz, vec3(0.0), billboardBack(aPosSize.xyz));  // a point is lit at its centre, facing the viewer
}

#version 450 core
// Pass-through: the geometry shader expands each point into a quad.
layout(location = 0) in vec4 aPosSize;
layout(location = 1) in vec4 aVelAge;
layout(location = 2) in vec4 aLook;
out vec4 gPosSize;
out vec4 gVelAge;
out vec4 gLook;
void main() {
    gPosSize = aPosSize;
    gVelAge = aVelAge;
    gLook = aLook;
}

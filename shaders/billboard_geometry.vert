#version 450 core
// Pass-through: the geometry shader expands each point into a quad.
layout(location = 0) in vec4 aPosSize;
layout(location = 1) in vec4 aVelAge;
out vec4 gPosSize;
out vec4 gVelAge;
void main() {
    gPosSize = aPosSize;
    gVelAge = aVelAge;
}

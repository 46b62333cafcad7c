// A GL context for the GL tests: created once (a debug context, headless through SDL's offscreen EGL
// driver where there is no display). Where none can be made the tests skip with the reason, except
// under CI (CI=true), where that is a failure: CI must prove the GL paths.
#pragma once
#ifndef FIRELAB_GL_TIER
#error "support/gl_fixture.h makes a GL context: only *_gltest.cpp files (firelab_gl_tests) may use it"
#endif
#include <epoxy/gl.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "harness/draw/capture.h"
#include "render/gl/gl_context.h"
#include "core/error.h"

namespace firelab::testing {

class GlTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (context_ || !failure_.empty()) return;
        try {
            context_ = std::make_unique<gl::Context>(gl::ContextOptions{.debug = true});
        } catch (const Error& e) {
            failure_ = e.what();
        }
    }
    void SetUp() override {
        if (context_) {
            context_->makeCurrent();  // a test may have made its own (a harness::Runner's)
            context_->clearDebugMessages();
            return;
        }
        if (std::getenv("CI")) FAIL() << "no GL context under CI: " << failure_;
        GTEST_SKIP() << "no GL context: " << failure_;
    }
    void TearDown() override {
        if (!context_) return;
        for (const auto& m : context_->debugMessages())
            if (m.severity == GL_DEBUG_SEVERITY_HIGH) ADD_FAILURE() << "high-severity GL message: " << m.text;
    }

    static gl::Context& context() { return *context_; }

    // Embers that fly up, fall and bounce on a plane 0.2 m up (the ground tests' and SamePicture's fire).
    static sim::FireParams bouncingEmbers() {
        sim::FireParams p;
        p.accelMean = {0.0f, -6.0f, 0.0f};
        p.speedMean = {0.0f, 2.5f, 0.0f};
        p.ground = sim::Ground::Bounce;
        p.groundHeight = 0.2f;
        p.restitution = 0.6f;
        p.friction = 0.2f;
        return p;
    }

    // Small, quick capture settings over the repository's data.
    static harness::CaptureSettings smallCapture(std::vector<std::string> strategies, int particles = 3000) {
        harness::CaptureSettings s;
        s.strategies = std::move(strategies);
        s.params.particles = static_cast<uint32_t>(particles);
        s.time = 1.5f;
        s.width = 192;
        s.height = 144;
        s.dataDir = FIRELAB_SOURCE_DIR;
        s.render.hdr = false;  // the 8-bit look, in which sceneOnly() and the tests' thresholds are written
        s.fireLight = 0;       // the static glow: the golden frames and thresholds predate the fire light
        return s;
    }

private:
    static inline std::unique_ptr<gl::Context> context_;
    static inline std::string failure_;
};

}  // namespace firelab::testing

// Runs `f`, expecting a firelab::Error, and returns it so a test can check its identity (code) and text.
// Fails the test (and returns an Io error with an empty message) when nothing was thrown.
#pragma once
#include <gtest/gtest.h>

#include "core/error.h"

namespace firelab::testing {

template <class F>
Error errorOf(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "expected a firelab::Error";
    return Error(ErrorCode::Io, "");
}

}  // namespace firelab::testing

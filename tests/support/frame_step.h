// The fixed step most tests advance a fire by: one frame at 60 Hz, as `--dt`'s default.
#pragma once

namespace firelab {

inline constexpr float kDt = 1.0f / 60.0f;

}  // namespace firelab

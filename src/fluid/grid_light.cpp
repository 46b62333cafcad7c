#include "fluid/grid_light.h"

#include <map>
#include <memory>
#include <mutex>

namespace firelab::fluid {
namespace {
// The blackbody table of each reference temperature, built once per process (a few ms each) and never freed.
const sim::TemperatureTable& tableFor(float reference) {
    static std::mutex mutex;
    static std::map<float, std::unique_ptr<sim::TemperatureTable>> tables;
    const std::lock_guard<std::mutex> lock(mutex);
    auto& t = tables[reference];
    if (!t) t = std::make_unique<sim::TemperatureTable>(sim::temperatureTable(0.0f, kGridLightHottest, reference));
    return *t;
}
}  // namespace

GridLight::GridLight(const FluidParams& fluid, const sim::FireParams& look)
    : ambient_(fluid.ambient),
      emission_(fluid.emission),
      reference_(look.temperatureRef > 0.0f ? look.temperatureRef : look.temperature.x),
      table_(&tableFor(reference_)) {}

}  // namespace firelab::fluid

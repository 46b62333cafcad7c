// What a setting is beside its name, value and range: the attributes the setting visitors declare
// (sim::visitParams, render::visitRenderOptions, harness::visitRunSettings) and every front end derives
// its behaviour from, instead of keeping lists of names beside them.
//
//   v.choice("hull", o.hull, kHullNames, "sprite geometry ...", kColumn | kLayer | kApproximation);
//   section(v, "Motion");  // a banner: the settings that follow belong to the viewer's Motion panel
//
// A visitor takes the attributes as the last argument of each entry (`unsigned attrs = 0`). The kind of a
// value is the visitor method itself (scalar, vec3, gradient, path, ...): a vector's or a gradient's text
// holds commas, so its lists use ';'; a path is one value, never a list or a range.
#pragma once
#include <string_view>

namespace firelab::core {

enum SettingAttr : unsigned {
    kNoAttr = 0,
    kColumn = 1u << 0,         // runs.csv has a column for it (its name with '_' for '-')
    kSweepWide = 1u << 1,      // one value for a whole sweep: never an axis, never in a run key
    kLayer = 1u << 2,          // a layer of an effect may set it (its look); the others are the frame's
    kApproximation = 1u << 3,  // a fill-rate approximation: a quality reference returns it to its default
    kOpenRange = 1u << 4,      // a number whose range excludes both ends: (lo, hi)
    kClosedRange = 1u << 5,    // a number whose range includes both ends even when lo is 0: [0, hi]
};

// Announces that the settings after it belong to `title` (the viewer's panels), for the visitors that
// have a section(std::string_view) member; the others never see it.
template <class V>
constexpr void section(V& v, std::string_view title) {
    if constexpr (requires { v.section(title); }) v.section(title);
}

// A table of names that parallels an enum with a trailing Count enumerator: one name per enumerator, none
// empty. static_assert(core::namesEveryValue<Blend>(kBlendNames)) ties them at compile time.
template <class E, class Names>
constexpr bool namesEveryValue(const Names& names) {
    if (names.size() != static_cast<size_t>(E::Count)) return false;
    for (const auto& n : names)
        if (n.empty()) return false;
    return true;
}

}  // namespace firelab::core

// The fuels a mixing-limited fire burns (--fuel, under --combustion mixing): each one's formula and the constants
// fire science tabulates for it, declared once here; docs/fluid.md lists them from this table. The stoichiometric
// air follows from the formula (a hydrocarbon CxHy takes x + y/4 moles of O2 a mole), not from a second table.
#pragma once
#include <array>
#include <string_view>

#include "fluid/fluid_params.h"

namespace firelab::fluid {

struct FuelProperties {
    std::string_view name;
    int carbon = 0, hydrogen = 0;    // the formula CxHy
    double heatOfCombustion = 0.0;   // kJ per kg of fuel, the net (lower) heat of complete combustion
    double radiativeFraction = 0.0;  // the share of the heat released that leaves as radiation
    double sootYield = 0.0;          // kg of soot per kg of fuel burnt
    std::string_view source;         // where the three figures come from
};

inline constexpr auto kFuels = std::to_array<FuelProperties>({
    {"propane", 3, 8, 46000.0, 0.29, 0.024,
     "Tewarson, SFPE Handbook (3rd ed.) ch. 3-4, table 3-4.14: propane's heat of combustion, radiative fraction and "
     "soot yield"},
    {"methane", 1, 4, 50000.0, 0.15, 0.0,
     "Tewarson, SFPE Handbook (3rd ed.) ch. 3-4: methane's heat of combustion; its radiative fraction as "
     "McCaffrey's and the MaCFP methane burners measured (0.15-0.2); no soot"},
});
static_assert(kFuels.size() == kFuelNames.size());
consteval bool fuelTableMatchesNames() {
    for (size_t i = 0; i < kFuels.size(); ++i)
        if (kFuels[i].name != kFuelNames[i]) return false;
    return true;
}
static_assert(fuelTableMatchesNames());

inline const FuelProperties& fuelOf(Fuel f) { return kFuels[static_cast<size_t>(f)]; }

inline constexpr double kOxygenInAir = 0.232;  // mass fraction of O2 in dry air
// kg of air that burns one kg of the fuel completely (propane: 15.6, methane: 17.2).
constexpr double stoichiometricAir(const FuelProperties& f) {
    const double molarMass = 12.011 * f.carbon + 1.008 * f.hydrogen;           // g/mol
    const double oxygen = (f.carbon + f.hydrogen / 4.0) * 31.998 / molarMass;  // kg O2 per kg fuel
    return oxygen / kOxygenInAir;
}

}  // namespace firelab::fluid

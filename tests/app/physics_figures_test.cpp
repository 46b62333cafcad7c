// scripts/physics_figures.py on records the commands write: a fire of the model's own (its power inferred), a
// parameterised pool from an experiment, and a CFD record of the pool's size, which takes the pool's correlations.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "harness/platform/process.h"
#include "support/cli_in_process.h"

namespace firelab::testing {
namespace {

const std::string kSource = FIRELAB_SOURCE_DIR;

class PhysicsFigures : public Cli {
protected:
    const std::string kWindow = " --time 4 --dt 0.0333333 --min-frequency 1 --top 3 --bin 0.1 --particles 1500";
    int script(const std::string& args, std::string* said) const {
        return harness::runProcess({"/bin/sh", "-c", "/usr/bin/python3 " + kSource + "/scripts/" + args + " 2>&1"},
                                   said);
    }
    static std::string text(const fs::path& p) {
        std::ifstream in(p);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
};

TEST_F(PhysicsFigures, DrawsAndTabulatesEveryRecordBesideItsCorrelations) {
    ASSERT_EQ(run("physics --color blackbody --out " + path("r/paper") + kWindow).code, 0);
    const fs::path file = dir_ / "pools.toml";
    std::ofstream(file) << "[sweep]\nfire-diameter = [0.3]\nheat-release = [30]\n";
    ASSERT_EQ(run("physics --experiment " + file.string() + " --out " + path("r/pools") + kWindow).code, 0);
    std::string said;
    ASSERT_EQ(script("cfd_reduce.py " + kSource + "/tests/physics/data/cfd_probes --out " + (dir_ / "r/cfd").string() +
                         " --start 0.2 --end 4.2 --dt 0.02 --diameter 0.3 --heat-release 30 --case smallPoolFire2D",
                     &said),
              0)
        << said;
    ASSERT_EQ(script("physics_figures.py " + (dir_ / "r").string(), &said), 0) << said;
    for (const char* png : {"flame_height.png", "centreline.png", "puffing.png"})
        EXPECT_GT(fs::file_size(dir_ / "r" / png), 10000u) << png;
    const std::string table = text(dir_ / "r" / "table.md");
    EXPECT_NE(table.find("| paper's default | 0.7 | "), std::string::npos) << table;
    EXPECT_NE(table.find(" (inferred) |"), std::string::npos) << table;  // the paper's fire has no power of its own
    // Heskestad's 0.235 x 30^(2/5) - 1.02 x 0.3 = 0.610 m beside the pool and beside the CFD of its size.
    EXPECT_NE(table.find("| pool 0.3 m, 30 kW | 0.3 | 30 | "), std::string::npos) << table;
    EXPECT_NE(table.find("| fireFoam smallPoolFire2D | 0.3 | 30 | 0.55 | 0.61 | -10 % |"), std::string::npos) << table;

    // A CFD record of a size no firelab record has: refused, naming it.
    fs::remove_all(dir_ / "r" / "pools");
    EXPECT_NE(script("physics_figures.py " + (dir_ / "r").string(), &said), 0);
    EXPECT_NE(said.find("no firelab record of its size and power"), std::string::npos) << said;
}

}  // namespace
}  // namespace firelab::testing

// The grid fluid's bad input through the command line in process (support/cli_in_process.h): each refused with
// exit 2 before anything is written or drawn, the message naming the flag, the value and what is allowed.
#include <gtest/gtest.h>

#include "support/cli_in_process.h"

namespace firelab::testing {
namespace {

struct Refusal {
    const char* what;
    std::string args;
    std::vector<std::string> mentions;  // substrings of stderr
};

class FluidCli : public Cli {
protected:
    void expectRefused(const Refusal& c) {
        SCOPED_TRACE(c.what);
        const Outcome r = run(c.args);
        EXPECT_EQ(r.code, 2) << r.err;
        for (const auto& m : c.mentions) EXPECT_TRUE(contains(r.err, m)) << "stderr lacks '" << m << "': " << r.err;
        EXPECT_FALSE(contains(r.err, "terminate called")) << r.err;
    }
};

TEST_F(FluidCli, BadGridsCellsStepsAndSolversAreRefused) {
    const std::string out = " --strategy volume --model fluid --csv " + path("r.csv") + " --frames 1 --warmup 0";
    for (const Refusal& c : std::vector<Refusal>{
             {"axis too small", "run --grid 2" + out, {"--grid 2", "[4, 512]"}},
             {"axis too large", "run --grid 64x600x64" + out, {"--grid 64x600x64", "[4, 512]"}},
             {"not a grid", "run --grid 64x64" + out, {"--grid '64x64'", "NXxNYxNZ"}},
             {"a range is no grid", "run --grid 32..64x2" + out, {"--grid", "NXxNYxNZ"}},
             {"grid beyond the bound",
              "run --grid 512 --cell 0.01" + out,
              {"--grid 512x512x512", "512x512x256", "GiB"}},
             {"cell 0", "run --cell 0" + out, {"--cell 0", "(0, 10]"}},
             {"CFL", "run --cell 0.001 --dt 0.5" + out, {"--cell 0.001", "--dt 0.5", "sub-step", "--max-cfl"}},
             {"negative iterations", "run --solver-iterations -1" + out, {"--solver-iterations", "[0, 100000]"}},
             {"neither a bound nor a tolerance",
              "run --solver-iterations 0 --solver-tolerance 0" + out,
              {"--solver-iterations 0", "--solver-tolerance 0", "neither"}},
             {"unknown solver", "run --solver sor" + out, {"--solver", "sor", "jacobi", "pcg", "mgpcg"}},
             {"a grid multigrid cannot halve",
              "run --solver mgpcg --grid 32x63x32" + out,
              {"--solver mgpcg", "32x63x32", "y", "odd"}},
             {"no threads", "run --threads 0" + out, {"--threads 0"}},
             {"more threads than cores", "run --threads 4096" + out, {"--threads 4096"}},
             {"unknown device", "run --fluid-device tpu" + out, {"--fluid-device", "tpu", "auto", "gpu", "cpu"}},
             {"grid colour without the fluid's particles",
              "run --strategy billboards-instanced --color grid --csv " + path("r.csv"),
              {"--color grid", "--motion fluid"}},
             {"physics bins finer than a cell",
              "physics --model fluid --cell 0.1 --bin 0.05 --time 16 --out " + path("phys"),
              {"--bin 0.05", "--cell 0.1", "at least --cell"}},
             {"motion without the grid",
              "run --strategy billboards-instanced --motion fluid --csv " + path("r.csv"),
              {"--motion fluid", "--model fluid"}},
             {"medium grid without the grid",
              "run --strategy volume --medium grid --csv " + path("r.csv"),
              {"--medium grid", "--model fluid"}},
             {"sprites of a fluid need --motion fluid",
              "run --strategy billboards-instanced --model fluid --csv " + path("r.csv"),
              {"--model fluid", "billboards-instanced", "--motion fluid"}},
             {"a GPU-simulated strategy cannot follow the fluid",
              "run --strategy gpu-stateless --model fluid --motion fluid --csv " + path("r.csv"),
              {"--motion fluid", "gpu-stateless", "GPU"}},
         })
        expectRefused(c);
    EXPECT_FALSE(fs::exists(dir_ / "r.csv")) << "nothing is written before the checks pass";
    EXPECT_FALSE(fs::exists(dir_ / "phys")) << "nor a physics record";
}

}  // namespace
}  // namespace firelab::testing

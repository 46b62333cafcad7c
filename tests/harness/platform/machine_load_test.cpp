// The quiet-machine check's arithmetic, from /proc/stat's text, and one live sample.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "harness/platform/machine_load.h"

namespace firelab::harness {
namespace {

TEST(MachineLoad, ProcStatCountsWorkNotIdleOrIowait) {
    const auto t = parseProcStat("cpu  100 5 20 800 40 3 2 1 7 0\ncpu0 50 2 10 400 20 1 1 0 3 0\nintr 1\n");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->busy, 100u + 5 + 20 + 3 + 2 + 1);  // guest time is inside user already
    EXPECT_EQ(t->total, 100u + 5 + 20 + 800 + 40 + 3 + 2 + 1);
    const auto old = parseProcStat("cpu 10 0 5 100\n");  // a kernel with four columns
    ASSERT_TRUE(old);
    EXPECT_EQ(old->busy, 15u);
    EXPECT_EQ(old->total, 115u);
}

TEST(MachineLoad, ProcStatWithoutTheAggregateLineIsUnknown) {
    EXPECT_FALSE(parseProcStat(""));
    EXPECT_FALSE(parseProcStat("cpu0 1 2 3 4\n"));
    EXPECT_FALSE(parseProcStat("cpu 1 2\n"));
    EXPECT_FALSE(parseProcStat("cpu x y z w\n"));
}

TEST(MachineLoad, OtherProcessesAreTheBusyCoresLessFirelabsOwn) {
    // Two cores over one second: 150 of 200 ticks busy is 1.5 cores, firelab used 0.4 of them.
    const MachineLoad m = machineLoadBetween({1000, 4000}, {1150, 4200}, 1.0, 0.4, 2);
    ASSERT_TRUE(m.known);
    EXPECT_DOUBLE_EQ(m.busyCores, 1.5);
    EXPECT_DOUBLE_EQ(m.ownCores, 0.4);
    EXPECT_DOUBLE_EQ(m.otherCores(), 1.1);
    EXPECT_FALSE(machineIsQuiet(m));
    const std::string text = describeLoad(m);
    EXPECT_NE(text.find("1.10 of 2 cores"), std::string::npos) << text;

    const MachineLoad quiet = machineLoadBetween({1000, 4000}, {1020, 4200}, 1.0, 0.15, 2);
    EXPECT_NEAR(quiet.otherCores(), 0.05, 1e-12);
    EXPECT_TRUE(machineIsQuiet(quiet));
    // Firelab's own time is counted by another clock: it never makes the others' use negative.
    EXPECT_EQ(machineLoadBetween({0, 0}, {10, 200}, 1.0, 0.5, 2).otherCores(), 0.0);
    // A counter that did not move (or went back) says nothing: unknown, and taken as quiet.
    const MachineLoad stuck = machineLoadBetween({5, 100}, {5, 100}, 1.0, 0.0, 2);
    EXPECT_FALSE(stuck.known);
    EXPECT_TRUE(machineIsQuiet(stuck));
    EXPECT_NE(describeLoad(stuck).find("could not be read"), std::string::npos);
}

TEST(MachineLoad, ABusyThreadOfFirelabsOwnIsCountedAsItsOwn) {
    std::atomic<bool> stop{false};
    std::thread spin([&] {
        while (!stop.load(std::memory_order_relaxed)) {}
    });
    const MachineLoad m = sampleMachineLoad(std::chrono::milliseconds(600));
    stop = true;
    spin.join();
    ASSERT_TRUE(m.known) << "/proc/stat unreadable";
    EXPECT_GE(m.seconds, 0.6);
    EXPECT_GT(m.ownCores, 0.3) << "a spinning thread of this process";
    EXPECT_GE(m.busyCores + 0.1, m.ownCores) << "the machine's use holds the process's";
    EXPECT_GE(m.cores, 1);
}

}  // namespace
}  // namespace firelab::harness

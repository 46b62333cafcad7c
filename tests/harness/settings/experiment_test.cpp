// Experiments as data, without GL: list and range values, the cross product's size, order and run keys,
// command-line overrides of an experiment file, shards, and the errors a bad file or value raises
// (asserted by ErrorCode, with the file, line and setting named in the message).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/text.h"

#include "harness/results/compare.h"
#include "harness/results/csv.h"
#include "harness/results/schema.h"
#include "harness/platform/interrupt.h"
#include "harness/settings/experiment.h"
#include "render/strategies/strategy.h"
#include "core/error.h"

#include "support/error_of.h"
#include "support/scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using firelab::Error;
using firelab::ErrorCode;
using firelab::harness::expand;
using firelab::harness::Experiment;
using firelab::harness::loadExperiment;
using firelab::harness::parseShard;
using firelab::harness::PlannedRun;
using firelab::harness::runKeyValue;
using firelab::harness::runKeyValueText;
using firelab::harness::splitRunKey;
using firelab::harness::splitValues;
using Strings = std::vector<std::string>;

using firelab::testing::errorOf;

Strings keysOf(const std::vector<PlannedRun>& runs) {
    Strings keys;
    for (const auto& r : runs) keys.push_back(r.key);
    return keys;
}

Strings axisNames(const Experiment& e) {
    Strings names;
    for (const auto& a : e.axes) names.push_back(a.name);
    return names;
}

Strings allStrategies() {
    Strings names;
    for (const auto& s : firelab::render::strategies())  // "all": every timed strategy
        if (!s.referenceOnly) names.emplace_back(s.name);
    return names;
}

// A temp folder per test (pid and test name in its name), removed afterwards.
class HarnessExperiment : public firelab::testing::ScratchDirTest {};

// --- lists and ranges ---------------------------------------------------------------------------

TEST_F(HarnessExperiment, ListsSplitOnCommasAndTrimBlanks) {
    EXPECT_EQ(splitValues("blend", "additive"), Strings{"additive"});
    EXPECT_EQ(splitValues("blend", "additive, alpha ,premultiplied"), (Strings{"additive", "alpha", "premultiplied"}));
    EXPECT_EQ(splitValues("particles", "100,1e3..1e4x10"), (Strings{"100", "1000", "10000"}));
}

TEST_F(HarnessExperiment, EmptyListItemsAreBadValues) {
    for (const char* text : {"", "a,,b", "a,", ",a", " , "})
        EXPECT_EQ(errorOf([&] { splitValues("blend", text); }).code(), ErrorCode::BadValue) << "'" << text << "'";
}

TEST_F(HarnessExperiment, LabelIsFreeTextNeverAList) {
    EXPECT_EQ(splitValues("label", "driver 550, run 2..3"), Strings{"driver 550, run 2..3"});
    Experiment e;
    e.override("label", "a,b");
    EXPECT_TRUE(e.axes.empty());
    const auto runs = expand(e);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].settings.label, "a,b");
    // An experiment file can still sweep labels, one array element each.
    const fs::path f = write("labels.toml", "[sweep]\nlabel = [\"x, y\", \"z\"]\n");
    EXPECT_EQ(keysOf(expand(loadExperiment(f))), (Strings{"label=x, y", "label=z"}));
}

// Issue 22: options that refuse each other (an order-independent --sort with --layer-order depth-slices) refuse
// the sweep, naming the run; with [experiment] leave-out = true those combinations are left out and listed.
TEST_F(HarnessExperiment, LeaveOutDropsCombinationsWhoseOptionsRefuseEachOther) {
    const std::string sweep =
        "[sweep]\nsort = [\"back-to-front\", \"wboit\"]\nlayer-order = [\"layers\", \"depth-slices\"]\n";
    std::vector<std::string> leftOut;
    const Error refused =
        errorOf([&] { expand(loadExperiment(write("strict.toml", sweep)), "strict.toml", &leftOut); });
    EXPECT_NE(std::string(refused.what()).find("depth-slices"), std::string::npos) << refused.what();
    const auto runs = expand(loadExperiment(write("lenient.toml", "[experiment]\nleave-out = true\n" + sweep)),
                             "lenient.toml", &leftOut);
    EXPECT_EQ(runs.size(), 3u);
    ASSERT_EQ(leftOut.size(), 1u);
    EXPECT_NE(leftOut[0].find("sort=wboit"), std::string::npos) << leftOut[0];
    const Error notAFlag = errorOf([&] { loadExperiment(write("text.toml", "[experiment]\nleave-out = \"yes\"\n")); });
    EXPECT_NE(std::string(notAFlag.what()).find("leave-out: expected true or false, got text"), std::string::npos)
        << notAFlag.what();
}

// Issue 23: two configurations shared a run_key when a value held ';' ("a;texture=b" with texture "c", and
// "a" with texture "b;texture=c"): merge kept 3 of 4 runs. A value's ';' (and '%') is escaped in the key,
// and splitRunKey gives the values back as given.
TEST_F(HarnessExperiment, ValuesHoldingSeparatorsKeepTheirKeysApart) {
    const fs::path f = write("collide.toml",
                             "[experiment]\nname = \"c\"\n[sweep]\nlabel = [\"a;texture=b\", \"a\", \"50%\"]\n"
                             "texture = [\"c\", \"b;texture=c\"]\n");
    const auto runs = expand(loadExperiment(f));
    ASSERT_EQ(runs.size(), 6u);
    std::set<std::string> keys;
    for (const auto& r : runs) keys.insert(r.key);
    EXPECT_EQ(keys.size(), 6u);
    EXPECT_EQ(runs[0].key, "texture=c;label=a%3Btexture=b");
    for (const auto& r : runs) {
        const auto parts = splitRunKey(r.key, {"texture", "label"});
        ASSERT_EQ(parts.size(), 2u) << r.key;
        EXPECT_EQ(parts[0].second, r.settings.render.texture) << r.key;
        EXPECT_EQ(parts[1].second, r.settings.label) << r.key;
        EXPECT_EQ(splitRunKey(r.key), parts) << r.key;
    }
    EXPECT_EQ(runKeyValueText(runKeyValue("x;%3B%")), "x;%3B%");
}

TEST_F(HarnessExperiment, GeometricRanges) {
    EXPECT_EQ(splitValues("particles", "1e3..1e6x10"), (Strings{"1000", "10000", "100000", "1000000"}));
    EXPECT_EQ(splitValues("particles", "1..100x3"), (Strings{"1", "3", "9", "27", "81"}));  // stops below TO
    EXPECT_EQ(splitValues("particles", "1e3..1e3x10"), Strings{"1000"});                    // FROM == TO: one value
    EXPECT_EQ(splitValues("particles", "1000..9999x10"), Strings{"1000"});
}

TEST_F(HarnessExperiment, ArithmeticRanges) {
    EXPECT_EQ(splitValues("particles", "1000..5000+1000"), (Strings{"1000", "2000", "3000", "4000", "5000"}));
    EXPECT_EQ(splitValues("particles", "1000..5500+1000"), (Strings{"1000", "2000", "3000", "4000", "5000"}));
    EXPECT_EQ(splitValues("particles", "7..7+1"), Strings{"7"});
    // Fractional steps accumulate rounding error; values are rounded and the end point is kept.
    EXPECT_EQ(splitValues("lifetime", "0.1..0.5+0.1"), (Strings{"0.1", "0.2", "0.3", "0.4", "0.5"}));
    EXPECT_EQ(splitValues("drag", "0..1+0.25"), (Strings{"0", "0.25", "0.5", "0.75", "1"}));
    EXPECT_EQ(splitValues("size-start", "0.2..1+0.2"), (Strings{"0.2", "0.4", "0.6", "0.8", "1"}));
    EXPECT_EQ(splitValues("lifetime", " 0.5 .. 1.5 + 0.5"), (Strings{"0.5", "1", "1.5"}));
}

// Issue 23: values were rounded to 6 decimals (--soft 0.0000004..0.0000006+0.0000001 ran soft 0, off), and a
// seed range near 2^64 counted in doubles never advanced ("more than 10000 values").
TEST_F(HarnessExperiment, RangesKeepSmallValuesAndCountIntegersExactly) {
    EXPECT_EQ(splitValues("soft", "0.0000004..0.0000006+0.0000001"), (Strings{"4e-07", "5e-07", "6e-07"}));
    EXPECT_EQ(splitValues("soft", "1e-9..1e-7x10"), (Strings{"1e-09", "1e-08", "1e-07"}));
    EXPECT_EQ(splitValues("lifetime", "0.1..1+0.3"), (Strings{"0.1", "0.4", "0.7", "1"}));
    EXPECT_EQ(splitValues("seed", "18446744073709551613..18446744073709551615+1"),
              (Strings{"18446744073709551613", "18446744073709551614", "18446744073709551615"}));
    EXPECT_EQ(splitValues("seed", "18446744073709551610..18446744073709551615+4"),
              (Strings{"18446744073709551610", "18446744073709551614"}));
    EXPECT_EQ(splitValues("seed", "9223372036854775808..18446744073709551615x2"), Strings{"9223372036854775808"});
    EXPECT_EQ(splitValues("particles", "3..20x3"), (Strings{"3", "9"}));
}

TEST_F(HarnessExperiment, BadRangesAreRejected) {
    for (const char* text : {"1e3..1e6",      // no factor or step
                             "1e3..1e6x1",    // factor must be > 1
                             "1e3..1e6x0.5",  //
                             "0..100x10",     // geometric from 0 never grows
                             "1000..10+10",   // TO below FROM
                             "1e4..1e3x10",   //
                             "1..5+0",        // step must be > 0
                             "1..5+-1",       //
                             "a..5+1",        // not numbers
                             "1..b+1",        //
                             "1..5+c",        //
                             "1..1e9+1"})     // more than 10000 values
        EXPECT_EQ(errorOf([&] { splitValues("particles", text); }).code(), ErrorCode::BadValue) << text;
    // The message names the flag.
    EXPECT_NE(std::string(errorOf([] { splitValues("particles", "1..5+0"); }).what()).find("--particles"),
              std::string::npos);
}

TEST_F(HarnessExperiment, StrategyAllExpandsToEveryStrategy) {
    const Strings all = allStrategies();
    ASSERT_GE(all.size(), 2u);
    EXPECT_EQ(splitValues("strategy", "all"), all);
    Experiment e;
    e.override("strategy", "all");
    e.override("width", "8");
    e.override("height", "8");
    const auto runs = expand(e);
    ASSERT_EQ(runs.size(), all.size());
    for (size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(runs[i].settings.strategy, all[i]);
        EXPECT_EQ(runs[i].key, "strategy=" + all[i]);
    }
}

TEST_F(HarnessExperiment, VectorSettingsSeparateListItemsWithSemicolons) {
    EXPECT_EQ(splitValues("speed", "0,1,0;0,2,0"), (Strings{"0,1,0", "0,2,0"}));
    EXPECT_EQ(splitValues("speed", "0,1,0"), Strings{"0,1,0"});  // one vector, not three values
    EXPECT_EQ(splitValues("center", " 1,2,3 ; 4,5,6 "), (Strings{"1,2,3", "4,5,6"}));
    Experiment e;
    e.override("speed", "0,1,0;0,2,0");
    const auto runs = expand(e);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].key, "speed=0,1,0");
    EXPECT_EQ(runs[1].key, "speed=0,2,0");
    EXPECT_FLOAT_EQ(runs[0].settings.params.speedMean.y, 1.0f);
    EXPECT_FLOAT_EQ(runs[1].settings.params.speedMean.y, 2.0f);
}

// --- the cross product ---------------------------------------------------------------------------

TEST_F(HarnessExperiment, CrossProductSizeOrderAndKeys) {
    // [sweep] written against the canonical order: the expansion reorders the axes.
    const fs::path f = write("order.toml", R"([experiment]
name = "order"

[sweep]
particles = [100, 200]
lifetime = [1, 2]
facing = ["view-plane", "velocity"]
sort = ["none", "back-to-front"]
blend = ["additive", "alpha"]
distribution = ["uniform", "normal"]
emitter = ["rect", "sphere"]
strategy = ["points", "billboards-cpu"]
)");
    const Experiment e = loadExperiment(f);
    EXPECT_EQ(e.name, "order");
    EXPECT_EQ(axisNames(e),
              (Strings{"strategy", "emitter", "distribution", "blend", "sort", "facing", "lifetime", "particles"}));
    const auto runs = expand(e);
    ASSERT_EQ(runs.size(), 256u);  // 2^8
    EXPECT_EQ(runs.front().key,
              "strategy=points;emitter=rect;distribution=uniform;blend=additive;sort=none;facing=view-plane;"
              "lifetime=1;particles=100");
    // The last axis turns fastest: particles innermost, strategy outermost.
    EXPECT_EQ(runs[1].key,
              "strategy=points;emitter=rect;distribution=uniform;blend=additive;sort=none;facing=view-plane;"
              "lifetime=1;particles=200");
    EXPECT_EQ(runs[2].key,
              "strategy=points;emitter=rect;distribution=uniform;blend=additive;sort=none;facing=view-plane;"
              "lifetime=2;particles=100");
    EXPECT_EQ(runs[128].settings.strategy, "billboards-cpu");
    EXPECT_EQ(runs[127].settings.strategy, "points");
    EXPECT_EQ(runs.back().key,
              "strategy=billboards-cpu;emitter=sphere;distribution=normal;blend=alpha;sort=back-to-front;"
              "facing=velocity;lifetime=2;particles=200");
    std::set<std::string> unique;
    for (size_t i = 0; i < runs.size(); ++i) {
        EXPECT_EQ(runs[i].index, i);
        unique.insert(runs[i].key);
    }
    EXPECT_EQ(unique.size(), runs.size());
    // Each run's settings are what its key says.
    EXPECT_EQ(runs[1].settings.params.particles, 200u);
    EXPECT_EQ(runs[1].settings.params.shape, firelab::sim::EmitterShape::Rect);
    EXPECT_EQ(runs.back().settings.params.shape, firelab::sim::EmitterShape::Sphere);
    EXPECT_EQ(runs.back().settings.params.distribution, firelab::sim::Distribution::Normal);
    EXPECT_FLOAT_EQ(runs.back().settings.params.lifetimeMean, 2.0f);
}

TEST_F(HarnessExperiment, NoAxesIsOneRunKeyedSingle) {
    const auto runs = expand(Experiment{});
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].key, "single");
    EXPECT_EQ(runs[0].settings.strategy, firelab::harness::RunSettings{}.strategy);
}

TEST_F(HarnessExperiment, RangesAndStrategyAllInAFile) {
    const fs::path f = write("ranges.toml", R"([sweep]
strategy = "all"
particles = "1e3..1e5x10"
lifetime = ["1..2+0.5", 3]
)");
    const Experiment e = loadExperiment(f);
    EXPECT_EQ(e.name, "ranges");  // no [experiment] name: the file's stem
    ASSERT_EQ(e.axes.size(), 3u);
    EXPECT_EQ(e.axes[0].values, allStrategies());
    EXPECT_EQ(e.axes[1].name, "lifetime");
    EXPECT_EQ(e.axes[1].values, (Strings{"1", "1.5", "2", "3"}));
    EXPECT_EQ(e.axes[2].values, (Strings{"1000", "10000", "100000"}));
    EXPECT_EQ(expand(e).size(), allStrategies().size() * 4 * 3);
}

TEST_F(HarnessExperiment, ShippedExperimentsExpand) {
    const fs::path dir = fs::path(FIRELAB_SOURCE_DIR) / "experiments";
    size_t files = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".toml") continue;
        ++files;
        SCOPED_TRACE(entry.path().string());
        const Experiment e = loadExperiment(entry.path());
        std::vector<std::string> leftOut;  // combinations a strategy cannot draw (fill.toml's hulls for points)
        const auto runs = expand(e, entry.path().string(), &leftOut);
        size_t product = 1;
        for (const auto& a : e.axes)
            if (a.follows.empty()) product *= a.values.size();  // a zipped axis advances with its group's first
        EXPECT_EQ(runs.size() + leftOut.size(), product);
        std::set<std::string> keys;
        for (const auto& r : runs) keys.insert(r.key);
        EXPECT_EQ(keys.size(), runs.size());
        const Strings names = axisNames(e);
        if (std::find(names.begin(), names.end(), "particles") != names.end()) {
            EXPECT_EQ(names.back(), "particles");
        }
    }
    EXPECT_GE(files, 1u);
}

// --- overrides --------------------------------------------------------------------------------------

constexpr const char* kOverrideToml = R"([experiment]
name = "ovr"
description = "override tests"

[run]
width = 64
height = 48
frames = 7

[model]
lifetime = 2

[sweep]
strategy = ["points", "billboards-cpu"]
particles = [200, 400]
)";

TEST_F(HarnessExperiment, FileValuesTakePrecedenceOverDefaults) {
    const Experiment e = loadExperiment(write("ovr.toml", kOverrideToml));
    EXPECT_EQ(e.name, "ovr");
    EXPECT_EQ(e.description, "override tests");
    const auto runs = expand(e);
    ASSERT_EQ(runs.size(), 4u);
    const firelab::harness::RunSettings defaults;
    for (const auto& r : runs) {
        EXPECT_EQ(r.settings.width, 64);
        EXPECT_EQ(r.settings.height, 48);
        EXPECT_EQ(r.settings.frames, 7);
        EXPECT_EQ(r.settings.warmup, defaults.warmup);  // not in the file: the default
        EXPECT_FLOAT_EQ(r.settings.params.lifetimeMean, 2.0f);
    }
    EXPECT_NE(defaults.width, 64);
    EXPECT_EQ(keysOf(runs),
              (Strings{"strategy=points;particles=200", "strategy=points;particles=400",
                       "strategy=billboards-cpu;particles=200", "strategy=billboards-cpu;particles=400"}));
}

TEST_F(HarnessExperiment, ASingleValueReplacesASweptAxis) {
    Experiment e = loadExperiment(write("ovr.toml", kOverrideToml));
    e.override("particles", "300");
    EXPECT_EQ(axisNames(e), Strings{"strategy"});
    const auto runs = expand(e);
    EXPECT_EQ(keysOf(runs), (Strings{"strategy=points", "strategy=billboards-cpu"}));
    for (const auto& r : runs) EXPECT_EQ(r.settings.params.particles, 300u);
}

TEST_F(HarnessExperiment, AListReplacesOrCreatesAnAxis) {
    Experiment e = loadExperiment(write("ovr.toml", kOverrideToml));
    e.override("particles", "1000..3000+1000");  // replaces the file's axis
    e.override("height", "32,48");               // a fixed [run] value becomes an axis, in canonical order
    EXPECT_EQ(axisNames(e), (Strings{"strategy", "height", "particles"}));
    const auto runs = expand(e);
    ASSERT_EQ(runs.size(), 2u * 2u * 3u);
    EXPECT_EQ(runs[0].key, "strategy=points;height=32;particles=1000");
    EXPECT_EQ(runs[2].key, "strategy=points;height=32;particles=3000");
    EXPECT_EQ(runs[3].key, "strategy=points;height=48;particles=1000");
    EXPECT_EQ(runs[3].settings.height, 48);
    EXPECT_EQ(runs[3].settings.params.particles, 1000u);
}

TEST_F(HarnessExperiment, CommandLineValuesOverrideRunAndModelTables) {
    Experiment e = loadExperiment(write("ovr.toml", kOverrideToml));
    e.override("width", "32");
    e.override("lifetime", "0.5");
    e.override("strategy", "billboards-instanced");
    const auto runs = expand(e);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(keysOf(runs), (Strings{"particles=200", "particles=400"}));
    for (const auto& r : runs) {
        EXPECT_EQ(r.settings.width, 32);
        EXPECT_EQ(r.settings.height, 48);  // untouched file value
        EXPECT_FLOAT_EQ(r.settings.params.lifetimeMean, 0.5f);
        EXPECT_EQ(r.settings.strategy, "billboards-instanced");
    }
}

TEST_F(HarnessExperiment, BadOverridesFailInExpand) {
    Experiment e = loadExperiment(write("ovr.toml", kOverrideToml));
    e.override("particles", "lots");
    EXPECT_EQ(errorOf([&] { expand(e); }).code(), ErrorCode::BadValue);
    Experiment u;
    u.override("no-such-setting", "1");
    EXPECT_EQ(errorOf([&] { expand(u); }).code(), ErrorCode::UnknownName);
    Experiment s;
    s.override("strategy", "points,teapots");
    EXPECT_EQ(errorOf([&] { expand(s); }).code(), ErrorCode::UnknownName);
}

// --- bad experiment files ----------------------------------------------------------------------------

TEST_F(HarnessExperiment, UnknownSweepSettingNamesTheFileAndLine) {
    const fs::path f =
        write("unknown.toml", "[experiment]\nname = \"u\"\n\n[sweep]\nparticles = [1, 2]\nteapots = [1, 2]\n");
    const Error e = errorOf([&] { loadExperiment(f); });
    EXPECT_EQ(e.code(), ErrorCode::UnknownName);
    const std::string msg = e.what();
    EXPECT_NE(msg.find(f.string() + ":6"), std::string::npos) << msg;
    EXPECT_NE(msg.find("teapots"), std::string::npos) << msg;
}

TEST_F(HarnessExperiment, UnknownRunSettingIsAnUnknownName) {
    const fs::path f = write("unknown_run.toml", "[run]\nwidht = 64\n");
    const Error e = errorOf([&] { loadExperiment(f); });
    EXPECT_EQ(e.code(), ErrorCode::UnknownName);
    EXPECT_NE(std::string(e.what()).find(f.string() + ":2"), std::string::npos) << e.what();
}

TEST_F(HarnessExperiment, BadRunValueIsABadValueNamingTheSetting) {
    for (const char* body : {"[run]\nparticles = \"lots\"\n", "[run]\nframes = 0\n", "[run]\nwidth = -5\n",
                             "[run]\nmax-seconds = 0\n", "[run]\nblend = \"glow\"\n"}) {
        SCOPED_TRACE(body);
        const fs::path f = write("bad_value.toml", body);
        const Experiment ex = loadExperiment(f);  // values are checked when the runs are made
        const Error e = errorOf([&] { expand(ex, f.string()); });
        EXPECT_TRUE(e.code() == ErrorCode::BadValue || e.code() == ErrorCode::UnknownName);
        const std::string msg = e.what();
        EXPECT_NE(msg.find(f.string()), std::string::npos) << msg;
        const std::string setting = std::string(body).substr(6, std::string(body).find(' ') - 6);
        EXPECT_NE(msg.find("--" + setting), std::string::npos) << msg;
    }
    // A number where a number belongs, out of range: BadValue exactly.
    const fs::path f = write("frames.toml", "[run]\nframes = 0\n");
    EXPECT_EQ(errorOf([&] { expand(loadExperiment(f), f.string()); }).code(), ErrorCode::BadValue);
}

TEST_F(HarnessExperiment, BadSweepValuesAreRejected) {
    const fs::path range = write("range.toml", "[sweep]\nparticles = \"1e5..1e3x10\"\n");
    EXPECT_EQ(errorOf([&] { loadExperiment(range); }).code(), ErrorCode::BadValue);
    const fs::path empty = write("empty.toml", "[sweep]\nparticles = []\n");
    const Error e = errorOf([&] { loadExperiment(empty); });
    EXPECT_EQ(e.code(), ErrorCode::BadValue);
    EXPECT_NE(std::string(e.what()).find(empty.string() + ":2"), std::string::npos) << e.what();
    const fs::path table = write("table.toml", "[sweep]\nparticles = { a = 1 }\n");
    EXPECT_EQ(errorOf([&] { loadExperiment(table); }).code(), ErrorCode::BadValue);
    // A combination that cannot run (gpu-stateless cannot sort) is caught before any run, naming the run;
    // a sweep (which asks for what is left out) leaves it out and says why, and runs the rest.
    const fs::path combo = write("combo.toml", "[sweep]\nstrategy = \"all\"\nsort = [\"none\", \"back-to-front\"]\n");
    const Experiment ex = loadExperiment(combo);
    const Error c = errorOf([&] { expand(ex, combo.string()); });
    EXPECT_EQ(c.code(), ErrorCode::BadValue);
    EXPECT_NE(std::string(c.what()).find("gpu-stateless"), std::string::npos) << c.what();
    std::vector<std::string> leftOut;
    const auto runs = expand(ex, combo.string(), &leftOut);
    ASSERT_EQ(leftOut.size(), 1u);
    EXPECT_EQ(leftOut[0].rfind("strategy=gpu-stateless;sort=back-to-front: ", 0), 0u) << leftOut[0];
    EXPECT_EQ(runs.size(), 2 * allStrategies().size() - 1);
    for (const auto& r : runs) EXPECT_NE(r.key, "strategy=gpu-stateless;sort=back-to-front");
    // With one strategy there is nothing to leave it out for: the refusal stands.
    const fs::path one =
        write("one.toml", "[run]\nstrategy = \"gpu-stateless\"\n[sweep]\nsort = [\"none\", \"back-to-front\"]\n");
    EXPECT_EQ(errorOf([&] { expand(loadExperiment(one), one.string(), &leftOut); }).code(), ErrorCode::BadValue);
}

TEST_F(HarnessExperiment, MalformedTomlIsABadFileWithFileAndLine) {
    const fs::path f = write("malformed.toml", "[experiment]\nname = \"m\"\nwidth = = 3\n");
    const Error e = errorOf([&] { loadExperiment(f); });
    EXPECT_EQ(e.code(), ErrorCode::BadFile);
    EXPECT_NE(std::string(e.what()).find(f.string() + ":3"), std::string::npos) << e.what();
}

TEST_F(HarnessExperiment, UnknownTableIsABadFile) {
    const fs::path f = write("table.toml", "[experiment]\nname = \"t\"\n[runs]\nwidth = 3\n");
    const Error e = errorOf([&] { loadExperiment(f); });
    EXPECT_EQ(e.code(), ErrorCode::BadFile);
    EXPECT_NE(std::string(e.what()).find(f.string() + ":3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("runs"), std::string::npos) << e.what();
    const fs::path notTable = write("not_table.toml", "run = 3\n");
    EXPECT_EQ(errorOf([&] { loadExperiment(notTable); }).code(), ErrorCode::BadFile);
}

// Issue 23: `[experiment] name = 5` was silently ignored. Every [experiment] key is one it takes, and text.
TEST_F(HarnessExperiment, ExperimentKeysAreKnownAndText) {
    for (const auto& [text, code, mentions] : std::vector<std::tuple<std::string, ErrorCode, std::string>>{
             {"[experiment]\nname = 5\n", ErrorCode::BadValue, "name: expected text in quotes, got a number"},
             {"[experiment]\nquestion = [\"a\"]\n", ErrorCode::BadValue,
              "question: expected text in quotes, got an array"},
             {"[experiment]\ndescription = true\n", ErrorCode::BadValue,
              "description: expected text in quotes, got true/false"},
             {"[experiment]\ntitle = \"x\"\n", ErrorCode::UnknownName, "title: not a key of [experiment]"},
         }) {
        SCOPED_TRACE(text);
        const fs::path f = write("ex.toml", text);
        const Error e = errorOf([&] { loadExperiment(f); });
        EXPECT_EQ(e.code(), code);
        EXPECT_NE(std::string(e.what()).find(f.string() + ":2"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
    }
    // Arrays in arrays are a gradient's keys, and no other setting's (`particles = [[[[100]]]]` was called a
    // gradient error, and [[100]] in [run] ran 100).
    for (const char* text :
         {"[sweep]\nparticles = [[[[100]]]]\n", "[run]\nwidth = [[640]]\n", "[model]\nparticles = [[100]]\n"}) {
        SCOPED_TRACE(text);
        const Error e = errorOf([&] { loadExperiment(write("nested.toml", std::string("[experiment]\n") + text)); });
        EXPECT_EQ(e.code(), ErrorCode::BadValue);
        EXPECT_NE(std::string(e.what()).find("not arrays in arrays"), std::string::npos) << e.what();
    }
    const fs::path good = write("good.toml", "[experiment]\nname = \"g\"\ndescription = \"d\"\nquestion = \"q\"\n");
    EXPECT_EQ(loadExperiment(good).name, "g");
}

TEST_F(HarnessExperiment, MissingFileIsAMissingFile) {
    EXPECT_EQ(errorOf([&] { loadExperiment(dir_ / "nope.toml"); }).code(), ErrorCode::MissingFile);
}

// --- shards ----------------------------------------------------------------------------------------

TEST_F(HarnessExperiment, ParseShard) {
    EXPECT_EQ(parseShard("1/3"), (std::pair<size_t, size_t>{1, 3}));
    EXPECT_EQ(parseShard("3/3"), (std::pair<size_t, size_t>{3, 3}));
    EXPECT_EQ(parseShard("1/1"), (std::pair<size_t, size_t>{1, 1}));
    for (const char* bad : {"0/3", "4/3", "3", "", "/3", "1/", "a/b", "1/0", "-1/3", "1.5/3", "1/3/5"}) {
        const Error e = errorOf([&] { parseShard(bad); });
        EXPECT_EQ(e.code(), ErrorCode::BadValue) << bad;
        EXPECT_NE(std::string(e.what()).find("--shard"), std::string::npos) << bad;
    }
}

}  // namespace

namespace {

// What the viewer saves, `firelab run --config` reads back to the same settings (every run-level
// setting and model parameter, a gradient, a seed beyond 2^63 and a label with quotes included).
TEST_F(HarnessExperiment, SavedSettingsLoadBackIdentically) {
    firelab::harness::RunSettings s;
    s.strategy = "compute";
    s.render.blend = firelab::render::Blend::Premultiplied;
    s.render.facing = firelab::render::Facing::Velocity;
    s.render.flipbook = firelab::render::kFlameAtlasLayout;
    s.render.particleScale = firelab::render::ParticleScale::Quarter;
    s.render.hull = firelab::render::Hull::Eight;
    s.render.hdr = s.render.edgeFixup = true;
    s.render.exposure = 0.3f;  // not exact in binary: written with the digits that read back
    s.width = 800, s.height = 450, s.frames = 77, s.threads = 1;
    // Issue 23: a control character (tab, newline, escape) made a file that did not read back.
    s.label = "tuned \"by eye\", v2\tnew\nline \x1b\x7f \\ end";
    s.params.shape = firelab::sim::EmitterShape::Sphere;
    s.params.speedMean = {0.1f, 1.7f, -0.2f};
    s.params.seed = 18'000'000'000'000'000'000ULL;
    s.params.gradient = {
        {0.0f, {1.0f, 1.0f, 1.0f, 0.5f}}, {0.4f, {1.0f, 0.5f, 0.1f, 0.25f}}, {1.0f, {0.0f, 0.0f, 0.0f, 0.0f}}};
    const auto file = write("saved.toml", firelab::harness::runSettingsToml(s));
    const auto back = firelab::harness::loadRunSettings(file);
    for (const auto& name : firelab::harness::allSettingNames())
        EXPECT_EQ(firelab::harness::settingText(back, name), firelab::harness::settingText(s, name)) << name;
}

}  // namespace

namespace {

// --- run keys are values, paths are never lists, configurations compare (issue 12: 3, 4, 7) -------------

TEST_F(HarnessExperiment, RunKeysAreCanonicalValuesNotSpellings) {
    Experiment e;
    e.override("particles", "500,5e2,500.0,0500");
    const auto runs = expand(e);
    ASSERT_EQ(runs.size(), 1u) << "one configuration spelled four ways is one run";
    EXPECT_EQ(runs[0].key, "particles=500");
    Experiment two;
    two.override("particles", "5e2,1000");
    two.override("lifetime", "1.50,2.0");
    EXPECT_EQ(keysOf(expand(two)), (Strings{"lifetime=1.5;particles=500", "lifetime=1.5;particles=1000",
                                            "lifetime=2;particles=500", "lifetime=2;particles=1000"}));
    // A resume spelled differently describes the same configuration.
    Experiment a, b;
    a.override("particles", "100,200");
    a.override("speed", "0,1,0");
    b.override("particles", "1e2,2.0e2");
    b.override("speed", "0.0,1.00,0");
    EXPECT_TRUE(
        firelab::harness::configDifferences(firelab::harness::describe(a), firelab::harness::describe(b)).empty());
}

TEST_F(HarnessExperiment, ConfigurationRecordsEverySettingAndNamesEachDifference) {
    const fs::path f =
        write("cfg.toml", "[experiment]\nname = \"cfg\"\n[model]\nlifetime = 1.5\n[sweep]\nparticles = [100, 200]\n");
    const auto c = firelab::harness::describe(loadExperiment(f));
    EXPECT_EQ(c.experiment, "cfg");
    ASSERT_EQ(c.axes.size(), 1u);
    EXPECT_EQ(c.axes[0].second, (Strings{"100", "200"}));
    // Every setting that is not swept is recorded, not only the swept ones.
    EXPECT_EQ(c.settings.size() + c.axes.size(), firelab::harness::allSettingNames().size());
    Experiment changed = loadExperiment(f);
    changed.override("lifetime", "2");
    changed.override("particles", "100,300");
    const auto diffs = firelab::harness::configDifferences(c, firelab::harness::describe(changed));
    ASSERT_EQ(diffs.size(), 2u);
    EXPECT_NE(diffs[0].find("particles"), std::string::npos) << diffs[0];
    EXPECT_NE(diffs[1].find("lifetime: '1.5' there, '2' here"), std::string::npos) << diffs[1];
    Experiment other = loadExperiment(f);
    other.name = "other";
    EXPECT_NE(firelab::harness::configDifferences(c, firelab::harness::describe(other)).at(0).find("experiment"),
              std::string::npos);
}

TEST_F(HarnessExperiment, PathValuedSettingsAreNeverListsOrRanges) {
    EXPECT_TRUE(firelab::harness::pathValued("texture"));
    EXPECT_EQ(splitValues("texture", "../textures/x.png"), Strings{"../textures/x.png"});
    EXPECT_EQ(splitValues("texture", "a.png,b.png"), Strings{"a.png,b.png"});
    EXPECT_EQ(splitValues("texture", "1..5+1"), Strings{"1..5+1"});
    // A reference spec may name a texture with "..": one value, not a range.
    EXPECT_EQ(splitValues("reference", "strategy=points;texture=../t/x.png").size(), 1u);
    // Several paths: a TOML array in [sweep], one path per element.
    const fs::path f = write("tex.toml", "[sweep]\ntexture = [\"../a.png\", \"b,c.png\"]\n");
    const Experiment e = loadExperiment(f);
    ASSERT_EQ(e.axes.size(), 1u);
    EXPECT_EQ(e.axes[0].values, (Strings{"../a.png", "b,c.png"}));
    Experiment cli;
    cli.override("texture", "../textures/flame.png");
    ASSERT_EQ(expand(cli).size(), 1u);
    EXPECT_EQ(expand(cli)[0].settings.render.texture, "../textures/flame.png");
}

TEST_F(HarnessExperiment, ADirectoryIsNotAnExperimentFile) {
    fs::create_directories(dir_ / "folder.toml");
    const Error e = errorOf([&] { loadExperiment(dir_ / "folder.toml"); });
    EXPECT_EQ(e.code(), ErrorCode::BadFile);
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
}

TEST_F(HarnessExperiment, AFloatBeyondItsRangeIsOutOfRangeNotNotANumber) {
    Experiment e;
    e.override("center", "1e308");
    const Error err = errorOf([&] { expand(e); });
    EXPECT_EQ(err.code(), ErrorCode::BadValue);
    EXPECT_NE(std::string(err.what()).find("--center"), std::string::npos) << err.what();
    EXPECT_NE(std::string(err.what()).find("out of range"), std::string::npos) << err.what();
    EXPECT_EQ(std::string(err.what()).find("not a number"), std::string::npos) << err.what();
}

}  // namespace

namespace {

// --- the render options (render::visitRenderOptions): one source for every front end -----------------

using firelab::harness::applySetting;
using firelab::harness::RunSettings;
using firelab::harness::settingText;

// Each new option at a value other than its default, as an experiment file spells it.
const char* const kNewOptionsToml = R"([run]
particle-scale = 0.25
upsample = "bilinear"
edge-fixup = true
hull = 8
filter = "nearest"
hdr = true
tonemap = "reinhard"
exposure = 2.5
soft = 0.3
)";

TEST_F(HarnessExperiment, AnExperimentFileSetsEveryRenderOptionAndSettingTextRoundTripsIt) {
    const auto runs = expand(loadExperiment(write("options.toml", kNewOptionsToml)));
    ASSERT_EQ(runs.size(), 1u);
    const auto& r = runs[0].settings.render;
    EXPECT_EQ(r.particleScale, firelab::render::ParticleScale::Quarter);
    EXPECT_EQ(r.upsample, firelab::render::Upsample::Bilinear);
    EXPECT_TRUE(r.edgeFixup);
    EXPECT_EQ(r.hull, firelab::render::Hull::Eight);
    EXPECT_EQ(r.filter, firelab::render::Filter::Nearest);
    EXPECT_TRUE(r.hdr);
    EXPECT_EQ(r.tonemap, firelab::render::Tonemap::Reinhard);
    EXPECT_FLOAT_EQ(r.exposure, 2.5f);
    EXPECT_FLOAT_EQ(r.soft, 0.3f);
    const std::vector<std::pair<std::string, std::string>> expected{{"particle-scale", "0.25"},
                                                                    {"upsample", "bilinear"},
                                                                    {"edge-fixup", "true"},
                                                                    {"hull", "8"},
                                                                    {"filter", "nearest"},
                                                                    {"hdr", "true"},
                                                                    {"tonemap", "reinhard"},
                                                                    {"exposure", "2.5"},
                                                                    {"soft", "0.3"}};
    for (const auto& [name, text] : expected) EXPECT_EQ(settingText(runs[0].settings, name), text) << name;
    // The text sets the same value again, for every render option.
    for (const auto& name : firelab::harness::renderOptionNames()) {
        RunSettings back;
        applySetting(back, name, settingText(runs[0].settings, name));
        EXPECT_EQ(settingText(back, name), settingText(runs[0].settings, name)) << name;
    }
}

TEST_F(HarnessExperiment, EveryRenderOptionIsARunSettingAReferenceKeyAndChangesTheOptionsText) {
    const auto& run = firelab::harness::runSettingNames();
    const auto& ref = firelab::harness::referenceKeys();
    const RunSettings defaults;
    ASSERT_EQ(firelab::harness::renderOptions().size(), 26u);
    for (const auto& o : firelab::harness::renderOptions()) {
        SCOPED_TRACE(o.name);
        EXPECT_NE(std::find(run.begin(), run.end(), o.name), run.end());
        EXPECT_NE(std::find(ref.begin(), ref.end(), o.name), ref.end());
        EXPECT_EQ(o.defaultText, settingText(defaults, o.name));
        EXPECT_FALSE(o.help.empty());
        // Another value of the option is other options text (what the viewer rebuilds a strategy on).
        RunSettings other;
        const std::string mid = firelab::core::formatFloat(static_cast<float>(o.lo + 0.37 * (o.hi - o.lo)));
        const std::string value = o.kind == firelab::harness::RenderOptionInfo::Kind::Choice
                                      ? (o.choices[0] == o.defaultText ? o.choices[1] : o.choices[0])
                                  : o.kind == firelab::harness::RenderOptionInfo::Kind::Flag
                                      ? (o.defaultText == "true" ? "false" : "true")
                                  : o.kind == firelab::harness::RenderOptionInfo::Kind::Scalar ? mid
                                  : o.kind == firelab::harness::RenderOptionInfo::Kind::Vector ? "1,2"
                                  : o.kind == firelab::harness::RenderOptionInfo::Kind::Layout ? "8x8"
                                                                                               : "smoke.png";
        applySetting(other, o.name, value);
        EXPECT_NE(firelab::harness::renderOptionsText(other.render),
                  firelab::harness::renderOptionsText(defaults.render));
    }
}

TEST_F(HarnessExperiment, BadRenderOptionValuesNameTheOptionTheValueAndWhatIsAllowed) {
    struct Case {
        const char *name, *value;
        ErrorCode code;
        const char* allowed;
    };
    for (const Case& c : {Case{"hull", "6", ErrorCode::UnknownName, "quad, 4, 8"},
                          Case{"particle-scale", "0.3", ErrorCode::UnknownName, "1, 0.5, 0.25"},
                          Case{"upsample", "cubic", ErrorCode::UnknownName, "bilinear, nearest-depth"},
                          Case{"filter", "aniso", ErrorCode::UnknownName, "trilinear, bilinear, nearest"},
                          Case{"tonemap", "filmic", ErrorCode::UnknownName, "clamp, reinhard, aces"},
                          Case{"exposure", "0", ErrorCode::BadValue, "[0.01, 100]"},
                          Case{"exposure", "1000", ErrorCode::BadValue, "[0.01, 100]"},
                          Case{"soft", "-1", ErrorCode::BadValue, "[0, 100]"},
                          Case{"soft", "near", ErrorCode::BadValue, "not a number"},
                          Case{"hdr", "maybe", ErrorCode::BadValue, "true or false"},
                          Case{"edge-fixup", "2", ErrorCode::BadValue, "true or false"}}) {
        SCOPED_TRACE(std::string(c.name) + " " + c.value);
        RunSettings s;
        const Error e = errorOf([&] { applySetting(s, c.name, c.value); });
        EXPECT_EQ(e.code(), c.code);
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind("--" + std::string(c.name) + " ", 0), 0u) << msg;
        EXPECT_NE(msg.find(c.value), std::string::npos) << msg;
        EXPECT_NE(msg.find(c.allowed), std::string::npos) << msg;
    }
}

TEST_F(HarnessExperiment, ASweepOverHullExpandsToDistinctRunKeys) {
    const fs::path f = write("hull.toml", "[sweep]\nhull = [\"quad\", \"8\"]\n");
    const auto runs = expand(loadExperiment(f));
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(keysOf(runs), (Strings{"hull=quad", "hull=8"}));
    EXPECT_EQ(runs[0].settings.render.hull, firelab::render::Hull::Quad);
    EXPECT_EQ(runs[1].settings.render.hull, firelab::render::Hull::Eight);
    // A TOML integer is the same value as its string: one run key, not two.
    const fs::path g = write("hull_int.toml", "[sweep]\nhull = [8, \"8\", 4]\n");
    EXPECT_EQ(keysOf(expand(loadExperiment(g))), (Strings{"hull=8", "hull=4"}));
    // Two configurations that differ only in a fixed option are told apart (resume and merge refuse to mix them).
    Experiment quad, eight;
    eight.override("hull", "8");
    const auto diffs =
        firelab::harness::configDifferences(firelab::harness::describe(quad), firelab::harness::describe(eight));
    ASSERT_EQ(diffs.size(), 1u);
    EXPECT_EQ(diffs[0], "hull: 'quad' there, '8' here");
}

TEST_F(HarnessExperiment, NewRenderOptionAxesFollowTheTextureInCanonicalOrder) {
    Experiment e;
    for (const char* name : {"width", "soft", "exposure", "tonemap", "hdr", "filter", "edge-fixup", "upsample", "hull",
                             "particle-scale", "texture", "blend"})
        e.axes.push_back({name, {}, "", "", ""});
    e.override("particles", "1,2");  // sorts the axes
    EXPECT_EQ(axisNames(e), (Strings{"blend", "texture", "particle-scale", "hull", "upsample", "edge-fixup", "filter",
                                     "hdr", "tonemap", "exposure", "soft", "width", "particles"}));
}

TEST_F(HarnessExperiment, SweptRenderOptionsAreCanonicalInTheRunKey) {
    Experiment e;
    e.override("exposure", "0.5..2x2");
    e.override("hdr", "true,on");
    EXPECT_EQ(keysOf(expand(e)), (Strings{"hdr=true;exposure=0.5", "hdr=true;exposure=1", "hdr=true;exposure=2"}));
}

TEST_F(HarnessExperiment, TimingIsLatencyOrThroughput) {
    RunSettings s;
    EXPECT_EQ(settingText(s, "timing"), "latency");
    applySetting(s, "timing", "throughput");
    EXPECT_EQ(s.timing, firelab::harness::Timing::Throughput);
    EXPECT_EQ(settingText(s, "timing"), "throughput");
    const Error e = errorOf([&] { applySetting(s, "timing", "bogus"); });
    EXPECT_EQ(e.code(), ErrorCode::UnknownName);
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("--timing ", 0), 0u) << msg;
    EXPECT_NE(msg.find("bogus"), std::string::npos) << msg;
    EXPECT_NE(msg.find("latency, throughput"), std::string::npos) << msg;
    EXPECT_EQ(s.timing, firelab::harness::Timing::Throughput) << "a rejected value leaves the setting as it was";
}

}  // namespace

// --- run settings from one visitor (visitRunSettings) ---------------------------------------------

// Every run-level setting has help, its default in the help (when it has one), and a default that reads back unchanged.
TEST_F(HarnessExperiment, EveryRunSettingHasHelpAndItsDefaultRoundTrips) {
    namespace h = firelab::harness;
    ASSERT_FALSE(h::runSettings().empty());
    for (const auto& o : h::runSettings()) {
        SCOPED_TRACE(o.name);
        EXPECT_FALSE(o.help.empty());
        if (!o.defaultText.empty()) {
            EXPECT_NE(h::settingHelp(o).find("[default: " + o.defaultText + "]"), std::string::npos);
        }
        h::RunSettings s;
        EXPECT_EQ(h::settingText(s, o.name), o.defaultText);
        if (o.name == "label" || o.defaultText.empty()) continue;
        h::applySetting(s, o.name, o.defaultText);
        EXPECT_EQ(h::settingText(s, o.name), o.defaultText);
    }
}

// The declared ranges are the ones enforced: just outside each end is a BadValue naming the flag (a run
// setting's (0, hi] excludes 0 unless core::kClosedRange; a render option's [lo, hi] is closed).
TEST_F(HarnessExperiment, EveryNumericRunSettingEnforcesItsDeclaredRange) {
    namespace h = firelab::harness;
    using Kind = h::SettingInfo::Kind;
    size_t checked = 0;
    for (const auto& o : h::runSettings()) {
        if (o.kind != Kind::Integer && o.kind != Kind::Scalar) continue;
        SCOPED_TRACE(o.name);
        const double step = o.kind == Kind::Integer ? 1.0 : std::max(1e-3, o.hi * 1e-3);
        const bool open = o.attrs & firelab::core::kOpenRange;      // (lo, hi): both ends refused
        const bool closed = o.attrs & firelab::core::kClosedRange;  // [0, hi]: 0 taken
        const double below =
            open || (o.lo == 0.0 && o.kind == Kind::Scalar && !o.renderOption && !closed) ? o.lo : o.lo - step;
        for (const double bad : {below, open ? o.hi : o.hi + step}) {
            if (o.kind == Kind::Integer && bad < 0) continue;  // a negative count is refused as not a count
            h::RunSettings s;
            std::ostringstream text;
            text.precision(12);
            text << bad;
            const auto e = errorOf([&] { h::applySetting(s, o.name, text.str()); });
            EXPECT_EQ(e.code(), ErrorCode::BadValue) << text.str();
            EXPECT_NE(std::string(e.what()).find("--" + o.name), std::string::npos) << std::string(e.what());
        }
        h::RunSettings s;
        std::ostringstream inside;
        inside.precision(12);
        inside << (open ? (o.lo + o.hi) / 2.0 : o.hi);
        h::applySetting(s, o.name, inside.str());  // the upper end is allowed (the middle of an open range)
        ++checked;
    }
    EXPECT_GE(checked, 8u);  // width, height, warmup, frames, max-seconds, dt, threads, repetitions...
}

// Settings with a column are exactly the CSV's setting columns, and each is a column of the schema.
TEST_F(HarnessExperiment, SettingColumnsAreRunColumns) {
    namespace h = firelab::harness;
    for (const auto& n : h::settingColumns()) {
        SCOPED_TRACE(n);
        const std::string col = h::csvColumn(n);
        const h::Column* c = h::findColumn(col);
        ASSERT_NE(c, nullptr);
        EXPECT_EQ(c->group, h::ColumnGroup::Setting);
        EXPECT_EQ(c->setting, n);
    }
    for (const char* n : {"strategy", "timing", "width", "blend", "hull", "particles"})
        EXPECT_NE(std::find(h::settingColumns().begin(), h::settingColumns().end(), n), h::settingColumns().end()) << n;
    // Every setting a sweep may vary has a column (issue 36: a swept model parameter, the sprite file and the time
    // limit were only inside run_key); the sweep-wide ones (one value per sweep) are in meta.json.
    for (const char* n : {"texture", "max-seconds", "size-start", "lifetime", "spin-var"})
        EXPECT_NE(std::find(h::settingColumns().begin(), h::settingColumns().end(), n), h::settingColumns().end()) << n;
}

// --repetitions and --timing: set from the command line or [run]; repetitions is one value per sweep.
TEST_F(HarnessExperiment, RepetitionsIsOneValuePerSweepAndTimingMayBeAnAxis) {
    Experiment e;
    e.override("repetitions", "5");
    e.override("timing", "latency,throughput");
    const auto runs = expand(e);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].settings.repetitions, 5);
    EXPECT_EQ(keysOf(runs), (Strings{"timing=latency", "timing=throughput"}));  // never in the key
    const auto list = errorOf([&] { e.override("repetitions", "3,5"); });
    EXPECT_EQ(list.code(), ErrorCode::BadValue);
    EXPECT_NE(std::string(list.what()).find("one value for the whole sweep"), std::string::npos)
        << std::string(list.what());
    const fs::path f = dir_ / "x.toml";
    std::ofstream(f) << "[sweep]\nrepetitions = [3, 5]\n";
    const auto inSweep = errorOf([&] { loadExperiment(f); });
    EXPECT_EQ(inSweep.code(), ErrorCode::BadValue);
    EXPECT_NE(std::string(inSweep.what()).find("x.toml:2"), std::string::npos) << std::string(inSweep.what());
    const auto timing = errorOf([&] {
        Experiment t;
        t.override("timing", "vsync");
        expand(t);
    });
    EXPECT_EQ(timing.code(), ErrorCode::UnknownName);
    EXPECT_NE(std::string(timing.what()).find("--timing 'vsync'"), std::string::npos) << std::string(timing.what());
    EXPECT_NE(std::string(timing.what()).find("latency, throughput"), std::string::npos) << std::string(timing.what());
}

// [sweep] zip: axes that advance together (issue 36: two axes could only be crossed). Their k-th values make one
// run, crossed with the other axes; duplicates of a zipped axis keep their place; the zip is in the sweep's
// configuration (resume and merge compare it); a bad zip names the axes, the counts or the name.
TEST_F(HarnessExperiment, ZippedAxesAdvanceTogether) {
    const std::string sweep =
        "[run]\nstrategy = \"points\"\n[sweep]\nparticles = [100, 200]\n"
        "fire-diameter = [0.5, 1.0, 1.0]\nheat-release = [100, 1000, 5000]\n";
    const auto runs = expand(loadExperiment(write("z.toml", sweep + "zip = [\"fire-diameter\", \"heat-release\"]\n")));
    std::set<std::string> keys;
    for (const auto& r : runs) keys.insert(r.key);
    EXPECT_EQ(runs.size(), 6u);  // 3 zipped pairs x 2 counts, not 3 x 3 x 2
    EXPECT_EQ(keys.count("particles=100;fire-diameter=0.5;heat-release=100") +
                  keys.count("fire-diameter=0.5;heat-release=100;particles=100"),
              1u)
        << *keys.begin();
    for (const auto& r : runs) {
        const bool paired = (r.settings.fireDiameter == 0.5 && r.settings.heatRelease == 100.0) ||
                            (r.settings.fireDiameter == 1.0 && r.settings.heatRelease >= 1000.0);
        EXPECT_TRUE(paired) << r.key;
    }
    const auto config =
        describe(loadExperiment(write("z2.toml", sweep + "zip = [[\"fire-diameter\", \"heat-release\"]]\n")));
    const auto zip =
        std::find_if(config.settings.begin(), config.settings.end(), [](const auto& s) { return s.first == "zip"; });
    ASSERT_NE(zip, config.settings.end());
    EXPECT_EQ(zip->second, "heat-release<fire-diameter");
    EXPECT_FALSE(configDifferences(describe(loadExperiment(write("crossed.toml", sweep))), config).empty())
        << "a zipped sweep is not the crossed one";

    const auto refused = [&](const std::string& zipLine) {
        return std::string(errorOf([&] { expand(loadExperiment(write("bad.toml", sweep + zipLine))); }).what());
    };
    EXPECT_NE(refused("zip = [\"particles\", \"heat-release\"]\n").find("particles has 2 values and heat-release 3"),
              std::string::npos);
    EXPECT_NE(refused("zip = [\"size-start\", \"heat-release\"]\n").find("'size-start' is not swept here"),
              std::string::npos);
    EXPECT_NE(refused("zip = [\"heat-release\"]\n").find("a group of one axis"), std::string::npos);
    // The command line gives a zipped axis anew: as long as its group it stays zipped, else refused.
    auto e = loadExperiment(write("z3.toml", sweep + "zip = [\"fire-diameter\", \"heat-release\"]\n"));
    e.override("heat-release", "200,2000,3000");
    EXPECT_EQ(expand(e).size(), 6u);
    e.override("heat-release", "200,2000");
    EXPECT_NE(std::string(errorOf([&] { expand(e); }).what()).find("must be as long as each other"), std::string::npos);
    // The group's first axis given anew leads it still (it un-zipped: 18 runs); a single value leaves the group.
    auto lead = loadExperiment(write("z4.toml", sweep + "zip = [\"fire-diameter\", \"heat-release\"]\n"));
    lead.override("fire-diameter", "0.3,1,3");
    EXPECT_EQ(expand(lead).size(), 6u);
    lead.override("fire-diameter", "0.5");
    EXPECT_EQ(expand(lead).size(), 6u);  // heat-release's 3 values x 2 counts, crossed
    // Two places with the same values would be two runs of one key.
    const std::string twice =
        "[run]\nstrategy = \"points\"\n[sweep]\nfire-diameter = [1, 1]\n"
        "heat-release = [1000, 1e3]\nzip = [\"fire-diameter\", \"heat-release\"]\n";
    EXPECT_NE(std::string(errorOf([&] { expand(loadExperiment(write("z5.toml", twice))); }).what())
                  .find("values 1 and 2 are the same (1, 1000)"),
              std::string::npos);
}

// Planning polls the stop request (a signal inside a sweep's StopScope only sets it): a sweep of very many runs
// stops while it is planned, not only at its first run.
TEST_F(HarnessExperiment, PlanningStopsWhenAStopIsRequested) {
    const auto e = loadExperiment(write("stop.toml", "[sweep]\nparticles = [100, 200]\nseed = [1, 2, 3]\n"));
    auto& stop = firelab::harness::stopRequested();
    stop = true;
    const Error err = errorOf([&] { expand(e); });
    stop = false;  // the flag is the process's: later tests start without it
    EXPECT_EQ(err.code(), ErrorCode::Interrupted) << err.what();
    EXPECT_EQ(expand(e).size(), 6u);
}

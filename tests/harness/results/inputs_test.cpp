// What a sweep's runs read, by content (harness/results/inputs.h): each file's fingerprint is the FNV-1a hash
// of its bytes; the experiment file comes first, then every effect and sprite the runs read, named relative to
// the data folder where they lie there and by the path they resolve to elsewhere (links resolved, so a folder
// reached through a link names its files as another shard does). A missing, empty or special file is refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "core/error.h"
#include "core/hash.h"
#include "harness/results/inputs.h"
#include "harness/settings/experiment.h"
#include "support/error_of.h"
#include "support/scratch_dir.h"

namespace firelab::testing {
namespace {
namespace fs = std::filesystem;

class InputFingerprints : public ScratchDirTest {};

std::string expected(const std::string& bytes) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(core::fnv1a(bytes)));
    return std::string("fnv1a64:") + hex;
}

TEST_F(InputFingerprints, AFileIsTheHashOfItsBytes) {
    const fs::path f = write("a.toml", "[experiment]\nname = \"a\"\n");
    EXPECT_EQ(harness::fileFingerprint(f), expected("[experiment]\nname = \"a\"\n"));
    const std::string before = harness::fileFingerprint(f);
    writeFile(f, "[experiment]\nname = \"b\"\n");
    EXPECT_NE(harness::fileFingerprint(f), before) << "one byte changed";
    EXPECT_EQ(errorOf([&] { harness::fileFingerprint(dir_ / "none.toml"); }).code(), ErrorCode::MissingFile);
    EXPECT_EQ(errorOf([&] { harness::fileFingerprint(write("empty.toml", "")); }).code(), ErrorCode::BadFile);
    EXPECT_EQ(errorOf([&] { harness::fileFingerprint(dir_); }).code(), ErrorCode::BadFile);
}

TEST_F(InputFingerprints, TheExperimentThenEveryFileTheRunsReadEachOnce) {
    const fs::path effect = write("fx.toml", "[effect]\ndescription = \"a flame\"\n[[layer]]\nname = \"flame\"\n");
    const fs::path file = write("x.toml", "[experiment]\nname = \"x\"\n[run]\neffect = \"" + effect.string() +
                                              "\"\n[sweep]\nstrategy = [\"points\", \"billboards-instanced\"]\n");
    const auto runs = harness::expand(harness::loadExperiment(file), file.string());
    const auto inputs = harness::inputFingerprints(runs, file, FIRELAB_SOURCE_DIR);
    ASSERT_GE(inputs.size(), 3u);
    EXPECT_EQ(inputs[0].first, fs::weakly_canonical(file).generic_string()) << "outside the data folder: its path";
    EXPECT_EQ(inputs[0].second, harness::fileFingerprint(file));
    bool sawEffect = false, sawSprite = false;
    for (const auto& [name, hash] : inputs) {
        EXPECT_EQ(hash.rfind("fnv1a64:", 0), 0u) << name;
        sawEffect = sawEffect || name == fs::weakly_canonical(effect).generic_string();
        sawSprite = sawSprite || name == "textures/flame.png";  // in the data folder: named relative to it
    }
    EXPECT_TRUE(sawEffect);
    EXPECT_TRUE(sawSprite);
    for (size_t i = 1; i < inputs.size(); ++i)
        for (size_t j = 0; j < i; ++j) EXPECT_NE(inputs[i].first, inputs[j].first) << "named twice";
}

TEST_F(InputFingerprints, AFileReachedThroughALinkedFolderIsTheFileItLinksTo) {
    fs::create_directories(dir_ / "real");
    const fs::path file = writeFile(dir_ / "real" / "l.toml", "[experiment]\nname = \"l\"\n");
    fs::create_directory_symlink(dir_ / "real", dir_ / "link");
    const auto viaReal = harness::inputFingerprints({}, file, FIRELAB_SOURCE_DIR);
    const auto viaLink = harness::inputFingerprints({}, dir_ / "link" / "l.toml", FIRELAB_SOURCE_DIR);
    ASSERT_EQ(viaReal.size(), 1u);
    EXPECT_EQ(viaLink, viaReal);
}

}  // namespace
}  // namespace firelab::testing

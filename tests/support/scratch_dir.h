// For tests that write files: whole-file read and write, and ScratchDirTest, a fixture that gives each
// test a fresh folder under the system temp folder (named after the suite, the test and the process)
// and removes it afterwards (kept when the test failed, to look at).
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace firelab::testing {

inline std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline std::filesystem::path writeFile(const std::filesystem::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
    return p;
}

class ScratchDirTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = std::filesystem::temp_directory_path() / ("firelab_" + std::string(info->test_suite_name()) + "_" +
                                                         std::string(info->name()) + "_" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        if (!HasFailure()) std::filesystem::remove_all(dir_, ec);
    }
    std::filesystem::path write(const std::string& name, const std::string& text) const {
        return writeFile(dir_ / name, text);
    }

    std::filesystem::path dir_;
};

}  // namespace firelab::testing

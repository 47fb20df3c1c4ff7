// The kernel cache's size limit: sizes as users write them, and least recently used entries
// (a key's .fsobj and .cpp together) removed first, down to 80% of the limit.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

#include "test_support.h"
#include "toolchain/cache_size_limit.h"

using namespace fusescope;
namespace fs = std::filesystem;

namespace {

class CacheFolder : public ::testing::Test {
protected:
    void SetUp() override {
        std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        dir_ = fs::path(test::writeTempFile(test + "/.keep", "")).parent_path();
    }

    // An entry of `bytes` in all (object 90%, source the rest), last used `hoursAgo`.
    void addEntry(const std::string& key, int bytes, int hoursAgo) {
        auto time = fs::file_time_type::clock::now() - std::chrono::hours(hoursAgo);
        int objectBytes = bytes * 9 / 10;
        for (auto [extension, size] : {std::pair{".fsobj", objectBytes}, std::pair{".cpp", bytes - objectBytes}}) {
            fs::path file = dir_ / (key + extension);
            std::ofstream(file) << std::string(size, 'x');
            fs::last_write_time(file, time);
        }
    }
    std::set<std::string> files() const {
        std::set<std::string> names;
        for (const auto& entry : fs::directory_iterator(dir_)) names.insert(entry.path().filename().string());
        return names;
    }

    fs::path dir_;
};

}  // namespace

TEST(CacheSize, ParsesSizesAsUsersWriteThem) {
    EXPECT_EQ(parseCacheSize("2G"), std::uint64_t(2) << 30);
    EXPECT_EQ(parseCacheSize("500m"), std::uint64_t(500) << 20);
    EXPECT_EQ(parseCacheSize("64KB"), std::uint64_t(64) << 10);
    EXPECT_EQ(parseCacheSize("1T"), std::uint64_t(1) << 40);
    EXPECT_EQ(parseCacheSize("1000"), 1000u);
    EXPECT_EQ(parseCacheSize("0"), 0u);
    for (const char* bad : {"", "G", "-1", "1.5G", "2X", "2GiB", " 2G", "99999999999T", "123456789012345678901234567890"})
        EXPECT_EQ(parseCacheSize(bad), std::nullopt) << bad;
}

TEST(CacheSize, ComesFromTheEnvironmentWithADefault) {
    {
        test::ScopedEnv unset("FUSESCOPE_CACHE_MAX_SIZE", "");
        EXPECT_EQ(cacheMaxBytes(), kDefaultCacheMaxBytes);
    }
    test::ScopedEnv set("FUSESCOPE_CACHE_MAX_SIZE", "300M");
    EXPECT_EQ(cacheMaxBytes(), std::uint64_t(300) << 20);
}

TEST_F(CacheFolder, UnderItsLimitNothingIsRemoved) {
    for (int i = 0; i < 5; ++i) addEntry("key" + std::to_string(i), 1000, i);
    EXPECT_EQ(trimCacheFolder(dir_, 5000), 0u);
    EXPECT_EQ(files().size(), 11u);  // 5 entries of two files, and .keep
}

TEST_F(CacheFolder, OverItsLimitTheLeastRecentlyUsedGoFirstToFourFifths) {
    for (int i = 0; i < 10; ++i) addEntry("key" + std::to_string(i), 1000, /*hoursAgo=*/i);
    // 10000 bytes over a limit of 5000: down to 4000, the four used last (key0..key3) kept.
    EXPECT_EQ(trimCacheFolder(dir_, 5000), 6000u);
    EXPECT_EQ(files(), (std::set<std::string>{".keep", "key0.cpp", "key0.fsobj", "key1.cpp", "key1.fsobj",
                                              "key2.cpp", "key2.fsobj", "key3.cpp", "key3.fsobj"}));
}

TEST_F(CacheFolder, AnEntryMarkedUsedIsKept) {
    for (int i = 0; i < 4; ++i) addEntry("key" + std::to_string(i), 1000, /*hoursAgo=*/i + 1);
    markCacheFileUsed((dir_ / "key3.fsobj").string());  // the oldest, used now
    trimCacheFolder(dir_, 3000);
    EXPECT_EQ(files(), (std::set<std::string>{".keep", "key0.cpp", "key0.fsobj", "key3.cpp", "key3.fsobj"}));
}

TEST_F(CacheFolder, NoLimitAndAMissingFolderRemoveNothing) {
    addEntry("key0", 1000, 1);
    EXPECT_EQ(trimCacheFolder(dir_, 0), 0u);
    EXPECT_EQ(trimCacheFolder((dir_ / "absent").string(), 10), 0u);
    EXPECT_EQ(files().size(), 3u);
}

TEST_F(CacheFolder, TrimsAtMostOnceAMinute) {
    test::ScopedEnv limit("FUSESCOPE_CACHE_MAX_SIZE", "2500");
    for (int i = 0; i < 4; ++i) addEntry("key" + std::to_string(i), 1000, i + 1);
    trimCacheFolderNowAndThen(dir_);
    EXPECT_EQ(files().size(), 6u);  // key0, key1, .keep and the stamp of the trim
    addEntry("key9", 1000, 0);
    trimCacheFolderNowAndThen(dir_);  // a minute has not passed
    EXPECT_EQ(files().size(), 8u);
}

// Fibers (core/fiber.h): the stacks generators run on.
#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/fiber.h"

namespace fusescope {
namespace {

TEST(Fiber, RunsUntilItSuspendsAndContinuesWhereItStopped) {
    std::vector<std::string> order;
    Fiber* self = nullptr;
    Fiber fiber([&] {
        for (int i = 0; i < 3; ++i) {
            order.push_back("body " + std::to_string(i));
            self->suspend();
        }
        order.push_back("body returns");
    });
    self = &fiber;
    EXPECT_FALSE(fiber.started());
    while (!fiber.finished()) {
        fiber.resume();
        order.push_back("resumer");
    }
    EXPECT_EQ(order, (std::vector<std::string>{"body 0", "resumer", "body 1", "resumer", "body 2", "resumer", "body returns",
                                               "resumer"}));
    EXPECT_THROW(fiber.resume(), std::logic_error);
}

TEST(Fiber, WhatTheBodyThrowsTheResumeRethrows) {
    Fiber* self = nullptr;
    Fiber fiber([&] {
        self->suspend();
        throw std::runtime_error("from the body");
    });
    self = &fiber;
    fiber.resume();
    try {
        fiber.resume();
        FAIL() << "the body's exception was lost";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "from the body");
    }
    EXPECT_TRUE(fiber.finished());
}

// A body suspended inside a catch block still handles its own exception when resumed, while
// the resumer threw and caught others meanwhile: each stack keeps its own handling state.
TEST(Fiber, EachStackKeepsTheExceptionItIsHandling) {
    Fiber* self = nullptr;
    std::string rethrown;
    Fiber fiber([&] {
        try {
            throw std::runtime_error("the body's");
        } catch (...) {
            self->suspend();
            try {
                throw;  // the exception being handled here: still the body's
            } catch (const std::runtime_error& e) {
                rethrown = e.what();
            }
        }
    });
    self = &fiber;
    fiber.resume();
    try {
        throw std::runtime_error("the resumer's");
    } catch (...) {
        EXPECT_EQ(std::uncaught_exceptions(), 0);
        fiber.resume();
    }
    EXPECT_EQ(rethrown, "the body's");
}

// A fiber resuming another (a generator iterating a generator), deep recursion on each.
TEST(Fiber, FibersResumeFibersAndRecurseDeeply) {
    std::function<int(int)> depth = [&](int n) { return n == 0 ? 0 : 1 + depth(n - 1); };
    std::vector<int> got;
    Fiber* innerSelf = nullptr;
    Fiber* outerSelf = nullptr;
    Fiber inner([&] {
        for (int i = 0; i < 3; ++i) {
            got.push_back(depth(10000 + i));
            innerSelf->suspend();
        }
    });
    Fiber outer([&] {
        while (true) {
            inner.resume();
            if (inner.finished()) return;
            outerSelf->suspend();
        }
    });
    innerSelf = &inner;
    outerSelf = &outer;
    int resumes = 0;
    while (!outer.finished()) {
        outer.resume();
        ++resumes;
    }
    EXPECT_EQ(got, (std::vector<int>{10000, 10001, 10002}));
    EXPECT_EQ(resumes, 4);
}

}  // namespace
}  // namespace fusescope

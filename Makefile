# The README's commands. `make test` and `make run` do all set-up on a fresh machine.
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
# Debug info as line tables only: backtraces and profiles keep file:line, and a fresh build
# took 19 min and 2.5 GB of disk on 2 cores (make test, fresh clone), where -g took 21 min and 11 GB.
DEBUG_INFO ?= -g1
JOBS ?= $(shell nproc)
EXAMPLE ?= resources/examples/01_quickstart.py
GUI_EXAMPLE ?= resources/examples/09_mlp_block.py

.PHONY: all deps configure build test run screenshots bench ops-doc asan fuzz clean

all: build

deps:
	./scripts/install-deps

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 $(DEBUG_INFO) -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 $(DEBUG_INFO) -DNDEBUG"

configure: $(BUILD_DIR)/build.ninja

build: deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

# docs/ops.md from PyTorch's OpInfo samples (tests/opinfo/README.md).
ops-doc: build
	python3 tests/opinfo/check_conformance.py $(BUILD_DIR)/bin/fusescope-cli --write

# The workbench on an example compiled by inductor; without a display (or a GUI build), the
# headless CLI on the quickstart example instead.
run: build
	@if [ -x $(BUILD_DIR)/bin/fusescope ] && [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  echo "$(BUILD_DIR)/bin/fusescope $(GUI_EXAMPLE) --run"; \
	  $(BUILD_DIR)/bin/fusescope $(GUI_EXAMPLE) --run; \
	else \
	  echo "make run: no display or no GUI build; running $(EXAMPLE) headless"; \
	  $(BUILD_DIR)/bin/fusescope-cli run $(EXAMPLE) --logs recompiles --report; \
	fi

# PNGs of the workbench under Xvfb for the docs (docs/screenshots/).
screenshots: build
	./scripts/screenshots $(BUILD_DIR)/bin/fusescope docs/screenshots

bench: build
	cmake --build $(BUILD_DIR) --target benchmarks -j $(JOBS)
	$(BUILD_DIR)/bin/bench_capture_overhead
	$(BUILD_DIR)/bin/bench_inductor
	$(BUILD_DIR)/bin/bench_profiler_overhead
	$(BUILD_DIR)/bin/bench_compile_scale
	[ ! -x $(BUILD_DIR)/bin/bench_graph_layout ] || $(BUILD_DIR)/bin/bench_graph_layout  # built with the GUI only
	[ ! -x $(BUILD_DIR)/bin/bench_module_groups ] || QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/bin/bench_module_groups
	[ ! -x $(BUILD_DIR)/bin/bench_gui_responsiveness ] || $(BUILD_DIR)/bin/bench_gui_responsiveness
	[ ! -x $(BUILD_DIR)/bin/bench_trace_timeline ] || $(BUILD_DIR)/bin/bench_trace_timeline
	[ ! -x $(BUILD_DIR)/bin/bench_gui_large_run ] || $(BUILD_DIR)/bin/bench_gui_large_run

# The libFuzzer harnesses (fuzz/, docs/fuzzing.md), built with Clang 16 over only the
# sources each reads (the interpreter's: the whole engine, instrumented, without LLVM),
# each run for FUZZ_SECONDS; `make test` replays their corpora.
FUZZ_SECONDS ?= 60
fuzz: deps
	cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-16 \
	  -DCMAKE_C_COMPILER=clang-16 -DFUSESCOPE_FUZZ=ON -DFUSESCOPE_BUILD_TESTS=OFF -DFUSESCOPE_WITH_QT=OFF \
	  -DFUSESCOPE_WITH_LLVM=OFF -DFUSESCOPE_WITH_CUDA=OFF -DFUSESCOPE_WITH_DNNL=OFF
	cmake --build build-fuzz -j $(JOBS) --target fuzzers
	./scripts/fuzz build-fuzz $(FUZZ_SECONDS)

# The whole suite under AddressSanitizer + UndefinedBehaviorSanitizer (and LeakSanitizer).
# use_sigaltstack=0: GCC's ASan runtime fails to unmap its signal stack when a thread of
# LLVM's libomp (generated kernels) exits; it is the sanitizer's own check, not our memory.
asan: deps
	cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -O1" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DFUSESCOPE_TEST_TIMEOUT=900
	cmake --build build-asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:use_sigaltstack=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir build-asan --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD_DIR)

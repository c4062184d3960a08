# Thin wrapper over CMake/CTest.  Every target that builds first runs
# scripts/deps.sh, which installs missing Debian packages (and does nothing
# when all are there).
BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIBP_WERROR=ON
PREFIX     ?= /usr/local

.PHONY: all deps build build-asan test unit demo bench fuzz fuzz-long install format format-check clean

all: build

deps:
	@bash scripts/deps.sh

build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_ARGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

build-asan: deps
	@cmake -S . -B $(BUILD_ASAN) $(CMAKE_ARGS) -DIBP_SANITIZE=ON -DIBP_UNIT_ONLY=ON >/dev/null
	@cmake --build $(BUILD_ASAN) -j $(JOBS)

build-fuzz: deps
	@CC=clang cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIBP_FUZZ=ON -DIBP_UNIT_ONLY=ON >/dev/null
	@cmake --build $(BUILD_FUZZ) -j $(JOBS)

# The whole suite: unit + CLI + interop + style on the plain build, the
# unit tests again under ASan+UBSan, and each fuzz target for a fixed
# number of runs over its corpus.
test: build build-asan build-fuzz
	@echo "== plain build: unit, cli, interop, style =="
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) --repeat until-pass:2
	@echo "== AddressSanitizer + UndefinedBehaviorSanitizer: unit =="
	@ctest --test-dir $(BUILD_ASAN) --output-on-failure -j $(JOBS) -L unit
	@echo "== fuzz targets, fixed runs over their corpora =="
	@ctest --test-dir $(BUILD_FUZZ) --output-on-failure -j $(JOBS) -L fuzz

unit: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L unit

demo: build
	@./$(BUILD)/ibpart demo

bench: build
	@bash scripts/bench.sh $(BUILD)

# Long fuzzing: make fuzz FUZZ_SECONDS=3600
FUZZ_SECONDS ?= 60
fuzz: build-fuzz
	@for f in $(BUILD_FUZZ)/fuzz_*; do \
	  name=$$(basename $$f); mkdir -p fuzz-out/$$name; \
	  echo "== $$name for $(FUZZ_SECONDS)s =="; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -max_len=4096 fuzz-out/$$name tests/fuzz/corpus/$$name || exit 1; \
	done

install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

format-check:
	@bash scripts/check-format.sh .

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ)

# Fuzzing (issue 7): libFuzzer targets for the C++ readers (versioned, final,
# JSON, protocol receiver) under ASan+UBSan, and an atheris target for the
# Python readers, all seeded from the golden vectors.
#
#   make fuzz                 each target for FUZZ_SECONDS (default 120), and the Go
#                             targets of the generated readers (fuzz-go, mk/go.mk)
#   make test-fuzz            each target for a few seconds (part of make test)
#
# A crash leaves its input in build/fuzz/crashes/ and fails the run; turn it
# into a regression test (tests/cpp/hostile_test.cpp, tests/python/test_hostile.py).
.PHONY: fuzz fuzz-build test-fuzz
TEST_TARGETS += test-fuzz
FUZZ_DIR := build/fuzz
FUZZ_SECONDS ?= 120
FUZZ_QUICK_SECONDS ?= 10
FUZZ_CXXFLAGS := -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fsanitize-ignorelist=fuzz/cpp/ubsan-ignore.txt \
	-Iruntime/cpp/include -I$(FUZZ_DIR)/gen -Wall -Wextra
FUZZ_TARGETS := fuzz_models fuzz_json fuzz_receiver

fuzz-build: venv-fuzz
	@tools/need-apt.sh clang libclang-rt-14-dev rapidjson-dev
	@mkdir -p $(FUZZ_DIR)/gen $(FUZZ_DIR)/crashes
	@for s in proto test; do \
		PYTHONPATH=compiler $(PYTHON) -m fbec -q --cpp --final --json --proto \
			--input=$(SHARED)/schemas/$$s.fbe --output=$(FUZZ_DIR)/gen || exit 1; done
	@for t in $(FUZZ_TARGETS); do \
		[ $(FUZZ_DIR)/$$t -nt fuzz/cpp/$$t.cpp ] && [ $(FUZZ_DIR)/$$t -nt mk/fuzz.mk ] && [ -z "$$(find runtime/cpp $(FUZZ_DIR)/gen -newer $(FUZZ_DIR)/$$t)" ] \
			|| { echo "clang++ $$t"; clang++ $(FUZZ_CXXFLAGS) fuzz/cpp/$$t.cpp -o $(FUZZ_DIR)/$$t || exit 1; }; done
	@$(PYTHON) fuzz/seed.py $(FUZZ_DIR)/seeds

# $(1): seconds per target, $(2): extra libFuzzer/atheris flags
define fuzz_run
	@for t in $(FUZZ_TARGETS); do \
		name=$${t#fuzz_}; mkdir -p $(FUZZ_DIR)/corpus/$$name; \
		echo "fuzz: $$t for $(1)s"; \
		$(FUZZ_DIR)/$$t -max_total_time=$(1) $(2) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_DIR)/crashes/$$t- $(FUZZ_DIR)/corpus/$$name $(FUZZ_DIR)/seeds/$$name \
			2>$(FUZZ_DIR)/$$t.log || { tail -40 $(FUZZ_DIR)/$$t.log; exit 1; }; \
		grep -E "DONE|stat::number_of_executed_units" $(FUZZ_DIR)/$$t.log | tail -2; done
	@echo "fuzz: fuzz_readers.py (atheris) for $(1)s"
	@mkdir -p $(FUZZ_DIR)/corpus/python
	@$(PYTHON) fuzz/python/fuzz_readers.py -max_total_time=$(1) $(2) -timeout=10 -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/crashes/python- $(FUZZ_DIR)/corpus/python $(FUZZ_DIR)/seeds/python \
		2>$(FUZZ_DIR)/python.log || { tail -40 $(FUZZ_DIR)/python.log; exit 1; }
	@grep -E "DONE|stat::number_of_executed_units" $(FUZZ_DIR)/python.log | tail -2
	@echo "fuzz: $(words $(FUZZ_TARGETS) python) passed, 0 failed, 0 skipped"
endef

fuzz: fuzz-build fuzz-go
	$(call fuzz_run,$(FUZZ_SECONDS))

# a fixed seed keeps the short run in make test repeatable; make fuzz explores freely
# (the Go targets' short run is fuzz-go-quick, in make test-go)
test-fuzz: fuzz-build
	$(call fuzz_run,$(FUZZ_QUICK_SECONDS),-seed=1)

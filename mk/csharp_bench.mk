# The C# benchmark (bench/csharp, docs/benchmarks.md "C#"): our generated code (fbec --csharp
# --final --json) against Newtonsoft.Json, DataContractSerializer (binary XML writer),
# BinaryFormatter and a hand-written BinaryWriter/BinaryReader baseline, in one mono process
# timed with Stopwatch (warm-up, interleaved repetitions, medians and best rounds).
#
#   make bench-csharp        (make bench runs it) build Fbe.dll, the generated trade code and
#                            Bench.exe with mcs -optimize+ into build/bench-csharp, check every
#                            row's round trip, time every row (BENCH_CSHARP_REPS rounds of
#                            BENCH_CSHARP_BATCH_MS ms each), print the table with the goals of
#                            issue 27 and write build/bench-csharp/csharp.md (make bench-publish
#                            copies it into bench/results/)
#   make bench-csharp-check  only the build and every row's check (make test-csharp runs it)
.PHONY: bench-csharp bench-csharp-check bench-publish-csharp
BENCH_TARGETS += bench-csharp
test-csharp: bench-csharp-check
bench-publish: bench-publish-csharp

BENCH_CSHARP_DIR := build/bench-csharp
BENCH_CSHARP_REPS ?= 7
BENCH_CSHARP_BATCH_MS ?= 200
BENCH_CSHARP_MCS := mcs -langversion:7 -warn:4 -warnaserror -nologo -debug- -optimize+
BENCH_CSHARP_NEWTONSOFT := /usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll

bench-csharp-check: venv csharp-toolchain
	@rm -rf $(BENCH_CSHARP_DIR)/gen && mkdir -p $(BENCH_CSHARP_DIR)/gen
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --csharp --final --json --input=schemas/trade.fbe --output=$(BENCH_CSHARP_DIR)/gen
	@$(BENCH_CSHARP_MCS) -target:library -out:$(BENCH_CSHARP_DIR)/Fbe.dll -r:System.Numerics.dll \
		-r:$(BENCH_CSHARP_NEWTONSOFT) runtime/csharp/src/*.cs
	@$(BENCH_CSHARP_MCS) -target:exe -out:$(BENCH_CSHARP_DIR)/Bench.exe -r:$(BENCH_CSHARP_DIR)/Fbe.dll \
		-r:$(BENCH_CSHARP_NEWTONSOFT) -r:System.Runtime.Serialization.dll -r:System.Xml.dll \
		bench/csharp/Bench.cs $(BENCH_CSHARP_DIR)/gen/*.cs
	@cp $(BENCH_CSHARP_NEWTONSOFT) $(BENCH_CSHARP_DIR)/
	@out="$$(mono $(BENCH_CSHARP_DIR)/Bench.exe --check)"; status=$$?; \
		echo "$$out" | sed 's/^row\t/bench-csharp: /'; exit $$status

bench-csharp: bench-csharp-check
	@echo "bench-csharp: revision $$(git rev-parse --short HEAD), load $$(cut -d' ' -f1-3 /proc/loadavg)"
	@mono $(BENCH_CSHARP_DIR)/Bench.exe --reps $(BENCH_CSHARP_REPS) --batch-ms $(BENCH_CSHARP_BATCH_MS) \
		--out $(BENCH_CSHARP_DIR) >$(BENCH_CSHARP_DIR)/run.txt || { cat $(BENCH_CSHARP_DIR)/run.txt; exit 1; }
	@{ echo; echo "Run: $$(date -u +%Y-%m-%dT%H:%M:%SZ), source $$(git rev-parse --short HEAD)$$(git diff --quiet HEAD || echo +changes), load average $$(cut -d' ' -f1-3 /proc/loadavg), $$(nproc) CPUs."; } >>$(BENCH_CSHARP_DIR)/csharp.md
	@grep -v '^row' $(BENCH_CSHARP_DIR)/run.txt

# make bench-publish (mk/bench.mk) runs this: the last make bench-csharp run's table into
# bench/results/csharp.md (docs/benchmarks.md's C# results are updated by hand from it).
bench-publish-csharp:
	@if [ -f $(BENCH_CSHARP_DIR)/csharp.md ]; then cp $(BENCH_CSHARP_DIR)/csharp.md bench/results/ \
		&& echo "bench-publish: the C# table into bench/results/csharp.md"; \
	else echo "bench-publish: no C# run in $(BENCH_CSHARP_DIR) (make bench-csharp): bench/results/csharp.md is left as it is"; fi

# The C# benchmark (bench/csharp, docs/benchmarks.md "C#"): our generated code (fbec --csharp
# --final --json) against Newtonsoft.Json, DataContractSerializer (binary XML writer),
# BinaryFormatter and a hand-written BinaryWriter/BinaryReader baseline, in one mono process
# timed with Stopwatch (warm-up, interleaved repetitions, medians and best rounds).
#
#   make bench-csharp        (make bench runs it) build Fbe.dll, the generated trade code and
#                            Bench.exe with mcs -optimize+ into build/bench-csharp, check every
#                            row's round trip, time every row (BENCH_CSHARP_REPS rounds of
#                            BENCH_CSHARP_BATCH_MS ms each), print the table with the goals of
#                            issue 27 and write build/bench-csharp/csharp.md
#   make bench-csharp-check  only the build and every row's check (make test-csharp runs it)
.PHONY: bench-csharp bench-csharp-check
BENCH_TARGETS += bench-csharp
test-csharp: bench-csharp-check

BENCH_CSHARP_DIR := build/bench-csharp
BENCH_CSHARP_REPS ?= 7
BENCH_CSHARP_BATCH_MS ?= 200
BENCH_CSHARP_MCS := mcs -langversion:7 -warn:4 -warnaserror -nologo -debug- -optimize+
BENCH_CSHARP_NEWTONSOFT := /usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll

bench-csharp-check: venv csharp-toolchain
	@rm -rf $(BENCH_CSHARP_DIR) && mkdir -p $(BENCH_CSHARP_DIR)/gen
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
	@grep -v '^row' $(BENCH_CSHARP_DIR)/run.txt

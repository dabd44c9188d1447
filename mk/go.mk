# Go: the runtime module (runtime/go, import path github.com/fbe-toolkit/fbe/runtime/go/fbe).
#
#   make test-go       the Go runtime's tests (go test, gofmt -l, go vet, staticcheck; the golden
#                      vectors of $(SHARED) when present) and fbec --go's output for
#                      every schema through gofmt -l and go vet (tests/go), then every
#                      row of the Go benchmark checked once (bench-go-check), a short
#                      run of the generated readers' fuzz targets (fuzz-go-quick) and of
#                      the Receiver's (FuzzReceiver), and the TCP example's tests
#                      (example-go-test)
# GO is the go command (default: go on PATH, else /usr/local/go/bin/go); the toolchain
# must be the one given (GOTOOLCHAIN=local: nothing is downloaded).
.PHONY: test-go
TEST_TARGETS += test-go

GO ?= $(or $(shell command -v go 2>/dev/null),/usr/local/go/bin/go)
GO_ENV := GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0
# staticcheck, the Go linter, from the module proxy into build/go-tools.
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(abspath build/go-tools)/staticcheck-$(STATICCHECK_VERSION)

$(STATICCHECK):
	@test -x "$(GO)" || { echo "test-go: no go command (set GO=/path/to/go; Go 1.26 or newer)" >&2; exit 1; }
	@echo "go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) (into build/go-tools)"
	@mkdir -p build/go-tools/bin
	@GOBIN=$(abspath build/go-tools/bin) GOTOOLCHAIN=local CGO_ENABLED=0 $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	@mv build/go-tools/bin/staticcheck $@

test-go: venv $(STATICCHECK)
	@test -x "$(GO)" || { echo "test-go: no go command (set GO=/path/to/go; Go 1.26 or newer)" >&2; exit 1; }
	@cd runtime/go && unformatted="$$($(GO_ENV) $(dir $(GO))gofmt -l .)" && \
		{ test -z "$$unformatted" || { echo "gofmt -l: $$unformatted" >&2; exit 1; }; }
	cd runtime/go && $(GO_ENV) $(GO) vet ./...
	cd runtime/go && $(GO_ENV) $(STATICCHECK) ./...
	cd runtime/go && $(GO_ENV) $(GO) test -count=1 ./...
	GO="$(GO)" STATICCHECK="$(STATICCHECK)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/go
	@$(MAKE) fuzz-go-quick
	@$(MAKE) example-go-test
	cd runtime/go && $(GO_ENV) $(GO) test -run '^$$' -fuzz '^FuzzReceiver$$' -fuzztime $(GO_FUZZ_QUICK) ./fbe
	@$(MAKE) bench-go-check

# The Go benchmark (bench/go, docs/benchmarks.md "Go"): our generated code against
# google.golang.org/protobuf, vtprotobuf, msgp, FlatBuffers and encoding/json.
#
#   make bench-go        (make bench runs it) generate every row's code into build/bench-go,
#                        check every row's round trip, time BENCH_GO_ROUNDS rounds of
#                        testing.B, measure CPU time per operation (BENCH_GO_CPU_ROUNDS
#                        rounds; 0: none), count instructions per operation under callgrind
#                        (BENCH_GO_STABLE_N iterations; 0: no counts), print the table with
#                        the goals, write build/bench-go/go.{json,md} (make bench-publish
#                        copies them)
#   make bench-go-check  only the generation and every row's check (make test-go runs it)
#
# The module (bench/go: go.mod pins the peers and their code generators as tools) is
# copied to build/bench-go and built there with the generated code (fbec, protoc with
# protoc-gen-go and protoc-gen-go-vtproto, flatc, msgp): the checkout stays untouched.
.PHONY: bench-go bench-go-check
BENCH_TARGETS += bench-go
BENCH_GO_DIR := build/bench-go
BENCH_GO_ROUNDS ?= 6
BENCH_GO_TIME ?= 0.2s
BENCH_GO_FILTER ?= .
BENCH_GO_STABLE_N ?= 50001
BENCH_GO_CPU_ROUNDS ?= 5
BENCH_GO_ENV := GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=readonly
BENCHSTAT_VERSION := v0.0.0-20260908200009-22c9c6c9d4da
TRADE_SCHEMAS := bench/cpp/schemas

bench-go-check: venv
	@test -x "$(GO)" || { echo "bench-go: no go command (set GO=/path/to/go; Go 1.26 or newer)" >&2; exit 1; }
	@tools/need-apt.sh protobuf-compiler flatbuffers-compiler
	@rm -rf $(BENCH_GO_DIR)/gen $(BENCH_GO_DIR)/msgpacc && mkdir -p $(BENCH_GO_DIR)/gen/pb
	@cp -r bench/go/. $(BENCH_GO_DIR)/
	@echo "bench-go: code generators (go install tool: protoc-gen-go, protoc-gen-go-vtproto, msgp)"
	@cd $(BENCH_GO_DIR) && $(BENCH_GO_ENV) GOBIN=$(abspath $(BENCH_GO_DIR))/bin $(GO) install tool
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --go --final --json --input=schemas/trade.fbe --output=$(BENCH_GO_DIR)/gen
	@PATH=$(abspath $(BENCH_GO_DIR))/bin:$$PATH protoc -I$(TRADE_SCHEMAS) --go_out=$(BENCH_GO_DIR)/gen/pb \
		--go_opt=paths=source_relative,Mtrade.proto=fbebench/gen/pb --go-vtproto_out=$(BENCH_GO_DIR)/gen/pb \
		--go-vtproto_opt=paths=source_relative,Mtrade.proto=fbebench/gen/pb,features=marshal+unmarshal+size+pool \
		--go-vtproto_opt=pool=fbebench/gen/pb.Account,pool=fbebench/gen/pb.Balance,pool=fbebench/gen/pb.Order trade.proto
	@flatc --go --go-namespace fb -o $(BENCH_GO_DIR)/gen $(TRADE_SCHEMAS)/trade.fbs
	@cd $(BENCH_GO_DIR)/msgpacc && $(BENCH_GO_ENV) $(GO) tool msgp -file trade.go -o trade_gen.go -tests=false >/dev/null
	@cd $(BENCH_GO_DIR) && $(BENCH_GO_ENV) $(GO) vet . && $(BENCH_GO_ENV) $(GO) test -count=1 -run TestRows -v . \
		>check.txt 2>&1 || { cat check.txt; exit 1; }
	@grep -E "row	|^(ok|FAIL|PASS)" $(BENCH_GO_DIR)/check.txt | sed 's/^ *bench_test.go:[0-9]*: /bench-go: /'
	@$(PYTHON) -m pytest -q -p no:cacheprovider bench/go/test_report.py

bench-go: bench-go-check
	@cd $(BENCH_GO_DIR) && $(BENCH_GO_ENV) $(GO) test -c -o bin/bench.test .
	@cd $(BENCH_GO_DIR) && { $(BENCH_GO_ENV) GOBIN=$(abspath $(BENCH_GO_DIR))/bin GOFLAGS=-mod=mod \
		$(GO) install golang.org/x/perf/cmd/benchstat@$(BENCHSTAT_VERSION) >/dev/null 2>&1 \
		|| echo "bench-go: benchstat did not install: the table's medians only"; }
	@rm -f $(BENCH_GO_DIR)/raw.txt
	@for i in $$(seq $(BENCH_GO_ROUNDS)); do \
		echo "bench-go: round $$i/$(BENCH_GO_ROUNDS) (testing.B, -benchtime $(BENCH_GO_TIME))"; \
		(cd $(BENCH_GO_DIR) && bin/bench.test -test.run '^$$' -test.bench '$(BENCH_GO_FILTER)' -test.benchmem \
			-test.benchtime $(BENCH_GO_TIME) -test.count 1 >>raw.txt) || { cat $(BENCH_GO_DIR)/raw.txt; exit 1; }; \
	done
	@if [ -x $(BENCH_GO_DIR)/bin/benchstat ]; then $(BENCH_GO_DIR)/bin/benchstat $(BENCH_GO_DIR)/raw.txt \
		>$(BENCH_GO_DIR)/benchstat.txt && echo "bench-go: benchstat: $(BENCH_GO_DIR)/benchstat.txt"; fi
	@rm -f $(BENCH_GO_DIR)/cpu.json
	@if [ "$(BENCH_GO_CPU_ROUNDS)" != 0 ]; then \
		echo "bench-go: CPU time per operation ($(BENCH_GO_CPU_ROUNDS) rounds, the process's user + system time)" && \
		$(PYTHON) bench/go/report.py --cpu $(BENCH_GO_DIR)/bin/bench.test --raw $(BENCH_GO_DIR)/raw.txt \
			--cpu-rounds $(BENCH_GO_CPU_ROUNDS) --cpu-times $(BENCH_GO_DIR)/cpu.json; fi
	@rm -f $(BENCH_GO_DIR)/instr.json
	@if [ "$(BENCH_GO_STABLE_N)" != 0 ]; then tools/need-apt.sh valgrind && \
		echo "bench-go: instructions per operation under callgrind (N = $(BENCH_GO_STABLE_N))" && \
		$(PYTHON) bench/go/report.py --count $(BENCH_GO_DIR)/bin/bench.test --n $(BENCH_GO_STABLE_N) \
			--raw $(BENCH_GO_DIR)/raw.txt --instr $(BENCH_GO_DIR)/instr.json; fi
	@$(PYTHON) bench/go/report.py --raw $(BENCH_GO_DIR)/raw.txt --check $(BENCH_GO_DIR)/check.txt \
		--gomod bench/go/go.mod --go $(GO) --results $(BENCH_GO_DIR) --instr $(BENCH_GO_DIR)/instr.json \
		--cpu-times $(BENCH_GO_DIR)/cpu.json \
		--runs "$(BENCH_GO_ROUNDS) rounds of -benchtime $(BENCH_GO_TIME)"

# make bench-publish (mk/bench.mk) runs this first: the last make bench-go run's table into
# bench/results/go.{json,md} and docs/benchmarks.md's Go part.
.PHONY: bench-publish-go
bench-publish-go: venv
	@if [ -f $(BENCH_GO_DIR)/go.json ]; then \
		$(PYTHON) bench/go/report.py --result $(BENCH_GO_DIR)/go.json --out bench/results --readme docs/benchmarks.md >/dev/null \
		&& echo "bench-publish: the Go table into bench/results/go.{json,md} and docs/benchmarks.md"; \
	else echo "bench-publish: no Go run in $(BENCH_GO_DIR) (make bench-go): the Go table is left as it is"; fi

# Fuzzing the generated readers (fuzz/go: go test -fuzz, both models and JSON, every struct of the
# original's proto.fbe and test.fbe, or of the project's trade.fbe and everything.fbe without
# SHARED). make fuzz runs each target for FUZZ_SECONDS; make test-go runs the seed corpus and
# GO_FUZZ_QUICK executions of each (Go's fuzzer takes no seed: the fixed part is the corpus).
#
#   make fuzz-go       FuzzVersioned, FuzzFinal and FuzzJSON for FUZZ_SECONDS each (make fuzz runs it);
#                      a failing input is left in build/fuzz/go/fuzzgo/testdata/fuzz/
.PHONY: fuzz-go fuzz-go-quick
GO_FUZZ_DIR := build/fuzz/go
GO_FUZZ_TARGETS := FuzzVersioned FuzzFinal FuzzJSON
GO_FUZZ_QUICK ?= 20000x
FUZZ_SECONDS ?= 120

# $(1): -fuzztime of each target
define go_fuzz_run
	@GO="$(GO)" $(PYTHON) fuzz/go/build.py $(GO_FUZZ_DIR)
	@cd $(GO_FUZZ_DIR) && $(GO_ENV) $(GO) vet ./fuzzgo && $(GO_ENV) $(GO) test -count=1 -run 'Fuzz' ./fuzzgo
	@for t in $(GO_FUZZ_TARGETS); do \
		echo "fuzz-go: $$t, -fuzztime $(1)"; \
		(cd $(GO_FUZZ_DIR) && $(GO_ENV) $(GO) test -run '^$$' -fuzz "^$$t\$$" -fuzztime $(1) ./fuzzgo \
			>$$t.log 2>&1) || { tail -40 $(GO_FUZZ_DIR)/$$t.log; exit 1; }; \
		grep -E "^fuzz: elapsed" $(GO_FUZZ_DIR)/$$t.log | tail -1; done
endef

fuzz-go: venv
	$(call go_fuzz_run,$(FUZZ_SECONDS)s)

fuzz-go-quick: venv
	$(call go_fuzz_run,$(GO_FUZZ_QUICK))

# The TCP example (examples/go, docs/go.md "Protocol"): the fbec --go --final --proto code
# of examples/cpp/tcp/rpc.fbe goes to examples/go/gen (not checked in), then
#
#   make example-go        a server on a free port of 127.0.0.1 and a client against it
#   make example-go-test   its tests (make test-go runs them): loopback in both models, clients
#                          that never read, split frame headers, the connection limit, idle
#                          connections, a -final mismatch; then the hostile clients of
#                          tests/tcp_examples against its server (docs/tcp-examples.md)
#   make fuzz-go-receiver  FuzzReceiver (runtime/go/fbe: any stream in any chunking) and
#                          FuzzGeneratedReceiver (tests/go/protocol: the generated Receiver,
#                          Proxy and Client of tests/everything) for FUZZ_SECONDS each (make
#                          fuzz runs it); make test-go runs FuzzReceiver for GO_FUZZ_QUICK and
#                          the seeds of both
.PHONY: example-go example-go-gen example-go-test fuzz-go-receiver

example-go-gen: venv
	@rm -rf examples/go/gen
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --go --final --proto --input=examples/cpp/tcp/rpc.fbe --output=examples/go/gen

example-go: example-go-gen
	cd examples/go && $(GO_ENV) $(GO) run ./cmd/tcp

example-go-test: example-go-gen $(STATICCHECK)
	@cd examples/go && unformatted="$$($(GO_ENV) $(dir $(GO))gofmt -l tcp cmd)" && \
		{ test -z "$$unformatted" || { echo "gofmt -l: $$unformatted" >&2; exit 1; }; }
	cd examples/go && $(GO_ENV) $(GO) vet ./... && $(GO_ENV) $(STATICCHECK) ./... && $(GO_ENV) $(GO) test -count=1 ./...
	cd examples/go && $(GO_ENV) $(GO) build -o $(CURDIR)/build/examples/go-tcp ./cmd/tcp
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples --server "build/examples/go-tcp -serve" \
		--client "build/examples/go-tcp -connect {address}"

fuzz: fuzz-go-receiver
fuzz-go-receiver: venv
	cd runtime/go && $(GO_ENV) $(GO) test -run '^$$' -fuzz '^FuzzReceiver$$' -fuzztime $(FUZZ_SECONDS)s ./fbe
	@$(PYTHON) tests/go/protocol/setup.py $(GO_FUZZ_DIR)-protocol
	cd $(GO_FUZZ_DIR)-protocol && $(GO_ENV) $(GO) test -run '^$$' -fuzz '^FuzzGeneratedReceiver$$' \
		-fuzztime $(FUZZ_SECONDS)s ./protocol

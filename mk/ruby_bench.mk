# The Ruby benchmark (bench/ruby, docs/benchmarks.md "Ruby"): our generated code (fbec --ruby
# --final --json) against google-protobuf (C extension), msgpack (C extension), Marshal, oj and
# json, in one ruby process timed with benchmark-ips.
#
#   make bench-ruby        (make bench runs it) build the gem's C accelerator (ruby-accel: our
#                          versioned row writes through it, a pure-Ruby row without it),
#                          generate our code and trade_pb.rb (protoc) into
#                          build/bench-ruby, check every row's round trip, time every row
#                          (BENCH_RUBY_ROUNDS rounds of benchmark-ips, BENCH_RUBY_WARMUP s warm-up
#                          and BENCH_RUBY_TIME s per operation), print the table with the goals of
#                          issue 28 and write build/bench-ruby/ruby.md (make bench-publish copies
#                          it into bench/results/)
#   make bench-ruby-check  only the generation and every row's check (make test-ruby runs it)
.PHONY: bench-ruby bench-ruby-check bench-publish-ruby
BENCH_TARGETS += bench-ruby
test-ruby: bench-ruby-check
bench-publish: bench-publish-ruby

BENCH_RUBY_DIR := build/bench-ruby
BENCH_RUBY_ROUNDS ?= 5
BENCH_RUBY_WARMUP ?= 0.5
BENCH_RUBY_TIME ?= 1
BENCH_RUBY_APT := ruby ruby-google-protobuf ruby-msgpack ruby-oj ruby-benchmark-ips protobuf-compiler rubocop
BENCH_RUBY_RUN := ruby -w -Iruntime/ruby/lib -I$(RUBY_EXT) -I$(BENCH_RUBY_DIR)/gen bench/ruby/bench_trade.rb

bench-ruby-check: venv ruby-accel
	@tools/need-apt.sh $(BENCH_RUBY_APT) || { echo "bench-ruby: cannot install $(BENCH_RUBY_APT)" >&2; exit 1; }
	@rm -rf $(BENCH_RUBY_DIR)/gen && mkdir -p $(BENCH_RUBY_DIR)/gen/trade
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --ruby --final --json --input=schemas/trade.fbe --output=$(BENCH_RUBY_DIR)/gen/trade
	@protoc -Ibench/cpp/schemas --ruby_out=$(BENCH_RUBY_DIR)/gen bench/cpp/schemas/trade.proto
	@rubocop -f quiet -c runtime/ruby/.rubocop.yml bench/ruby
	@out="$$($(BENCH_RUBY_RUN) --check)"; status=$$?; echo "$$out" | sed 's/^row\t/bench-ruby: /'; exit $$status

bench-ruby: bench-ruby-check
	@echo "bench-ruby: revision $$(git rev-parse --short HEAD), load $$(cut -d' ' -f1-3 /proc/loadavg)"
	@$(BENCH_RUBY_RUN) --rounds $(BENCH_RUBY_ROUNDS) --warmup $(BENCH_RUBY_WARMUP) --time $(BENCH_RUBY_TIME) \
		--out $(BENCH_RUBY_DIR) >$(BENCH_RUBY_DIR)/run.txt || { cat $(BENCH_RUBY_DIR)/run.txt; exit 1; }
	@{ echo; echo "Run: $$(date -u +%Y-%m-%dT%H:%M:%SZ), source $$(git rev-parse --short HEAD)$$(git diff --quiet HEAD || echo +changes), load average $$(cut -d' ' -f1-3 /proc/loadavg), $$(nproc) CPUs."; } >>$(BENCH_RUBY_DIR)/ruby.md
	@grep -v '^row' $(BENCH_RUBY_DIR)/run.txt

# make bench-publish (mk/bench.mk) runs this: the last make bench-ruby run's table into
# bench/results/ruby.md (docs/benchmarks.md's Ruby results are updated by hand from it).
bench-publish-ruby:
	@if [ -f $(BENCH_RUBY_DIR)/ruby.md ]; then cp $(BENCH_RUBY_DIR)/ruby.md bench/results/ \
		&& echo "bench-publish: the Ruby table into bench/results/ruby.md"; \
	else echo "bench-publish: no Ruby run in $(BENCH_RUBY_DIR) (make bench-ruby): bench/results/ruby.md is left as it is"; fi

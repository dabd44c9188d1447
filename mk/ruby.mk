# Ruby: the runtime gem fbe (runtime/ruby) and the fbec --ruby target (docs/ruby.md).
#
#   make test-ruby     Debian's Ruby 3.1, minitest and RuboCop installed when missing (apt-get);
#                      fbec --ruby's output for every schema (tests/ruby/gen.py, into
#                      build/ruby/gen) loaded with warnings as errors; RuboCop over the
#                      runtime, the tests and the generated code; the gem built, installed
#                      into build/ruby/gems and used from there (its C accelerator loaded), and
#                      installed with no C compiler on PATH (pure Ruby); then the minitest suites of
#                      tests/ruby (the golden vectors of $(SHARED) in both models, byte for byte)
#                      twice: with the C accelerator (runtime/ruby/ext/fbe_accel, built into
#                      build/ruby/ext with -Wall -Wextra, a warning fails) and with FBE_PURE_RUBY=1,
#                      then tests/ruby/accel_test.rb and accel_read_test.rb over the accelerator built with ASan
.PHONY: test-ruby ruby-toolchain ruby-accel ruby-accel-asan
TEST_TARGETS += test-ruby

RUBY_PACKAGES := ruby ruby-dev gcc make ruby-minitest rubocop
RUBY_GEN := build/ruby/gen
RUBY_GEMS := $(abspath build/ruby/gems)
RUBY_EXT := build/ruby/ext

ruby-toolchain:
	@tools/need-apt.sh $(RUBY_PACKAGES) || { echo "test-ruby: cannot install $(RUBY_PACKAGES)" >&2; exit 1; }
	@command -v ruby >/dev/null && command -v rubocop >/dev/null || { echo "test-ruby: ruby or rubocop missing" >&2; exit 1; }

# The C accelerator, built as gem install builds it (extconf.rb, then make); a compiler warning fails.
ruby-accel: ruby-toolchain
	rm -rf $(RUBY_EXT) && mkdir -p $(RUBY_EXT)
	cd $(RUBY_EXT) && ruby $(CURDIR)/runtime/ruby/ext/fbe_accel/extconf.rb && out="$$($(MAKE) --no-print-directory 2>&1)"; \
		status=$$?; echo "$$out"; test $$status = 0 && test -f fbe_accel.so && ! echo "$$out" | grep -q 'warning:'

test-ruby: venv ruby-toolchain ruby-accel
	rm -rf $(RUBY_GEN) && $(PYTHON) tests/ruby/gen.py $(RUBY_GEN)
	@for f in $(RUBY_GEN)/*/*.rb; do \
		out="$$(ruby -w -Iruntime/ruby/lib -e "require './$$f'" 2>&1)"; \
		test -z "$$out" || { echo "ruby -w $$f: $$out" >&2; exit 1; }; done
	rubocop -c runtime/ruby/.rubocop.yml runtime/ruby conformance/testees/ruby examples/packages/ruby examples/ruby fuzz/ruby
	rubocop -c tests/ruby/rubocop-generated.yml tests/ruby $(RUBY_GEN)
	rm -rf $(RUBY_GEMS) && cd runtime/ruby && gem build --quiet fbe.gemspec -o $(abspath build/ruby)/fbe.gem
	gem install --local --no-document --install-dir $(RUBY_GEMS) build/ruby/fbe.gem
	cd /tmp && GEM_HOME=$(RUBY_GEMS) GEM_PATH=$(RUBY_GEMS) ruby -e 'require "fbe"; require "$(abspath $(RUBY_GEN))/trade/proto"; \
		o = Proto::Order.new(id: 7, symbol: "EURUSD"); raise "round trip" unless Proto::Order.from_final(o.to_final) == o; \
		raise "not the installed gem" unless $$LOADED_FEATURES.grep(/fbe\.rb$$/).first.start_with?("$(RUBY_GEMS)"); \
		raise "the installed gem has no C accelerator" unless Fbe.accelerated? && \
			$$LOADED_FEATURES.grep(/fbe_accel\.so$$/).first.start_with?("$(RUBY_GEMS)"); \
		puts "the installed gem reads what it writes: #{o}"'
	rm -rf $(RUBY_GEMS)-nocc build/ruby/nocc-bin && mkdir -p build/ruby/nocc-bin
	for b in ruby make sh; do ln -s "$$(command -v $$b)" build/ruby/nocc-bin/$$b; done
	PATH=$(abspath build/ruby/nocc-bin) ruby "$$(command -v gem)" install --local --no-document \
		--install-dir $(RUBY_GEMS)-nocc build/ruby/fbe.gem
	cd /tmp && GEM_HOME=$(RUBY_GEMS)-nocc GEM_PATH=$(RUBY_GEMS)-nocc ruby -e 'require "fbe"; \
		require "$(abspath $(RUBY_GEN))/trade/proto"; o = Proto::Order.new(id: 7, symbol: "EURUSD"); \
		raise "round trip" unless Proto::Order.from_fbe(o.to_fbe) == o; raise "accelerated" if Fbe.accelerated?; \
		puts "installed without a C compiler, the gem runs in pure Ruby: #{o}"'
	FBE_ACCEL_EXPECTED=1 ruby -w -I$(RUBY_EXT) -Itests/ruby -e 'Dir["tests/ruby/*_test.rb"].sort.each { |f| require "./#{f}" }'
	FBE_PURE_RUBY=1 ruby -w -Itests/ruby -e 'Dir["tests/ruby/*_test.rb"].sort.each { |f| require "./#{f}" }'
	$(MAKE) --no-print-directory ruby-accel-asan

# The accelerator built with AddressSanitizer (its heap accesses: Ruby's own scan of the machine stack
# trips ASan's stack checks, so they are off) under the seeded mutations of tests/ruby/accel_test.rb (writers)
# and accel_read_test.rb (readers).
ruby-accel-asan:
	rm -rf $(RUBY_EXT)-asan && mkdir -p $(RUBY_EXT)-asan
	cd $(RUBY_EXT)-asan && ruby $(CURDIR)/runtime/ruby/ext/fbe_accel/extconf.rb >/dev/null && $(MAKE) --no-print-directory \
		CC="gcc -fsanitize=address --param asan-stack=0 -fno-omit-frame-pointer" LDSHARED="gcc -shared -fsanitize=address"
	ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD="$$(gcc -print-file-name=libasan.so)" FBE_ACCEL_EXPECTED=1 \
		ruby -I$(RUBY_EXT)-asan -Itests/ruby -e 'require "./tests/ruby/accel_test"; require "./tests/ruby/accel_read_test"'

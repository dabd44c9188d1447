# Fuzzing the Ruby readers and receivers (fuzz/ruby/fuzzer.rb, docs/ruby.md "Fuzzing"): a seeded
# mutation fuzzer (no coverage-guided fuzzer of Ruby is packaged by Debian) over from_fbe,
# from_final, verify, from_json and the generated Receiver, FinalReceiver and Proxy, seeded from the
# golden vectors of $(SHARED) and schemas/tests/everything.fbe, with the gem's C accelerator loaded
# (its readers, which leave what they refuse to the pure-Ruby ones; tests/ruby/accel_read_test.rb
# compares both).
#
#   make fuzz-ruby   each target for FUZZ_SECONDS with a new seed, which it prints (make fuzz runs
#                    it); a failing input is left in build/fuzz/crashes/ruby-*
# make test-ruby runs the same fuzzer for a fixed number of inputs with seed 1 (tests/ruby/fuzz_test.rb).
.PHONY: fuzz-ruby
fuzz: fuzz-ruby

RUBY_FUZZ_GEN := build/fuzz/ruby/gen

fuzz-ruby: venv ruby-toolchain ruby-accel
	@rm -rf $(RUBY_FUZZ_GEN) && $(PYTHON) tests/ruby/gen.py $(RUBY_FUZZ_GEN)
	ruby -Iruntime/ruby/lib -I$(RUBY_EXT) fuzz/ruby/fuzzer.rb $(RUBY_FUZZ_GEN) --seconds $(FUZZ_SECONDS) \
		--crashes $(CURDIR)/build/fuzz/crashes

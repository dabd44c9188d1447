# The Ruby TCP example (examples/ruby, docs/tcp-examples.md): the rpc protocol of
# examples/cpp/tcp/rpc.fbe over the standard library's sockets, on the runtime gem fbe.
#
#   make example-ruby       a server on a free port and a client against it, in both models
#   make example-ruby-test  (in make test) that run, then the hostile clients of
#                           tests/tcp_examples against its server with its own client (slow clients,
#                           the frame timeout, eviction...), the Python example's client against its
#                           server and its client against the Python example's server
.PHONY: example-ruby example-ruby-gen example-ruby-test
TEST_TARGETS += example-ruby-test

EXAMPLE_RB_GEN := build/examples/ruby/gen
EXAMPLE_RB_RUN := env FBE_EXAMPLE_GEN=$(abspath $(EXAMPLE_RB_GEN)) ruby -I$(CURDIR)/runtime/ruby/lib \
	$(CURDIR)/examples/ruby/tcp_example.rb

example-ruby-gen: venv ruby-toolchain
	@rm -rf $(EXAMPLE_RB_GEN)
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --ruby --final --proto --input=examples/cpp/tcp/rpc.fbe \
		--output=$(EXAMPLE_RB_GEN)

example-ruby: example-ruby-gen
	$(EXAMPLE_RB_RUN)

example-ruby-test: example-ruby-gen example-python-gen
	$(EXAMPLE_RB_RUN)
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples --server "$(EXAMPLE_RB_RUN) serve" \
		--client "$(EXAMPLE_RB_RUN) connect {address}"
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples -m client --server "$(EXAMPLE_RB_RUN) serve" \
		--client "$(EXAMPLE_PY_RUN) connect {address}"
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples -m client --server "$(EXAMPLE_PY_RUN) serve" \
		--client "$(EXAMPLE_RB_RUN) connect {address}"

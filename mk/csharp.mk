# C#: the runtime Fbe.dll (runtime/csharp) and the fbec --csharp target, on Debian's Mono
# (docs/csharp.md).
#
#   make test-csharp   installs Mono, Newtonsoft.Json and NUnit from Debian (tools/need-apt.sh) and
#                      fails when it cannot; builds Fbe.dll and every schema's fbec --csharp --final
#                      output with mcs -warnaserror (tests/csharp/build.py), then runs the NUnit tests
#                      of tests/csharp with nunit-console: the runtime's own, and the golden vectors
#                      of $(SHARED) in both models (skipped with a message without them, failed
#                      under CI=true); its last line is `test-csharp: N passed, N failed, N skipped`
.PHONY: test-csharp csharp-toolchain
TEST_TARGETS += test-csharp

CSHARP_BUILD := build/csharp
CSHARP_APT := mono-complete libnewtonsoft-json-cil-dev libnunit-cil-dev nunit-console

csharp-toolchain:
	@tools/need-apt.sh $(CSHARP_APT)
	@command -v mcs >/dev/null && command -v nunit-console >/dev/null || \
		{ echo "test-csharp: mcs or nunit-console missing after installing $(CSHARP_APT)" >&2; exit 1; }

test-csharp: venv csharp-toolchain
	$(PYTHON) tests/csharp/build.py $(CSHARP_BUILD)
	@cd $(CSHARP_BUILD) && rm -f TestResult.xml && status=0 && \
		{ nunit-console -nologo Tests.dll -xml=TestResult.xml | grep -v '^  at ' || status=$$?; } && \
		$(PYTHON) $(abspath tests/csharp/build.py) --summary TestResult.xml && exit $$status

# The TCP example (examples/csharp, docs/csharp.md "Protocol"): the fbec --csharp --final --proto code of
# examples/cpp/tcp/rpc.fbe and the example built into build/examples/csharp (Fbe.dll by runtime/csharp's
# Makefile, TcpExample.exe with mcs -warnaserror).
#
#   make example-csharp       a server on a free port and a client against it, in both models
#   make example-csharp-test  (in make test) that run, then the hostile clients of tests/tcp_examples
#                             against its server with its own client (slow clients, the frame timeout,
#                             eviction...; docs/tcp-examples.md), the Python example's client against
#                             its server and its client against the Python example's server
.PHONY: example-csharp example-csharp-build example-csharp-test
TEST_TARGETS += example-csharp-test

EXAMPLE_CS_DIR := build/examples/csharp
EXAMPLE_CS_RUN := mono $(abspath $(EXAMPLE_CS_DIR))/TcpExample.exe

example-csharp-build: venv csharp-toolchain
	@$(MAKE) -s -C runtime/csharp OUT=$(abspath $(EXAMPLE_CS_DIR))
	@rm -rf $(EXAMPLE_CS_DIR)/gen
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --csharp --final --proto --input=examples/cpp/tcp/rpc.fbe --output=$(EXAMPLE_CS_DIR)/gen
	mcs -langversion:7 -warn:4 -warnaserror -nologo -debug- -target:exe -out:$(EXAMPLE_CS_DIR)/TcpExample.exe \
		-r:$(EXAMPLE_CS_DIR)/Fbe.dll -r:Mono.Posix.dll -r:System.Numerics.dll examples/csharp/TcpExample.cs $(EXAMPLE_CS_DIR)/gen/*.cs

example-csharp: example-csharp-build
	$(EXAMPLE_CS_RUN)

example-csharp-test: example-csharp-build example-python-gen
	$(EXAMPLE_CS_RUN)
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples --server "$(EXAMPLE_CS_RUN) serve" \
		--client "$(EXAMPLE_CS_RUN) connect {address}"
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples -m client --server "$(EXAMPLE_CS_RUN) serve" \
		--client "$(EXAMPLE_PY_RUN) connect {address}"
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples -m client --server "$(EXAMPLE_PY_RUN) serve" \
		--client "$(EXAMPLE_CS_RUN) connect {address}"

# The C# fuzzer (tests/csharp/Fuzzer.cs, docs/csharp.md "Fuzzing"): seeded mutations of the golden vectors, their
# JSON and the protocol streams through the generated readers and the Receiver (SharpFuzz, coverage-guided, needs
# the .NET SDK and NuGet, which this machine lacks). make test-csharp runs a short fixed-seed run (FuzzerTest);
#
#   make fuzz-csharp   (in make fuzz) FUZZ_SECONDS with a new seed, which it prints; a failing input is left in
#                      build/fuzz/crashes/csharp-*
.PHONY: fuzz-csharp
fuzz: fuzz-csharp

fuzz-csharp: venv csharp-toolchain
	$(PYTHON) tests/csharp/build.py $(CSHARP_BUILD)
	mcs -langversion:7 -warn:4 -warnaserror -nologo -debug- -target:exe -out:$(CSHARP_BUILD)/Fuzz.exe \
		-r:$(CSHARP_BUILD)/Fbe.dll -r:$(CSHARP_BUILD)/Tests.dll -r:$(CSHARP_BUILD)/nunit.framework.dll fuzz/csharp/Fuzz.cs
	cd $(CSHARP_BUILD) && mono Fuzz.exe seconds=$(FUZZ_SECONDS) seed=$$(date +%s) crashes=$(CURDIR)/build/fuzz/crashes

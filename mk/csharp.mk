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

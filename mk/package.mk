# Each runtime as a user's project consumes it (docs/<language>.md "Using it from your own project").
#
#   make test-packages  the C++ CMake package (test-package below), then tests/package/
#                       test_consumers.py: a fresh project per language in a scratch folder
#                       outside the repository (pip install of the repo into a new venv, go mod
#                       edit -replace, npm install of a path and of the npm pack tarball, mvn
#                       install of runtime/java and the sample poms of examples/packages for Java
#                       and Kotlin, FetchContent for C++, runtime/csharp's Makefile and mcs for
#                       C#, gem build + gem install into a GEM_HOME for Ruby), code generated from the test's own
#                       schema, the bytes Python writes read and written back identically by
#                       every language, the bytes C++ writes too, and a Go server exchanging
#                       an Order over a socket with a Python and a JavaScript client; the
#                       Kafka serdes of Java, Go, Python and TypeScript installed likewise
#                       (examples/packages/kafka-*), each reading the others' records and headers
#   make test-package   builds and runs tests/package/consumer three ways, each from a
#                       scratch folder (build/package-test): add_subdirectory, FetchContent
#                       from a local path, cmake --install + find_package(fbe COMPONENTS json)
.PHONY: test-package test-packages
TEST_TARGETS += test-packages

test-packages: test-package csharp-toolchain ruby-toolchain
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	MVN="$(MVN)" NPM="$(NPM)" NODE="$(NODE)" GO="$(GO)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/package/test_consumers.py

test-package: venv
	@tools/need-apt.sh cmake g++ make rapidjson-dev
	@JOBS=$(JOBS) tests/package/run.sh build/package-test $(PYTHON)

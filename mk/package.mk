# The C++ package as a CMake user consumes it (docs/cpp.md "Using it from CMake").
#
#   make test-package  builds and runs tests/package/consumer three ways, each from a
#                      scratch folder (build/package-test): add_subdirectory, FetchContent
#                      from a local path, cmake --install + find_package(fbe COMPONENTS json)
.PHONY: test-package
TEST_TARGETS += test-package

test-package: venv
	@tools/need-apt.sh cmake g++ make rapidjson-dev
	@JOBS=$(JOBS) tests/package/run.sh build/package-test $(PYTHON)

# Go: the runtime module (runtime/go, import path github.com/fbe-toolkit/fbe/runtime/go/fbe).
#
#   make test-go       the Go runtime's tests (go test, gofmt -l, go vet; the golden
#                      vectors of $(SHARED) when present) and fbec --go's output for
#                      every schema through gofmt -l and go vet (tests/go)
# GO is the go command (default: go on PATH, else /usr/local/go/bin/go); the toolchain
# must be the one given (GOTOOLCHAIN=local: nothing is downloaded).
.PHONY: test-go
TEST_TARGETS += test-go

GO ?= $(or $(shell command -v go 2>/dev/null),/usr/local/go/bin/go)
GO_ENV := GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0

test-go: venv
	@test -x "$(GO)" || { echo "test-go: no go command (set GO=/path/to/go; Go 1.26 or newer)" >&2; exit 1; }
	@cd runtime/go && unformatted="$$($(GO_ENV) $(dir $(GO))gofmt -l .)" && \
		{ test -z "$$unformatted" || { echo "gofmt -l: $$unformatted" >&2; exit 1; }; }
	cd runtime/go && $(GO_ENV) $(GO) vet ./...
	cd runtime/go && $(GO_ENV) $(GO) test -count=1 ./...
	GO="$(GO)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/go

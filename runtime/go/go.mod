module github.com/fbe-toolkit/fbe/runtime/go

go 1.26

require github.com/go-json-experiment/json v1.27.2

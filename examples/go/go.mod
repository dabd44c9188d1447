module github.com/fbe-toolkit/fbe/examples/go

go 1.26

require github.com/fbe-toolkit/fbe/runtime/go v0.0.0

require github.com/go-json-experiment/json v1.27.2 // indirect

replace github.com/fbe-toolkit/fbe/runtime/go => ../../runtime/go

module github.com/fbe-toolkit/fbe/examples/go

go 1.26

require github.com/fbe-toolkit/fbe/runtime/go v0.0.0

replace github.com/fbe-toolkit/fbe/runtime/go => ../../runtime/go

module github.com/fbe-toolkit/fbe/runtime/go

go 1.26

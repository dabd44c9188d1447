module github.com/fbe-toolkit/fbe/runtime/kafka/go

go 1.26.0

require (
	github.com/fbe-toolkit/fbe/runtime/go v0.0.0
	github.com/twmb/franz-go v1.22.3
	github.com/twmb/franz-go/pkg/kadm v1.20.0
)

require (
	github.com/go-json-experiment/json v1.27.2 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	github.com/twmb/franz-go/pkg/kmsg v1.15.1 // indirect
)

replace github.com/fbe-toolkit/fbe/runtime/go => ../../go

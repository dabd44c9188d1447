module fbebench

go 1.26

replace github.com/fbe-toolkit/fbe/runtime/go => ../../runtime/go

tool (
	github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto
	github.com/tinylib/msgp
	google.golang.org/protobuf/cmd/protoc-gen-go
)

require (
	github.com/fbe-toolkit/fbe/runtime/go v0.0.0
	github.com/google/flatbuffers v2.0.8+incompatible
	github.com/planetscale/vtprotobuf v0.6.0
	github.com/tinylib/msgp v1.6.5
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/go-json-experiment/json v1.27.2 // indirect
	github.com/philhofer/fwd v1.2.0 // indirect
	golang.org/x/mod v0.18.0 // indirect
	golang.org/x/tools v0.22.0 // indirect
)

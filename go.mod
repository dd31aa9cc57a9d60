module github.com/robocup-dnetwork/dnetwork

go 1.26.0

require (
	github.com/google/gopacket v1.1.19
	go.uber.org/goleak v1.3.0
	go.yaml.in/yaml/v4 v4.0.0
	golang.org/x/net v0.62.0
	golang.org/x/sync v0.25.0
	golang.org/x/sys v0.50.0
	google.golang.org/protobuf v1.36.12
)

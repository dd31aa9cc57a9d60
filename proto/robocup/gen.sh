#!/bin/sh
# Generates robocup.pb.go from the carried robocup.proto with Debian's protoc and
# protoc-gen-go built at the google.golang.org/protobuf version go.mod requires, so the
# output depends only on the protoc version (scripts/setup.sh installs it).
set -eu
command -v protoc >/dev/null || { echo "gen.sh: protoc not found (apt-get install protobuf-compiler)" >&2; exit 1; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go
protoc --plugin=protoc-gen-go="$bin/protoc-gen-go" --go_out=. --go_opt=paths=source_relative \
  --go_opt=Mrobocup.proto=github.com/robocup-dnetwork/dnetwork/proto/robocup robocup.proto

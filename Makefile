# dnetwork: the entry points the README uses. Every target installs what it needs.
GO      ?= go
BIN     := build/dnetwork
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)

.PHONY: all setup build test demo fuzz bench generate fmt clean

all: build

setup:
	./scripts/setup.sh

build: setup
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/dnetwork

## test: everything CI runs (gofmt, vet, generate check, race tests, fuzz smoke)
test:
	./scripts/test.sh

## demo: the main job on a laptop
demo: build
	./scripts/demo.sh

fuzz: setup
	./scripts/fuzz.sh

bench: setup
	$(GO) test -run '^$$' -bench . -benchmem ./...

generate: setup
	$(GO) generate ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf build

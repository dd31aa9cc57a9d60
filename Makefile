# dnetwork: the entry points the README uses. Every target installs what it needs.
GO      ?= go
BIN     := build/dnetwork
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)

.PHONY: all setup setup-demo build test demo fuzz bench generate fmt clean

all: build

## setup: everything the tests need (root installs what is missing)
setup:
	./scripts/setup.sh --test

## setup-demo: only what building dnetwork and running the demo need
setup-demo:
	./scripts/setup.sh --demo

build: setup-demo
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/dnetwork

## test: everything CI runs (gofmt, vet, generate check, race tests, fuzz smoke)
test:
	./scripts/test.sh

## demo: the main job on a laptop; installs only what the demo needs
demo: build
	./scripts/demo.sh

fuzz: setup
	./scripts/fuzz.sh

bench: setup
	$(GO) test -run '^$$' -bench . -benchmem ./...

## generate: message code from msgs/, and docs/parameters.md from the node's declarations
generate: setup-demo
	$(GO) generate ./...
	$(GO) test -count=1 -run '^TestParameterDocs$$' ./cmd/dnetwork -update

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf build

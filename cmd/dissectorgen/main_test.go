package main

import (
	"os"
	"testing"
)

// TestGeneratedIsCurrent: wireshark/dnetwork.lua is what the generator writes from the
// codecs' tables now (go generate ./wireshark rewrites it).
func TestGeneratedIsCurrent(t *testing.T) {
	b, err := os.ReadFile("../../wireshark/dnetwork.lua")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != generate() {
		t.Fatal("wireshark/dnetwork.lua is stale: run go generate ./wireshark")
	}
}

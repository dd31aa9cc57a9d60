// Package cdrtest checks generated message types: it fills them with pseudo-random
// values and verifies that they survive a CDR round trip and agree, byte for byte,
// with a reference codec that writes every field on its own, by reflection (reference.go).
// It is meant for tests only.
package cdrtest

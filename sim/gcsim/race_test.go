//go:build race

package gcsim

const raceEnabled = true

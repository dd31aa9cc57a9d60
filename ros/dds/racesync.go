//go:build cgo && !race

package dds

// raceEnabled reports a race build.
const raceEnabled = false

// raceSync is empty outside race builds (see racesync_race.go).
func raceSync() {}

//go:build cgo && !race

package dds

// raceSync is empty outside race builds (see racesync_race.go).
func raceSync() {}

//go:build !race

package gamecontroller

const raceEnabled = false

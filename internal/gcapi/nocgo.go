//go:build !cgo

package gcapi

import "time"

// Lib is an opened game_controller_api library; without cgo there is none.
type Lib struct{}

// Open fails without cgo.
func Open(string) (*Lib, error) { return nil, ErrNoCgo }

// Game is one game of the GameController's logic; without cgo there is none.
type Game struct{}

// NewGame fails without cgo.
func (*Lib) NewGame([]byte, [2]Team, Side, SideMapping, bool) (*Game, error) { return nil, ErrNoCgo }

// Close does nothing.
func (*Game) Close() {}

// Seek does nothing.
func (*Game) Seek(time.Duration) {}

// Apply reports false.
func (*Game) Apply(Action) bool { return false }

// Read returns nil.
func (*Game) Read(uint8, bool) []byte { return nil }

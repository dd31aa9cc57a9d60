package gcapi

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// open loads the library and a params file, or skips saying where to get them.
func open(t *testing.T) (*Lib, []byte) {
	t.Helper()
	lib, params, err := Locate(".")
	if err != nil {
		t.Skipf("the GameController's game logic is not available (%v): %s", err, Where)
	}
	l, err := Open(lib)
	if errors.Is(err, ErrNoCgo) {
		t.Skip("gcapi needs cgo")
	}
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(params)
	if err != nil {
		t.Fatal(err)
	}
	return l, y
}

// TestGame plays READY, SET and PLAYING through the library and reads its packets.
func TestGame(t *testing.T) {
	l, y := open(t)
	g, err := l.NewGame(y, [2]Team{{17, 0, 2}, {5, 1, 3}}, Home, HomeDefendsLeftGoal, true)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	home := Home
	if g.Apply(WaitForSetPlay) {
		t.Error("SET from INITIAL was legal")
	}
	for _, a := range []Action{StartSetPlay(&home, KickOff), WaitForSetPlay, FreeSetPlay, TeamMessage(Away, false)} {
		if !g.Apply(a) {
			t.Fatalf("%v illegal", a)
		}
	}
	g.Seek(3 * time.Second)
	p := g.Read(7, false)
	if !bytes.HasPrefix(p, []byte("RGme")) || p[4] != 20 || p[5] != 7 || p[10] != 3 || p[18] != 17 || p[88] != 5 {
		t.Errorf("packet % x", p[:20])
	}
	// secsRemaining 597 after 3 s of PLAYING; the away team's budget 11999.
	if secs := int(p[14]) | int(p[15])<<8; secs != 597 {
		t.Errorf("secsRemaining %d, want 597", secs)
	}
	if b := int(p[96]) | int(p[97])<<8; b != 11999 {
		t.Errorf("away messageBudget %d, want 11999", b)
	}
	if td := g.Read(7, true); !bytes.HasPrefix(td, []byte("RGTD")) {
		t.Errorf("true data % x", td[:4])
	}
}

func TestLocate(t *testing.T) {
	t.Setenv(EnvLib, filepath.Join(t.TempDir(), "missing.so"))
	if _, _, err := Locate("."); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing library: %v, want ErrNotFound", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.so")); err == nil {
		t.Error("Open of a missing file succeeded")
	}
}

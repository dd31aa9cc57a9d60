package capture

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/transport"
)

// FuzzReader: no file makes the Reader panic or loop forever, and every datagram it
// returns has valid addresses.
func FuzzReader(f *testing.F) {
	path := filepath.Join(f.TempDir(), "seed.pcapng")
	w, _ := NewWriter(Config{Path: path})
	id := w.AddInterface("gamecontroller", "udp 3838")
	w.Write(Record{Interface: id, Dir: transport.Received, Time: time.Unix(1, 2), Src: gc, Dst: robot, Payload: []byte("RGme")})
	w.Write(Record{Interface: id, Dir: transport.Sent, Time: time.Unix(3, 4), Src: robot, Dst: bcast, Payload: []byte("RGrt")})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = w.Run(ctx)
	seed, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte{0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := NewReader(bytes.NewReader(b))
		if err != nil {
			return
		}
		for range len(b) + 1 { // every datagram takes at least one byte of the file
			p, err := r.Next()
			if err != nil {
				return
			}
			if !p.Src.Addr().IsValid() || !p.Dst.Addr().IsValid() {
				t.Fatalf("datagram with invalid address: %+v", p)
			}
		}
		t.Fatal("more datagrams than bytes")
	})
}

package interfaces_test

import (
	"testing"

	"github.com/robocup-dnetwork/dnetwork/ros/cdr/cdrtest"
)

// FuzzUnmarshal decodes arbitrary bytes as any standard interface type (chosen by
// sel), the parameter service requests a peer sends among them: no panic, and
// whatever decodes survives a round trip.
func FuzzUnmarshal(f *testing.F) {
	types := allMessages()
	sels, samples := cdrtest.Seeds(types)
	for i := range sels {
		f.Add(sels[i], samples[i])
	}
	f.Fuzz(func(t *testing.T, sel uint8, b []byte) { cdrtest.FuzzTypes(t, types, sel, b) })
}

package dmsgs_test

import (
	"testing"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr/cdrtest"
)

// FuzzUnmarshal decodes arbitrary bytes as any dmsgs type (chosen by sel): no panic,
// and whatever decodes survives a round trip.
func FuzzUnmarshal(f *testing.F) {
	types := dmsgs.Messages()
	sels, samples := cdrtest.Seeds(types)
	for i := range sels {
		f.Add(sels[i], samples[i])
	}
	for i, m := range types {
		if m.TypeName() == "dmsgs/msg/TeamInfo" {
			f.Add(uint8(i), cdr.Marshal(teamInfo()))
		}
	}
	f.Fuzz(func(t *testing.T, sel uint8, b []byte) { cdrtest.FuzzTypes(t, types, sel, b) })
}

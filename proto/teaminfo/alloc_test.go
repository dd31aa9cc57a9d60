//go:build !race

// The race detector makes sync.Pool drop entries at random, so allocation counts are
// only meaningful without it.

package teaminfo

import "testing"

func TestZeroAllocs(t *testing.T) {
	zju := tvTeam296Bytes(t)
	plain := readHex(t, "dnet-v1.txt")
	tagged := readHex(t, "dnet-v1-tagged.hex")
	k := mustKey(t, goldenKey)
	var (
		zp  ZJUPacket
		dp  DNetPacket
		s   State
		buf = make([]byte, 0, ZJUSize)
	)
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"zju decode", func() { _ = zp.UnmarshalBinary(zju) }},
		{"zju decode to State", func() { _ = DecodeZJU(zju, &s) }},
		{"zju encode", func() { buf, _ = tvTeam296.AppendBinary(buf[:0]) }},
		{"dnet decode", func() { _, _ = dp.Decode(plain, nil) }},
		{"dnet decode verified", func() { _, _ = dp.Decode(tagged, k) }},
		{"dnet decode to State", func() { _, _ = DecodeDNet(tagged, &s, k) }},
		{"dnet encode", func() { buf, _ = dnetGolden.AppendBinary(buf[:0]) }},
		{"dnet encode signed", func() { buf, _ = dnetGolden.AppendSigned(buf[:0], k) }},
		{"dnet encode State", func() { buf, _ = AppendDNet(buf[:0], &dnetGoldenState, k) }},
	} {
		if n := testing.AllocsPerRun(200, tc.f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", tc.name, n)
		}
	}
}

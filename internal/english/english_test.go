package english

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Count(0, "teammate"), "0 teammates"},
		{Count(1, "teammate"), "1 teammate"},
		{Count(2, "teammate"), "2 teammates"},
		{Count(uint64(1), "packet"), "1 packet"},
		{Count(uint64(21), "packet"), "21 packets"},
		{Count(int64(-1), "datagram"), "-1 datagrams"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

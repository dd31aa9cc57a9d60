package sim3d

import "testing"

func TestSlotDueTable(t *testing.T) {
	for _, tc := range []struct {
		slot  Slot
		cycle int64
		want  bool
	}{
		{Slot{1, 11, 2}, 0, true},
		{Slot{1, 11, 2}, 1, false},
		{Slot{1, 11, 2}, 22, true},
		{Slot{4, 11, 2}, 5000, true}, // protocols.md §6.6: 5000 mod 22 = 6 → uniform number 4
		{Slot{4, 11, 2}, 5001, false},
		{Slot{3, 11, 2}, 5000, false},
		{Slot{11, 11, 2}, 20, true},
		{Slot{11, 11, 2}, 21, false},
		{Slot{1, 1, 2}, 2, true},
		{Slot{1, 1, 2}, 3, false},
		{Slot{2, 3, 2}, -4, true}, // -4 mod 6 = 2
		{Slot{1, 3, 2}, -6, true},
		{Slot{3, 3, 2}, -1, false},
	} {
		if got := tc.slot.Due(tc.cycle); got != tc.want {
			t.Errorf("%+v.Due(%d) = %v, want %v", tc.slot, tc.cycle, got, tc.want)
		}
	}
}

// TestSlotRoundProperties checks, for every team size, that each cycle pair has at most
// one speaker, that speakers talk only in even cycles, and that every player talks once
// per round.
func TestSlotRoundProperties(t *testing.T) {
	for n := 1; n <= 11; n++ {
		period := int64(2 * n)
		counts := make([]int, n+1)
		for c := int64(-3 * period); c < 5*period; c++ {
			speakers := 0
			for p := 1; p <= n; p++ {
				if (Slot{p, n, 2}).Due(c) {
					speakers++
					counts[p]++
					if c%2 != 0 {
						t.Fatalf("n=%d: player %d talks in odd cycle %d", n, p, c)
					}
					if (Slot{p, n, 2}).Due(c + 1) {
						t.Fatalf("n=%d: player %d talks in cycles %d and %d", n, p, c, c+1)
					}
				}
			}
			if c%2 == 0 && speakers != 1 || c%2 != 0 && speakers != 0 {
				t.Fatalf("n=%d cycle %d: %d speakers", n, c, speakers)
			}
		}
		for p := 1; p <= n; p++ {
			if counts[p] != 8 {
				t.Errorf("n=%d: player %d talks %d times in 8 rounds", n, p, counts[p])
			}
		}
	}
}

func TestSlotNextAndBetween(t *testing.T) {
	for n := 1; n <= 11; n++ {
		for p := 1; p <= n; p++ {
			for k := MinSlotCycles; k <= 4; k++ {
				checkSlotNextPrevBetween(t, Slot{p, n, k})
			}
		}
	}
}

func checkSlotNextPrevBetween(t *testing.T, s Slot) {
	t.Helper()
	for from := int64(-30); from < 30; from++ {
		want := from + 1
		for !s.Due(want) {
			want++
		}
		if got := s.Next(from); got != want {
			t.Fatalf("%+v.Next(%d) = %d, want %d", s, from, got, want)
		}
		prev := from
		for !s.Due(prev) {
			prev--
		}
		if got := s.Prev(from); got != prev {
			t.Fatalf("%+v.Prev(%d) = %d, want %d", s, from, got, prev)
		}
		for to := from - 2; to < from+50; to++ {
			var brute uint64
			for c := from + 1; c < to; c++ {
				if s.Due(c) {
					brute++
				}
			}
			if got := s.Between(from, to); got != brute {
				t.Fatalf("%+v.Between(%d, %d) = %d, want %d", s, from, to, got, brute)
			}
		}
	}
}

package params

import "testing"

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
		{"team_id", "tema_id", 2},
		{"league", "leage", 1},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := editDistance(c.b, c.a); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"team_id", "league", "team.format", "team.rate.ball_far", "team.rate.ball_near", "use_sim_time"}
	for _, c := range []struct {
		s, want string
	}{
		{"league", "league"},                           // exact
		{"leage", "league"},                            // one deletion
		{"tema_id", "team_id"},                         // a swapped pair in a short name: 2 edits
		{"team.fromat", "team.format"},                 // a swapped pair in a longer one
		{"team.rate.ball_nera", "team.rate.ball_near"}, // not its sibling ball_far
		{"team.rate.head_yaw", ""},                     // 6 edits from ball_far: a quarter of 18 is 4
		{"colour", ""},
		{"", ""},
		{"team.rate.ball_fa", "team.rate.ball_far"},
	} {
		if got := Closest(c.s, names); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.s, got, c.want)
		}
	}
	// Of equally near names the first wins.
	if got := Closest("ab", []string{"xb", "ax"}); got != "xb" {
		t.Errorf("tie: %q, want xb", got)
	}
	if got := Closest("ab", nil); got != "" {
		t.Errorf("no names: %q", got)
	}
}

package params

// Closest returns the name of names nearest to s by edit distance when it is near
// enough to be a typo of s, for "did you mean" hints; "" when none is.
//
// Near enough is at most max(2, len(s)/4) single-byte insertions, deletions or
// substitutions: two covers a swapped pair of letters in a short name, and a quarter
// of the name keeps a long dotted name (team.rate.ball_near) from being matched to a
// sibling that shares only its prefix. Of equally near names the first one wins.
func Closest(s string, names []string) string {
	best, bestD := "", max(2, len(s)/4)+1
	for _, n := range names {
		if d := editDistance(s, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance returns the Levenshtein distance of a and b in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

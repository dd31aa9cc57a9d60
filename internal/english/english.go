package english

import "strconv"

// Count returns n and the noun, in the plural (noun + "s") unless n is 1: the nouns
// of the project's messages (teammate, packet, datagram, robot, peer) are regular.
func Count[N ~int | ~int64 | ~uint32 | ~uint64](n N, noun string) string {
	s := strconv.FormatInt(int64(n), 10) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}

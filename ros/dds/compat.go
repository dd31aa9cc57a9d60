package dds

import "time"

// Incompatibility is one QoS policy for which a writer cannot serve a reader.
type Incompatibility struct {
	Policy    string // as DDS names it: "RELIABILITY", "DURABILITY", "DEADLINE", "LIVELINESS"
	Offered   string // the writer's value, e.g. "volatile"
	Requested string // the reader's value, e.g. "transient-local"
}

// Incompatibilities returns the policies for which a writer offering w cannot serve a
// reader requesting r, by DDS's requested-versus-offered rules, for the policies QoS
// carries: RELIABILITY (best effort offered, reliable requested), DURABILITY (volatile
// offered, transient-local requested), DEADLINE (a longer period offered than
// requested) and LIVELINESS (a longer lease offered than requested); zero durations
// are infinite. DDS matches such a pair never, and says so to both sides without
// naming the other (REQUESTED_ and OFFERED_INCOMPATIBLE_QOS).
func Incompatibilities(w, r QoS) []Incompatibility {
	var out []Incompatibility
	if w.Reliability == BestEffort && r.Reliability == Reliable {
		out = append(out, Incompatibility{"RELIABILITY", w.Reliability.String(), r.Reliability.String()})
	}
	if w.Durability < r.Durability {
		out = append(out, Incompatibility{"DURABILITY", w.Durability.String(), r.Durability.String()})
	}
	if longer(w.Deadline, r.Deadline) {
		out = append(out, Incompatibility{"DEADLINE", period(w.Deadline), period(r.Deadline)})
	}
	if longer(w.LivelinessLease, r.LivelinessLease) {
		out = append(out, Incompatibility{"LIVELINESS", "lease " + period(w.LivelinessLease), "lease " + period(r.LivelinessLease)})
	}
	return out
}

// longer reports whether period a (0: infinite) is longer than b.
func longer(a, b time.Duration) bool {
	switch {
	case b == 0:
		return false
	case a == 0:
		return true
	}
	return a > b
}

func period(d time.Duration) string {
	if d == 0 {
		return "infinite"
	}
	return d.String()
}

package ddsconfig

import "strconv"

// Loopback returns a Cyclone DDS configuration for participants that find each other
// on the loopback interface alone, also where lo has no MULTICAST flag (as on many
// machines and CI containers): only the interface lo, no multicast, a participant
// index per process up to maxParticipants, and SPDP sent by unicast to every index on
// 127.0.0.1. Put it in CYCLONEDDS_URI as it is or write it to a file. With warnings,
// Cyclone also writes its warnings and errors to stderr (a <Tracing> section), which
// tests want in their output.
func Loopback(maxParticipants int, warnings bool) string {
	s := `<CycloneDDS><Domain Id="any"><General><Interfaces><NetworkInterface name="lo"/></Interfaces>` +
		`<AllowMulticast>false</AllowMulticast></General><Discovery><ParticipantIndex>auto</ParticipantIndex>` +
		`<MaxAutoParticipantIndex>` + strconv.Itoa(maxParticipants) + `</MaxAutoParticipantIndex>` +
		`<Peers><Peer address="127.0.0.1"/></Peers></Discovery>`
	if warnings {
		s += `<Tracing><Verbosity>warning</Verbosity><OutputFile>stderr</OutputFile></Tracing>`
	}
	return s + `</Domain></CycloneDDS>`
}

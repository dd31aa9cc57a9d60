package ros

import (
	"fmt"
	"strings"

	"github.com/robocup-dnetwork/dnetwork/ros/dds"
)

// USER_DATA in discovery is a list of "key=value;" pairs (rmw_dds_common):
//
//	participant          enclave=/;
//	topic endpoint       typehash=RIHS01_<64 hex>;                      (Iron and later)
//	service endpoints    serviceid=<id>;typehash=RIHS01_<64 hex>;        (server)
//	client endpoints     clientid=<id>;typehash=RIHS01_<64 hex>;         (client)
//
// A service's request reader and reply writer carry the same serviceid, a client's
// request writer and reply reader the same clientid; <id> is 16 bytes in hex separated
// by dots: the participant's GUID prefix and a 32-bit big-endian counter.

// enclaveUserData returns the participant USER_DATA for enclave ("/" by default).
func enclaveUserData(enclave string) []byte {
	if enclave == "" {
		enclave = "/"
	}
	return []byte("enclave=" + enclave + ";")
}

// endpointUserData returns an endpoint's USER_DATA: extra (a "serviceid=…;" pair or
// empty) and, if withHash, the type hash.
func endpointUserData(extra, typeHash string, withHash bool) []byte {
	s := extra
	if withHash && typeHash != "" {
		s += "typehash=" + typeHash + ";"
	}
	if s == "" {
		return nil
	}
	return []byte(s)
}

// userDataValue returns the value of key in "key=value;" USER_DATA.
func userDataValue(ud []byte, key string) (string, bool) {
	for _, kv := range strings.Split(string(ud), ";") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// endpointID formats a service or client id from the participant GUID and a counter.
func endpointID(participant dds.GUID, n uint32) string {
	var b strings.Builder
	id := participant.Prefix()
	for i, c := range append(id[:], byte(n>>24), byte(n>>16), byte(n>>8), byte(n)) {
		if i > 0 {
			b.WriteByte('.')
		}
		fmt.Fprintf(&b, "%x", c)
	}
	return b.String()
}

package linkemu

import (
	"os"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
)

// AddHost creates the TAP device ifname inside namespace ns, gives it the address cidr
// ("" for none), brings it up and attaches it to e as host name.
func AddHost(t testing.TB, e *Emulator, ns *netnstest.NS, name, ifname, cidr string) *Host {
	t.Helper()
	if _, err := os.Stat("/dev/net/tun"); err != nil {
		t.Skipf("linkemu: skipped: no TUN/TAP device (/dev/net/tun: %v)", err)
	}
	var f *os.File
	if err := ns.Do(func() (err error) {
		f, err = OpenTAP(ifname)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if cidr != "" {
		ns.IP(t, "addr", "add", cidr, "dev", ifname)
	}
	ns.IP(t, "link", "set", ifname, "up")
	h, err := e.Attach(name, f)
	if err != nil {
		f.Close()
		t.Fatal(err)
	}
	return h
}

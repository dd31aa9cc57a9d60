package node

import (
	"errors"

	"github.com/robocup-dnetwork/dnetwork/transport"
)

// ErrInterface reports an "auto" interface parameter that finds no usable interface, or
// several, on this machine: the node's sockets stay closed until the interfaces change,
// so --check fails and the node's diagnostics are an error.
var ErrInterface = errors.New("node: interface auto chooses no interface")

// CheckInterfaces resolves every interface parameter of c that is "auto" (interface and
// the worldinfo and swarm interfaces that follow it) on this machine's interfaces, as
// the sockets will, and reports each that finds none or several, naming the candidates.
// A name, CIDR or address is not checked: an interface a robot names (wlan0) may come
// up after the node starts, and the sockets wait for it.
func (c Config) CheckInterfaces() error {
	ifs, err := transport.Interfaces()
	if err != nil {
		return err
	}
	return c.checkInterfaces(ifs)
}

func (c Config) checkInterfaces(ifs []transport.Interface) error {
	r := c.Resolve()
	params := []struct {
		name, sel string
		used      bool
	}{
		{"interface", r.Interface, true},
		{"worldinfo.interface", r.WorldInfo.Interface, r.WorldInfo.Enabled && r.WorldInfo.Interface != r.Interface},
		{"swarm.interface", r.Swarm.Interface, r.Swarm.Enabled && r.Swarm.Interface != r.Interface},
	}
	var errs []error
	for _, p := range params {
		if !p.used {
			continue
		}
		sel, err := transport.ParseSelector(p.sel)
		if err != nil || sel.String() != "auto" {
			continue // Declare reported a bad one
		}
		if _, err := sel.ResolveFrom(ifs); err != nil {
			hint := ""
			if errors.Is(err, transport.ErrNoInterface) {
				hint = "; interface: lo keeps the node on this machine (team_sim.launch.py runs a team on one)"
			}
			errs = append(errs, kindErrorf(ErrInterface, "%s: %v%s", p.name, err, hint))
		}
	}
	return errors.Join(errs...)
}

// interfaceError returns the error of the first socket that is down because its
// interface parameter finds no interface, or several ("auto" on a machine with only
// loopback, or with Ethernet and Wi-Fi up), or nil.
func interfaceError(sts []transport.Status) error {
	for _, s := range sts {
		if s.State == transport.StateDown && (errors.Is(s.Err, transport.ErrNoInterface) || errors.Is(s.Err, transport.ErrAmbiguous)) {
			return s.Err
		}
	}
	return nil
}

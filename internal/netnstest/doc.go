// Package netnstest gives tests throw-away Linux network namespaces joined by veth
// pairs, so several "hosts" with their own interfaces, addresses and routes can run in
// one test process without touching the machine's real network.
//
// Typical use:
//
//	netnstest.Require(t)                   // skips unless root
//	a, b := netnstest.New(t, "a"), netnstest.New(t, "b")
//	netnstest.Veth(t, a, "va", "10.90.0.1/24", b, "vb", "10.90.0.2/24")
//	err := a.Do(func() error { ... })    // runs on an OS thread inside namespace a
//
// Several namespaces share one Ethernet segment through a bridge in a hub namespace:
//
//	hub := netnstest.New(t, "hub")
//	netnstest.Veth(t, hub, "h1", "", a, "va", "10.90.0.1/24") // and so on for b, c
//	hub.Bridge(t, "br0", "h1", "h2", "h3")
//
// Namespaces are named "dnt<pid>-<n>-<suffix>" and deleted in t.Cleanup; namespaces left
// behind by a crashed test process (whose pid no longer exists) are deleted by the next
// New. Interfaces are created directly inside their namespaces, so their names never
// clash with the host's.
//
// Two ways to run code inside a namespace:
//
//   - [NS.Do] and [NS.Go] run a function on a goroutine locked to an OS thread that has
//     entered the namespace. Sockets and netlink queries made by that goroutine belong
//     to the namespace (and keep belonging to it afterwards); goroutines it starts do
//     not, because they may run on other threads. Code that does all its socket work on
//     the calling goroutine (such as transport.Worker.Run) fits this model.
//   - [NS.Exec] re-executes the test binary inside the namespace with "ip netns exec",
//     running one test function; the whole child process lives in the namespace. The
//     test tells the two roles apart with [Child].
package netnstest

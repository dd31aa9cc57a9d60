package transport

import (
	"errors"
	"os"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Interface watch. A worker bound to one interface must notice when that interface goes
// down, loses its address or is re-created. Rather than asking the kernel for every
// interface and address once per Config.Recheck (a wake-up and a netlink dump per
// worker per second on an idle robot), the worker subscribes to the kernel's link and
// IPv4 address events on a netlink socket of its own, opened on the worker's goroutine
// (so in the worker's network namespace). Any event, or a lost event (ENOBUFS), makes
// the worker check its interface at once; nothing wakes it while the interfaces stay as
// they are. A worker that cannot open the watch checks every Config.Recheck instead.

// ifWatch is one netlink route socket subscribed to link and IPv4 address changes.
type ifWatch struct {
	f      *os.File
	rc     syscall.RawConn
	closed atomic.Bool // set by close before the socket is closed
}

// openIfWatchFn is openIfWatch; tests replace it to take the periodic path.
var openIfWatchFn = openIfWatch

// openIfWatch subscribes to the kernel's link and IPv4 address events.
func openIfWatch() (*ifWatch, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	sa := &unix.SockaddrNetlink{Family: unix.AF_NETLINK, Groups: unix.RTMGRP_LINK | unix.RTMGRP_IPV4_IFADDR}
	if err := unix.Bind(fd, sa); err != nil {
		unix.Close(fd)
		return nil, os.NewSyscallError("bind", err)
	}
	// A nonblocking descriptor: os.NewFile registers it with the netpoller.
	f := os.NewFile(uintptr(fd), "netlink-route")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &ifWatch{f: f, rc: rc}, nil
}

// run calls changed after every batch of events until the watch is closed (then it
// returns nil) or its socket fails (then it returns the error, without calling changed).
func (w *ifWatch) run(changed func()) error {
	buf := make([]byte, 8192)
	var rerr unix.Errno
	read := func(fd uintptr) bool {
		for {
			// The contents do not matter: any change, or a lost one, means check.
			_, _, e := unix.RawSyscall6(unix.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)),
				unix.MSG_DONTWAIT, 0, 0)
			switch e {
			case unix.EINTR:
				continue
			case unix.EAGAIN:
				return false
			}
			rerr = e
			return true
		}
	}
	for {
		if err := w.rc.Read(read); err != nil {
			// A read pending when the file is closed fails with the poller's own "use of
			// closed file", which is not os.ErrClosed: the flag tells a close from a failure.
			if w.closed.Load() || errors.Is(err, os.ErrClosed) {
				return nil
			}
			return err
		}
		if rerr != 0 && rerr != unix.ENOBUFS {
			return os.NewSyscallError("recvfrom", rerr)
		}
		changed()
	}
}

// close ends run.
func (w *ifWatch) close() {
	w.closed.Store(true)
	w.f.Close()
}

// watcher is a worker's interface watch for the whole of Run. An event ends the read of
// the open socket (its deadline moves to now) so that serve checks the interface, and
// wakes the wait between open attempts while the socket is down.
type watcher struct {
	iw    *ifWatch
	lost  atomic.Bool            // the watch failed: check periodically instead
	poked atomic.Bool            // an event not yet checked
	sock  atomic.Pointer[socket] // the socket whose read an event ends; nil while down
	ev    chan struct{}          // an event since the last drain (capacity 1)
	done  chan struct{}          // closed when the watch's goroutine has ended
}

// startWatch opens the watch and its goroutine; nil (checking periodically, and
// reopening with the backoff timer) when the watch cannot be opened.
func (w *Worker) startWatch() *watcher {
	iw, err := openIfWatchFn()
	if err != nil {
		w.log.Warn("cannot watch interface events; checking the interface periodically", "socket", w.cfg.Name, "every", w.cfg.Recheck, "err", err)
		return nil
	}
	wt := &watcher{iw: iw, ev: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(wt.done)
		if err := iw.run(wt.poke); err != nil {
			w.log.Warn("interface watch failed; checking the interface periodically", "socket", w.cfg.Name, "every", w.cfg.Recheck, "err", err)
			wt.lost.Store(true)
			wt.poke()
		}
	}()
	return wt
}

// poke reports an event (or the watch's failure).
func (wt *watcher) poke() {
	wt.poked.Store(true)
	if s := wt.sock.Load(); s != nil {
		_ = s.conn.SetReadDeadline(time.Now())
	}
	select {
	case wt.ev <- struct{}{}:
	default:
	}
}

// watching reports whether events arrive (false for a nil watcher).
func (wt *watcher) watching() bool { return wt != nil && !wt.lost.Load() }

// events returns the channel an event while down arrives on; nil (never ready) for a
// nil or failed watcher, so the wait falls back to its timer.
func (wt *watcher) events() <-chan struct{} {
	if !wt.watching() {
		return nil
	}
	return wt.ev
}

// drain forgets the events that woke the wait while down.
func (wt *watcher) drain() {
	select {
	case <-wt.ev:
	default:
	}
}

// stop closes the watch and waits for its goroutine.
func (wt *watcher) stop() {
	if wt == nil {
		return
	}
	wt.iw.close()
	<-wt.done
}

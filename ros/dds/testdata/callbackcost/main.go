// Command callbackcost measures what it costs a Go process (one processor, as a node
// runs) to run Go code for an event that a C thread sees, as Cyclone's receive thread
// sees a sample: a C thread wakes every 10 ms (clock_nanosleep) and either calls an
// exported Go function (mode callback: the way a listener would run a handler on
// Cyclone's thread) or adds 1 to an eventfd that a goroutine waits for in the
// netpoller (mode eventfd: the way package dds signals a reader). With -cgo, the Go
// code also makes one cgo call per event (a write into Cyclone, say), with -direct one
// direct call (package directcall, as dds.Writer.Write makes them). It prints the
// process's CPU time and thread wake-ups (voluntary context switches) per event, and
// per thread. See docs/performance-c-floor.md.
//
//	go run ./ros/dds/testdata/callbackcost callback
//	go run ./ros/dds/testdata/callbackcost eventfd
package main

/*
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

extern void goCallback(int);

static int mode, efd;

static void *loop(void *arg)
{
	(void) arg;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (int i = 0;; i++) {
		ts.tv_nsec += 10000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_nsec -= 1000000000;
			ts.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (mode == 0) {
			goCallback(i);
		} else {
			uint64_t one = 1;
			ssize_t w = write(efd, &one, sizeof(one));
			(void) w;
		}
	}
	return NULL;
}

static void start(int m, int fd)
{
	mode = m;
	efd = fd;
	pthread_t t;
	pthread_create(&t, NULL, loop, NULL);
}

static int noop(int x) { return x + 1; }

static int noop_direct(void *arg)
{
	(void) arg;
	return 0;
}

// The address of noop_direct (a static function: the preamble is compiled twice, in
// this file and in the file of exported functions).
static void *noop_direct_fn(void) { return (void *) noop_direct; }
*/
import "C"

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/robocup-dnetwork/dnetwork/ros/dds/internal/directcall"
)

var (
	events atomic.Int64
	cgo    = flag.Bool("cgo", false, "make one cgo call per event")
	direct = flag.Bool("direct", false, "make one direct call (package directcall) per event")
)

var noopDirect = C.noop_direct_fn()

// call makes the call per event that the flags ask for.
func call() {
	switch {
	case *cgo:
		C.noop(1)
	case *direct:
		directcall.Call(noopDirect, nil)
	}
}

//export goCallback
func goCallback(i C.int) {
	events.Add(1)
	call()
}

func main() {
	flag.Parse()
	runtime.GOMAXPROCS(1)
	switch flag.Arg(0) {
	case "callback":
		C.start(0, 0)
	case "eventfd":
		fd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
		if err != nil {
			panic(err)
		}
		rc, err := os.NewFile(uintptr(fd), "eventfd").SyscallConn()
		if err != nil {
			panic(err)
		}
		C.start(1, C.int(fd))
		go func() {
			var b [8]byte
			_ = rc.Read(func(fd uintptr) bool {
				for {
					_, _, e := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), 8)
					if e != 0 {
						return false
					}
					events.Add(1)
					call()
				}
			})
		}()
	default:
		fmt.Fprintln(os.Stderr, "usage: callbackcost [-cgo|-direct] callback|eventfd")
		os.Exit(2)
	}
	time.Sleep(time.Second)
	t0, n0 := threads(), events.Load()
	var r0, r1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
	time.Sleep(5 * time.Second)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
	t1, n := threads(), float64(events.Load()-n0)
	cpu := float64(r1.Utime.Nano() + r1.Stime.Nano() - r0.Utime.Nano() - r0.Stime.Nano())
	fmt.Printf("%s (cgo call per event: %v, direct call: %v): %.0f events, %.1f µs CPU and %.2f wake-ups per event\n",
		flag.Arg(0), *cgo, *direct && directcall.Available, n, cpu/1e3/n, float64(r1.Nvcsw-r0.Nvcsw)/n)
	tids := make([]int, 0, len(t1))
	for tid := range t1 {
		tids = append(tids, tid)
	}
	slices.Sort(tids)
	for _, tid := range tids {
		d := [2]int64{t1[tid][0] - t0[tid][0], t1[tid][1] - t0[tid][1]}
		if d[1] > 0 {
			fmt.Printf("  thread %d: %.1f µs CPU and %.2f wake-ups per event\n", tid, float64(d[0])/1e3/n, float64(d[1])/n)
		}
	}
}

// threads returns each thread's CPU time (schedstat, ns) and voluntary context switches.
func threads() map[int][2]int64 {
	m := map[int][2]int64{}
	ents, _ := os.ReadDir("/proc/self/task")
	for _, e := range ents {
		tid, _ := strconv.Atoi(e.Name())
		sched, err1 := os.ReadFile("/proc/self/task/" + e.Name() + "/schedstat")
		status, err2 := os.ReadFile("/proc/self/task/" + e.Name() + "/status")
		if err1 != nil || err2 != nil {
			continue
		}
		run, _ := strconv.ParseInt(strings.Fields(string(sched))[0], 10, 64)
		var v int64
		for l := range strings.Lines(string(status)) {
			if x, ok := strings.CutPrefix(l, "voluntary_ctxt_switches:"); ok {
				v, _ = strconv.ParseInt(strings.TrimSpace(x), 10, 64)
			}
		}
		m[tid] = [2]int64{run, v}
	}
	return m
}

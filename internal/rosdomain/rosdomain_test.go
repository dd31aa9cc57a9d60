package rosdomain

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Environment of TestHolderChild: the lock directory, the range and how many ids to hold.
const (
	childDirEnv   = "ROSDOMAIN_TEST_CHILD_DIR"
	childRangeEnv = "ROSDOMAIN_TEST_CHILD_RANGE" // "first last"
	childCountEnv = "ROSDOMAIN_TEST_CHILD_COUNT"
)

// useRange points the package at a lock directory of t's own and ids first..last.
func useRange(t *testing.T, first, last int) {
	oldDir, oldSpan := dir, span
	t.Cleanup(func() { dir, span = oldDir, oldSpan })
	dir = t.TempDir()
	span = func() (int, int) { return first, last }
}

// TestHolderChild is the holder process of the tests below: it takes the ids it is
// told to, prints them on one line and holds them until its stdin closes or it is killed.
func TestHolderChild(t *testing.T) {
	path := os.Getenv(childDirEnv)
	if path == "" {
		t.Skip("only run as the child of TestTwoProcesses and TestKilledHolder")
	}
	var first, last int
	fmt.Sscan(os.Getenv(childRangeEnv), &first, &last)
	n, _ := strconv.Atoi(os.Getenv(childCountEnv))
	var ids []string
	for range n {
		id, f, err := take(path, first, last)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		defer f.Close()
		ids = append(ids, strconv.Itoa(id))
	}
	fmt.Println(strings.Join(ids, " "))
	bufio.NewReader(os.Stdin).ReadString('\n')
}

// startHolder starts a holder process that takes n ids of first..last in this test's
// lock directory and returns the ids it holds.
func startHolder(t *testing.T, first, last, n int) (*exec.Cmd, []int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHolderChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childDirEnv+"="+lockPath(),
		fmt.Sprintf("%s=%d %d", childRangeEnv, first, last), childCountEnv+"="+strconv.Itoa(n))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("holder: %q: %v", line, err)
	}
	var ids []int
	for _, f := range strings.Fields(line) {
		id, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("holder said %q", line)
		}
		ids = append(ids, id)
	}
	if len(ids) != n {
		t.Fatalf("holder holds %v, want %d ids", ids, n)
	}
	return cmd, ids
}

// TestTakeDistinct takes ids from eight goroutines at once, each take opening and
// locking the files as another process would: no id is handed out twice while held.
func TestTakeDistinct(t *testing.T) {
	useRange(t, 1, 100)
	var mu sync.Mutex
	seen := map[int]bool{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 5 {
				id := Take(t)
				mu.Lock()
				if seen[id] {
					t.Errorf("id %d handed out twice", id)
				}
				seen[id] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != 40 {
		t.Fatalf("%d distinct ids, want 40", len(seen))
	}
}

// TestTwoProcesses: while another process holds three ids of ten, this one gets the
// other seven and then none.
func TestTwoProcesses(t *testing.T) {
	useRange(t, 11, 20)
	_, held := startHolder(t, 11, 20, 3)
	other := map[int]bool{}
	for _, id := range held {
		other[id] = true
	}
	for range 7 {
		id := Take(t)
		if other[id] {
			t.Fatalf("id %d handed out while the other process holds it", id)
		}
		other[id] = true
	}
	if _, _, err := take(lockPath(), 11, 20); !errors.Is(err, ErrNoDomain) {
		t.Fatalf("take with all ten held: %v, want ErrNoDomain", err)
	}
}

// TestReleased: the only id is free again once the test that took it has ended.
func TestReleased(t *testing.T) {
	useRange(t, 5, 5)
	var held int
	t.Run("holder", func(t *testing.T) {
		held = Take(t)
		if _, _, err := take(lockPath(), 5, 5); !errors.Is(err, ErrNoDomain) {
			t.Fatalf("take while held: %v, want ErrNoDomain", err)
		}
	})
	if id := Take(t); id != held {
		t.Fatalf("got id %d after release, want %d", id, held)
	}
}

// TestKilledHolder: the only id, held by a process that is then killed, is free again
// once that process has ended.
func TestKilledHolder(t *testing.T) {
	useRange(t, 7, 7)
	cmd, held := startHolder(t, 7, 7, 1)
	if _, _, err := take(lockPath(), 7, 7); !errors.Is(err, ErrNoDomain) {
		t.Fatalf("take while the holder runs: %v, want ErrNoDomain", err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if id := Take(t); id != held[0] {
		t.Fatalf("got id %d after the holder died, want %d", id, held[0])
	}
}

// TestInTurn: ids are handed out in turn, so a released id is not the next one.
func TestInTurn(t *testing.T) {
	useRange(t, 1, 3)
	var first int
	t.Run("first", func(t *testing.T) { first = Take(t) })
	if id := Take(t); id == first {
		t.Fatalf("released id %d handed out again at once", id)
	}
}

// fatalTB records the message of Fatal and ends the goroutine as testing.T does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper()        {}
func (f *fatalTB) Cleanup(func()) {}
func (f *fatalTB) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	runtime.Goexit()
}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fails runs fn with a fatalTB and returns the message it failed with ("" if none).
func fails(t *testing.T, fn func(testing.TB)) string {
	ft := &fatalTB{TB: t}
	done := make(chan bool)
	go func() {
		defer close(done)
		fn(ft)
		done <- true
	}()
	if <-done {
		return ""
	}
	return ft.msg
}

// TestExhausted: with every id held, Take fails the test and says why.
func TestExhausted(t *testing.T) {
	useRange(t, 3, 4)
	Take(t)
	Take(t)
	msg := fails(t, func(t testing.TB) { t.Errorf("Take handed out %d with all ids held", Take(t)) })
	if !strings.Contains(msg, ErrNoDomain.Error()) || !strings.Contains(msg, "3..4") {
		t.Fatalf("Take failed with %q, want ErrNoDomain naming the range 3..4", msg)
	}
}

// TestRange: ids start at 1 and every DDS port of every id lies below the ephemeral
// range; a range too low for any id gives none, and ids end at 232.
func TestRange(t *testing.T) {
	for _, c := range []struct{ ephemeral, last int }{
		{32768, 100}, {32650, 100}, {32649, 99}, {7650, 0}, {7649, 0}, {1024, 0}, {65535, 231}, // 232 would use ports above 65535
	} {
		first, last := idRange(c.ephemeral)
		if first != 1 || last != c.last {
			t.Errorf("ephemeral range from %d: ids %d..%d, want 1..%d", c.ephemeral, first, last, c.last)
		}
	}
	eph := ephemeralFirst()
	first, last := span()
	if first < 1 {
		t.Fatalf("ids from %d: domain 0 handed out", first)
	}
	for id := first; id <= last; id++ {
		if top := portBase + domainGain*id + domainGain - 1; top >= eph {
			t.Fatalf("id %d uses port %d, in the ephemeral range from %d", id, top, eph)
		}
	}
	useRange(t, 1, 0)
	if _, _, err := take(lockPath(), 1, 0); !errors.Is(err, ErrNoDomain) {
		t.Fatalf("take from no ids: %v, want ErrNoDomain", err)
	}
}

// TestLockDirPerUser: the lock directory is the user's own (its name ends in the
// user's id) and only the user may enter it.
func TestLockDirPerUser(t *testing.T) {
	useRange(t, 1, 2)
	Take(t)
	st, err := os.Stat(lockPath())
	if err != nil {
		t.Fatal(err)
	}
	if want := "-" + strconv.Itoa(os.Getuid()); !strings.HasSuffix(st.Name(), want) {
		t.Errorf("lock directory %s, want a name ending in %s", st.Name(), want)
	}
	if st.Mode().Perm()&0o077 != 0 {
		t.Errorf("lock directory mode %v, want the user's alone", st.Mode().Perm())
	}
}

// TestInherited: a child reads the ids its parent handed it with Env, and fails when
// the parent handed it fewer than it needs.
func TestInherited(t *testing.T) {
	k, v, _ := strings.Cut(Env(12, 7, 30), "=")
	if k != EnvVar {
		t.Fatalf("Env sets %s, want %s", k, EnvVar)
	}
	t.Setenv(EnvVar, v)
	if got := Inherited(t, 3); !slices.Equal(got, []int{12, 7, 30}) {
		t.Errorf("Inherited(3) = %v, want [12 7 30]", got)
	}
	if got := Inherited(t, 1); !slices.Equal(got, []int{12}) {
		t.Errorf("Inherited(1) = %v, want [12]", got)
	}
	if msg := fails(t, func(t testing.TB) { Inherited(t, 4) }); !strings.Contains(msg, "holds 3 ROS domain ids, want 4") {
		t.Errorf("Inherited(4) of 3 failed with %q", msg)
	}
	t.Setenv(EnvVar, "")
	if msg := fails(t, func(t testing.TB) { Inherited(t, 1) }); !strings.Contains(msg, "holds 0 ROS domain ids, want 1") {
		t.Errorf("Inherited(1) without ids failed with %q", msg)
	}
}

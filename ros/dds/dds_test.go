//go:build cgo

package dds

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

const testType = "dnetwork_test::msg::dds_::Blob_"

// TestMain doubles as the echo peer that TestCrossProcessEcho starts in a second
// process, so that samples cross the network stack instead of Cyclone's in-process path.
func TestMain(m *testing.M) {
	switch os.Getenv("DDS_TEST_PEER") {
	case "echo":
		os.Exit(echoPeer())
	case "index":
		os.Exit(indexPeer())
	}
	os.Exit(m.Run())
}

// echoPeer republishes every sample of rt/ping on rt/pong until stdin closes, reliably
// (best effort with DDS_TEST_BEST_EFFORT set).
func echoPeer() int {
	domain, _ := strconv.Atoi(os.Getenv("DDS_TEST_DOMAIN"))
	p, err := NewParticipant(ParticipantOptions{DomainID: uint32(domain), Config: os.Getenv("CYCLONEDDS_URI"), UserData: []byte("peer=echo;")})
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer p.Close()
	qos := QoS{History: KeepAll}
	if os.Getenv("DDS_TEST_BEST_EFFORT") != "" {
		qos = QoS{Reliability: BestEffort, Depth: 16}
	}
	w, err := p.NewWriter("rt/pong", testType, qos)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	_, err = p.NewReader("rt/ping", testType, qos, func(s Sample) {
		if err := w.Write(s.Data); err != nil {
			fmt.Fprintln(os.Stderr, "echo:", err)
		}
	})
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Println("ready", p.GUID())
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// takeDomain returns a domain of t's own (internal/rosdomain), held until t ends: each
// test has its own, because a process reads the Cyclone configuration only when it
// first creates a domain, and so that no other test process's traffic reaches it.
func takeDomain(t testing.TB) uint32 { return uint32(rosdomain.Take(t)) }

func newParticipant(t testing.TB, domain uint32, userData string) *Participant {
	t.Helper()
	p, err := NewParticipant(ParticipantOptions{DomainID: domain, Config: os.Getenv("CYCLONEDDS_URI"), UserData: []byte(userData)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return p
}

// collector gathers received samples for assertions.
type collector struct {
	mu      sync.Mutex
	samples []Sample
	notify  chan struct{}
}

func newCollector() *collector { return &collector{notify: make(chan struct{}, 1)} }

func (c *collector) handle(s Sample) {
	c.mu.Lock()
	c.samples = append(c.samples, s)
	c.mu.Unlock()
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

func (c *collector) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.samples)
}

func (c *collector) wait(t testing.TB, n int, timeout time.Duration) []Sample {
	t.Helper()
	deadline := time.After(timeout)
	for {
		c.mu.Lock()
		if len(c.samples) >= n {
			out := append([]Sample(nil), c.samples...)
			c.mu.Unlock()
			return out
		}
		got := len(c.samples)
		c.mu.Unlock()
		select {
		case <-c.notify:
		case <-deadline:
			t.Fatalf("received %d samples within %v, want %d", got, timeout, n)
		}
	}
}

func sample(body string) []byte { return append([]byte{0, 1, 0, 0}, body...) }

// trimmed strips the 0..3 zero padding bytes a receiver may see after the payload.
func trimmed(t testing.TB, got []byte, wantLen int) []byte {
	t.Helper()
	if len(got) < wantLen || len(got) > wantLen+3 || len(got)%4 != 0 && len(got) != wantLen {
		t.Fatalf("received %d bytes for a %d-byte sample", len(got), wantLen)
	}
	if !bytes.Equal(got[wantLen:], make([]byte, len(got)-wantLen)) {
		t.Fatalf("padding not zero: % x", got[wantLen:])
	}
	return got[:wantLen]
}

func waitMatched(t testing.TB, w *Writer, n int) {
	t.Helper()
	ddstest.WaitFor(t, 10*time.Second, "writer on "+w.Topic()+" matched", func() error {
		eps, err := w.MatchedSubscriptions()
		if err != nil {
			return err
		}
		if len(eps) < n {
			return fmt.Errorf("%d readers matched, want %d", len(eps), n)
		}
		return nil
	})
}

func TestLocalPubSub(t *testing.T) {
	domainLocal := takeDomain(t)
	ddstest.Setup(t)
	pub := newParticipant(t, domainLocal, "enclave=/;")
	sub := newParticipant(t, domainLocal, "enclave=/;")
	w, err := pub.NewWriter("rt/robot1/chatter", testType, QoS{Depth: 10})
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	r, err := sub.NewReader("rt/robot1/chatter", testType, QoS{History: KeepAll}, c.handle)
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)
	want := []string{"", "a", "hello", strings.Repeat("x", 300)}
	for _, body := range want {
		if err := w.Write(sample(body)); err != nil {
			t.Fatal(err)
		}
	}
	got := c.wait(t, len(want), 5*time.Second)
	for i, body := range want {
		if d := trimmed(t, got[i].Data, 4+len(body)); !bytes.Equal(d, sample(body)) {
			t.Errorf("sample %d = % x, want % x", i, d, sample(body))
		}
		if got[i].Publication != w.InstanceHandle() {
			t.Errorf("sample %d from handle %x, want writer %x", i, got[i].Publication, w.InstanceHandle())
		}
		if d := time.Since(got[i].SourceTime); d < 0 || d > time.Minute {
			t.Errorf("sample %d source time %v is not now", i, got[i].SourceTime)
		}
	}
	if r.Received() != uint64(len(want)) {
		t.Errorf("Received() = %d, want %d", r.Received(), len(want))
	}
	// Entity ids: key-less user writer 0x03, reader 0x04, participant 0x1c1, and
	// all three share the participant's GUID prefix.
	if w.GUID().EntityKind() != EntityKindWriterNoKey || r.GUID().EntityKind() != EntityKindReaderNoKey {
		t.Errorf("entity kinds: writer %v, reader %v", w.GUID(), r.GUID())
	}
	if pub.GUID().EntityKind() != EntityKindParticipant || w.GUID().ParticipantGUID() != pub.GUID() || r.GUID().ParticipantGUID() != sub.GUID() {
		t.Errorf("GUID prefixes: participant %v writer %v; participant %v reader %v", pub.GUID(), w.GUID(), sub.GUID(), r.GUID())
	}
}

func TestCrossProcessEcho(t *testing.T) {
	domainEcho := takeDomain(t)
	if testing.Short() {
		t.Skip("starts a second process")
	}
	ddstest.Setup(t)
	p := newParticipant(t, domainEcho, "")
	peerGUID := startEchoPeer(t, domainEcho)

	qos := QoS{History: KeepAll}
	w, err := p.NewWriter("rt/ping", testType, qos)
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	r, err := p.NewReader("rt/pong", testType, qos, c.handle)
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)
	ddstest.WaitFor(t, 10*time.Second, "echo writer matched", func() error {
		eps, err := r.MatchedPublications()
		if err == nil && len(eps) == 0 {
			err = errors.New("no writer matched")
		}
		return err
	})
	// Sizes around the padding boundary and well beyond one RTPS fragment, so that
	// the receive path reassembles fragment chains.
	sizes := []int{4, 5, 6, 7, 8, 304, 1500, 70001, 300000}
	for i, n := range sizes {
		s := make([]byte, n)
		copy(s, []byte{0, 1, 0, 0})
		for j := 4; j < n; j++ {
			s[j] = byte(i*31 + j*7)
		}
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	got := c.wait(t, len(sizes), 20*time.Second)
	for i, n := range sizes {
		d := trimmed(t, got[i].Data, n)
		for j := 4; j < n; j++ {
			if d[j] != byte(i*31+j*7) {
				t.Fatalf("sample %d (%d bytes): byte %d = %#x, want %#x", i, n, j, d[j], byte(i*31+j*7))
			}
		}
	}
	// The echo's writer is the peer's: its GUID prefix is the peer participant's.
	ep, ok := r.MatchedPublication(got[0].Publication)
	if !ok {
		t.Fatal("sender of the echo is not a matched publication")
	}
	if ep.ParticipantGUID.String() != peerGUID || ep.Topic != "rt/pong" || ep.Type != testType {
		t.Errorf("echo writer %+v, want participant %s", ep, peerGUID)
	}
	parts, err := p.DiscoveredParticipants()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, pd := range parts {
		if pd.GUID.String() == peerGUID {
			found = true
			if string(pd.UserData) != "peer=echo;" {
				t.Errorf("peer USER_DATA %q", pd.UserData)
			}
		}
	}
	if !found {
		t.Errorf("peer %s not among discovered participants %v", peerGUID, parts)
	}
}

// startEchoPeer runs echoPeer in a child process and returns its participant GUID.
func startEchoPeer(t testing.TB, domain uint32) string {
	t.Helper()
	line := startPeer(t, "DDS_TEST_PEER=echo", "DDS_TEST_DOMAIN="+strconv.Itoa(int(domain)))
	if !strings.HasPrefix(line, "ready ") {
		t.Fatalf("echo peer did not start: %q", line)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "ready "))
}

// startPeer runs this test binary as a peer process with env added (DDS_TEST_PEER names
// the peer), returns the first line it prints, and at the end of the test closes its
// standard input, which ends it, and checks that it exited cleanly.
func startPeer(t testing.TB, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("peer %v: %v", env, err)
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("peer %v did not start: %q %v", env, line, err)
	}
	return line
}

func TestTransientLocalLateJoiner(t *testing.T) {
	domainTransient := takeDomain(t)
	ddstest.Setup(t)
	p := newParticipant(t, domainTransient, "")
	tl := QoS{Durability: TransientLocal, Depth: 1}
	w, err := p.NewWriter("ros_discovery_info", testType, tl)
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"first", "second", "last"} {
		if err := w.Write(sample(body)); err != nil {
			t.Fatal(err)
		}
	}
	late := newParticipant(t, domainTransient, "")
	c := newCollector()
	if _, err := late.NewReader("ros_discovery_info", testType, QoS{Durability: TransientLocal, History: KeepAll}, c.handle); err != nil {
		t.Fatal(err)
	}
	got := c.wait(t, 1, 5*time.Second)
	if d := trimmed(t, got[0].Data, 8); string(d[4:]) != "last" {
		t.Errorf("late joiner got %q, want the last sample", d[4:])
	}
	// A live sample after it marks the end of the history: it comes after the history.
	if err := w.Write(sample("live")); err != nil {
		t.Fatal(err)
	}
	got = c.wait(t, 2, 5*time.Second)
	if d := trimmed(t, got[1].Data, 8); string(d[4:]) != "live" || len(got) != 2 {
		t.Errorf("late joiner got %d samples, the second %q; want the last one of the history, then the live one (KEEP_LAST 1)", len(got), d[4:])
	}
}

func TestDiscoveredQoSAndUserData(t *testing.T) {
	domainUserData := takeDomain(t)
	ddstest.Setup(t)
	a := newParticipant(t, domainUserData, "enclave=/;")
	b := newParticipant(t, domainUserData, "")
	wq := QoS{Durability: TransientLocal, Depth: 1000, Lifespan: 10 * time.Second, UserData: []byte("typehash=RIHS01_00;")}
	w, err := a.NewWriter("rt/rosout", testType, wq)
	if err != nil {
		t.Fatal(err)
	}
	rq := QoS{Reliability: BestEffort, Depth: 5, IgnoreLocal: true, UserData: []byte("serviceid=1.2;")}
	r, err := a.NewReader("rt/scan", testType, rq, func(Sample) {})
	if err != nil {
		t.Fatal(err)
	}
	var pubs, subs []Endpoint
	ddstest.WaitFor(t, 5*time.Second, "endpoints discovered", func() error {
		var err error
		if pubs, err = b.DiscoveredPublications(); err != nil {
			return err
		}
		if subs, err = b.DiscoveredSubscriptions(); err != nil {
			return err
		}
		if find(pubs, w.GUID()) == nil || find(subs, r.GUID()) == nil {
			return errors.New("not yet")
		}
		return nil
	})
	pw, sr := find(pubs, w.GUID()), find(subs, r.GUID())
	if pw.Topic != "rt/rosout" || pw.Type != testType || pw.ParticipantGUID != a.GUID() {
		t.Errorf("writer endpoint %+v", pw)
	}
	if q := pw.QoS; q.Reliability != Reliable || q.Durability != TransientLocal || q.History != KeepLast || q.Depth != 1000 ||
		q.Lifespan != 10*time.Second || string(q.UserData) != "typehash=RIHS01_00;" {
		t.Errorf("writer QoS as discovered: %+v", q)
	}
	if q := sr.QoS; q.Reliability != BestEffort || q.Durability != Volatile || string(q.UserData) != "serviceid=1.2;" {
		t.Errorf("reader QoS as discovered: %+v", q)
	}
	parts, err := b.DiscoveredParticipants()
	if err != nil {
		t.Fatal(err)
	}
	var ud []byte
	for _, pd := range parts {
		if pd.GUID == a.GUID() {
			ud = pd.UserData
		}
	}
	if string(ud) != "enclave=/;" {
		t.Errorf("participant USER_DATA %q, want enclave=/;", ud)
	}
}

func find(eps []Endpoint, g GUID) *Endpoint {
	for i := range eps {
		if eps[i].GUID == g {
			return &eps[i]
		}
	}
	return nil
}

func TestMatchedEndpoints(t *testing.T) {
	domainMatched := takeDomain(t)
	ddstest.Setup(t)
	p := newParticipant(t, domainMatched, "")
	q := QoS{UserData: []byte("clientid=7;")}
	w, err := p.NewWriter("rr/svcReply", testType, q)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.NewReader("rr/svcReply", testType, q, func(Sample) {})
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)
	subs, err := w.MatchedSubscriptions()
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != 1 || subs[0].GUID != r.GUID() || string(subs[0].QoS.UserData) != "clientid=7;" {
		t.Errorf("matched subscriptions %+v", subs)
	}
	pubs, err := r.MatchedPublications()
	if err != nil {
		t.Fatal(err)
	}
	if len(pubs) != 1 || pubs[0].GUID != w.GUID() {
		t.Fatalf("matched publications %+v", pubs)
	}
	if ep, ok := r.MatchedPublication(pubs[0].Handle); !ok || ep.GUID != w.GUID() {
		t.Errorf("MatchedPublication(%x) = %+v, %v", pubs[0].Handle, ep, ok)
	}
	if _, ok := r.MatchedPublication(12345); ok {
		t.Error("MatchedPublication of an unknown handle succeeded")
	}
	// A best-effort writer does not match a reliable reader (DDS request/offer rule),
	// while a reliable one made after it does.
	be, err := p.NewWriter("rr/svcReply", testType, QoS{Reliability: BestEffort})
	if err != nil {
		t.Fatal(err)
	}
	rw, err := p.NewWriter("rr/svcReply", testType, QoS{})
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, rw, 1)
	if subs, _ := be.MatchedSubscriptions(); len(subs) != 0 {
		t.Errorf("best-effort writer matched a reliable reader: %+v", subs)
	}
}

func TestBestEffortSensorData(t *testing.T) {
	domainBestEffort := takeDomain(t)
	ddstest.Setup(t)
	p := newParticipant(t, domainBestEffort, "")
	sensor := QoS{Reliability: BestEffort, Depth: 5}
	w, err := p.NewWriter("rt/scan", testType, sensor)
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	if _, err := p.NewReader("rt/scan", testType, sensor, c.handle); err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)
	if err := w.Write(sample("scan")); err != nil {
		t.Fatal(err)
	}
	if got := c.wait(t, 1, 5*time.Second); string(trimmed(t, got[0].Data, 8)[4:]) != "scan" {
		t.Errorf("got % x", got[0].Data)
	}
}

func TestErrors(t *testing.T) {
	domainErrors := takeDomain(t)
	ddstest.Setup(t)
	if _, err := NewParticipant(ParticipantOptions{DomainID: 300}); !errors.Is(err, ErrDomainID) {
		t.Errorf("domain 300: %v, want ErrDomainID", err)
	}
	p := newParticipant(t, domainErrors, "")
	if _, err := p.NewWriter("rt/bad name", testType, QoS{}); !errors.Is(err, ErrTopicName) {
		t.Errorf("bad topic name: %v", err)
	}
	if _, err := p.NewWriter("rt/ok", "", QoS{}); !errors.Is(err, ErrTypeName) {
		t.Errorf("empty type name: %v", err)
	}
	if _, err := p.NewWriter("rt/ok", testType, QoS{Depth: -2}); !errors.Is(err, ErrQoS) {
		t.Errorf("negative depth: %v", err)
	}
	w, err := p.NewWriter("rt/ok", testType, QoS{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.NewReader("rt/ok", "other::Type_", QoS{}, func(Sample) {}); !errors.Is(err, ErrTypeName) || !strings.Contains(err.Error(), `already has type`) {
		t.Errorf("second type on a topic: %v", err)
	}
	if _, err := p.NewReader("rt/ok", testType, QoS{}, nil); err == nil {
		t.Error("reader without handler accepted")
	}
	if err := w.Write([]byte{0, 1, 0}); !errors.Is(err, ErrSample) {
		t.Errorf("3-byte sample: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := w.Write(sample("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("write after close: %v", err)
	}
	// The domain exists now with this process's configuration; another one is refused.
	if _, err := NewParticipant(ParticipantOptions{DomainID: domainErrors, Config: "<CycloneDDS/>"}); !errors.Is(err, ErrDomainConfig) {
		t.Errorf("conflicting config: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.NewWriter("rt/ok", testType, QoS{}); !errors.Is(err, ErrClosed) {
		t.Errorf("writer on closed participant: %v", err)
	}
	if _, err := p.DiscoveredParticipants(); !errors.Is(err, ErrClosed) {
		t.Errorf("discovery on closed participant: %v", err)
	}
}

func TestBadDomainConfig(t *testing.T) {
	domainConfigClash := takeDomain(t)
	ddstest.Setup(t)
	_, err := NewParticipant(ParticipantOptions{DomainID: domainConfigClash, Config: "<CycloneDDS><Domain><General><Interfaces><NetworkInterface name=\"no-such-if0\"/></Interfaces></General></Domain></CycloneDDS>"})
	var rc *RetcodeError
	if !errors.As(err, &rc) || !strings.Contains(err.Error(), fmt.Sprintf("create domain %d", domainConfigClash)) || !strings.Contains(err.Error(), "an interface or peer in CYCLONEDDS_URI") {
		t.Fatalf("unknown interface: %v", err)
	}
	// The failed domain must not linger: a good configuration works afterwards.
	p := newParticipant(t, domainConfigClash, "")
	if p.DomainID() != domainConfigClash {
		t.Errorf("DomainID() = %d", p.DomainID())
	}
}

func TestReaderStopFromHandler(t *testing.T) {
	domainStop := takeDomain(t)
	ddstest.Setup(t)
	p := newParticipant(t, domainStop, "")
	w, err := p.NewWriter("rt/stop", testType, QoS{History: KeepAll})
	if err != nil {
		t.Fatal(err)
	}
	var r *Reader
	var calls int
	ready := make(chan struct{})
	r, err = p.NewReader("rt/stop", testType, QoS{History: KeepAll}, func(Sample) {
		<-ready
		calls++
		r.Stop()
	})
	if err != nil {
		t.Fatal(err)
	}
	close(ready)
	waitMatched(t, w, 1)
	for i := 0; i < 5; i++ {
		if err := w.Write(sample("s")); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-r.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("reader did not stop")
	}
	if r.Err() != nil {
		t.Errorf("Err() = %v", r.Err())
	}
	if calls == 0 {
		t.Error("handler never ran")
	}
	if err := r.Close(); err != nil {
		t.Error(err)
	}
	if _, err := r.MatchedPublications(); !errors.Is(err, ErrClosed) {
		t.Errorf("MatchedPublications after stop: %v", err)
	}
	if _, _, err := r.IncompatibleQoS(); !errors.Is(err, ErrClosed) {
		t.Errorf("IncompatibleQoS after stop: %v", err)
	}
}

// BenchmarkEchoRoundTrip300B measures the round trip of a 300-byte sample to the
// echo peer in another process and back, over the loopback interface.
func BenchmarkEchoRoundTrip300B(b *testing.B) {
	domainBench := takeDomain(b)
	ddstest.Setup(b)
	p := newParticipant(b, domainBench, "")
	startEchoPeer(b, domainBench)
	qos := QoS{History: KeepAll}
	w, err := p.NewWriter("rt/ping", testType, qos)
	if err != nil {
		b.Fatal(err)
	}
	got := make(chan struct{}, 1)
	r, err := p.NewReader("rt/pong", testType, qos, func(Sample) { got <- struct{}{} })
	if err != nil {
		b.Fatal(err)
	}
	waitMatched(b, w, 1)
	ddstest.WaitFor(b, 10*time.Second, "echo writer matched", func() error {
		if eps, _ := r.MatchedPublications(); len(eps) == 0 {
			return errors.New("no writer")
		}
		return nil
	})
	s := make([]byte, 300)
	copy(s, []byte{0, 1, 0, 0})
	b.SetBytes(300)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := w.Write(s); err != nil {
			b.Fatal(err)
		}
		select {
		case <-got:
		case <-time.After(10 * time.Second):
			b.Fatalf("echo %d lost", i)
		}
	}
}

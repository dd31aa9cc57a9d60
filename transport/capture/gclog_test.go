package capture

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/gclog"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestGameLogPackets: a real GameController log's status and team messages become
// datagrams to 3939 and 10017 at the log's wall-clock time.
func TestGameLogPackets(t *testing.T) {
	f, err := os.Open("../../proto/gclog/testdata/hsl20.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := gclog.NewReader(f)
	var es []gclog.Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	pkts := GameLogPackets(es)
	start := es[0].Metadata.Timestamp
	ports := map[uint16]int{}
	for _, p := range pkts {
		e := es[p.Frame-1]
		ports[p.Dst.Port()]++
		if !p.Time.Equal(start.Add(e.Time)) || p.Src.Addr() != e.Message.Host || string(p.Payload) != string(e.Message.Data) ||
			p.Dir != transport.Received || p.Interface != "gclog" {
			t.Errorf("entry %d (%s) gave %+v", e.Index, e.Kind, p)
		}
	}
	if ports[3939] != 26 || ports[10017] != 13 || len(ports) != 2 {
		t.Errorf("datagrams per port %v, want 26 to 3939 and 13 to 10017", ports)
	}
	if pkts[0].Time.Sub(start) < 500*time.Millisecond {
		t.Errorf("first datagram at %v, the log's first message is at 0.54 s", pkts[0].Time.Sub(start))
	}
}

//go:build cgo

package ros

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/std_msgs"
)

// payload300 is a std_msgs/String whose sample is exactly 300 bytes: 4 header,
// 4 length, 291 characters and the NUL.
var payload300 = std_msgs.String{Data: strings.Repeat("r", 291)}

func benchNodes(b *testing.B) (*Node, *Node) {
	b.Helper()
	if n := len(cdr.Marshal(&payload300)); n != 300 {
		b.Fatalf("sample is %d bytes, want 300", n)
	}
	env := testEnv(b, rosdomain.Take(b), "jazzy")
	mk := func(name string) *Node {
		n, err := NewNode(context.Background(), name, "/bench", NodeOptions{Getenv: env, LogOutput: io.Discard, NoParameterServices: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { n.Close() })
		return n
	}
	return mk("pub"), mk("sub")
}

func waitMatched[T any, P cdr.PtrMessage[T]](b *testing.B, p *Publisher[T, P]) {
	b.Helper()
	waitFor(b, "publisher matched", func() error {
		if n, err := p.SubscriptionCount(); err != nil || n == 0 {
			return fmt.Errorf("%d subscriptions, %v", n, err)
		}
		return nil
	})
}

// BenchmarkLatency300B measures publish-to-receive latency of a 300-byte message
// between two nodes of one process: one op is Publish until the subscription's
// handler has the decoded message.
func BenchmarkLatency300B(b *testing.B) {
	pubNode, subNode := benchNodes(b)
	got := make(chan struct{}, 1)
	if _, err := NewSubscription(subNode, "latency", QoSDefault, func(*std_msgs.String) { got <- struct{}{} }); err != nil {
		b.Fatal(err)
	}
	pub, err := NewPublisher[std_msgs.String](pubNode, "latency", QoSDefault)
	if err != nil {
		b.Fatal(err)
	}
	waitMatched(b, pub)
	b.SetBytes(300)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := pub.Publish(&payload300); err != nil {
			b.Fatal(err)
		}
		select {
		case <-got:
		case <-time.After(10 * time.Second):
			b.Fatalf("message %d not received", i)
		}
	}
}

// BenchmarkThroughput300B publishes 300-byte messages as fast as a reliable
// KEEP_ALL writer allows and waits until the subscription has decoded them all.
func BenchmarkThroughput300B(b *testing.B) {
	pubNode, subNode := benchNodes(b)
	var received atomic.Int64
	done := make(chan struct{})
	var target atomic.Int64
	target.Store(-1)
	qos := QoS{Reliability: Reliable, History: KeepAll}
	if _, err := NewSubscription(subNode, "throughput", qos, func(*std_msgs.String) {
		if received.Add(1) == target.Load() {
			close(done)
		}
	}); err != nil {
		b.Fatal(err)
	}
	pub, err := NewPublisher[std_msgs.String](pubNode, "throughput", qos)
	if err != nil {
		b.Fatal(err)
	}
	waitMatched(b, pub)
	target.Store(int64(b.N))
	b.SetBytes(300)
	b.ReportAllocs()
	start := time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := pub.Publish(&payload300); err != nil {
			b.Fatal(err)
		}
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		b.Fatalf("received %d of %d", received.Load(), b.N)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msg/s")
}

// BenchmarkPublish300B is the cost of Publish alone (serialise and hand to DDS)
// with nobody subscribed.
func BenchmarkPublish300B(b *testing.B) {
	pubNode, _ := benchNodes(b)
	pub, err := NewPublisher[std_msgs.String](pubNode, "nobody", QoSDefault)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(300)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := pub.Publish(&payload300); err != nil {
			b.Fatal(err)
		}
	}
}

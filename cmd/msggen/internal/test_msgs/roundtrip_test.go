package test_msgs_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/cmd/msggen/internal/other_msgs"
	"github.com/robocup-dnetwork/dnetwork/cmd/msggen/internal/test_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr/cdrtest"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.NewReplacer(" ", "", "|", "", "\n", "").Replace(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRoundTripRandom(t *testing.T) {
	all := append(test_msgs.Messages(), other_msgs.Messages()...)
	if len(all) != 10 { // six messages, Compute's request, response and event, Thing
		t.Errorf("%d types, want 10", len(all))
	}
	for _, m := range all {
		t.Run(m.TypeName(), func(t *testing.T) { cdrtest.RoundTripRandom(t, m, 16, 4) })
	}
}

func TestPrimitivesGolden(t *testing.T) {
	m := &test_msgs.Primitives{
		Flag: true, Raw: 0xab, Letter: 'A', I8: -1, U8: 2,
		I16: -2, U16: 3, I32: -3, U32: 4, I64: -4, U64: 5,
		F32: 1.5, F64: -0.5, Text: "hi", ShortText: "abc",
	}
	want := unhex(t, "00010000"+
		"01 ab 41 ff 02 | 00 | feff 0300 | 0000 |"+ // bool byte char int8 uint8, pad, int16 at 6, uint16, pad
		"fdffffff 04000000 | 00000000 |"+ // int32 at 12, uint32 at 16, pad to 24
		"fcffffffffffffff 0500000000000000 |"+ // int64 at 24, uint64 at 32
		"0000c03f | 00000000 | 000000000000e0bf |"+ // float32 at 40, pad, float64 at 48
		"03000000 686900 | 00 | 04000000 61626300") // "hi" at 56, pad, "abc" at 64
	got, err := cdr.Append(nil, m)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("err %v\n got % x\nwant % x", err, got, want)
	}
	var back test_msgs.Primitives
	if err := cdr.Unmarshal(got, &back); err != nil || back != *m {
		t.Fatalf("decoded %+v (%v)", back, err)
	}
	m.ShortText = "123456789" // string<=8
	if _, err := cdr.Append(nil, m); !errors.Is(err, cdr.ErrBound) {
		t.Fatalf("9 bytes in string<=8: %v", err)
	}
}

func TestNestedAlignment(t *testing.T) {
	m := &test_msgs.Nested{
		Thing:  other_msgs.Thing{ID: 7, Label: "x"},
		Things: []other_msgs.Thing{{ID: -1}},
		Tail:   9,
	}
	want := unhex(t, "00010000"+
		"00 | 00 | 0700 | 02000000 7800 |"+ // Empty's byte, pad, Thing.id at 2, label at 4
		"0000 | 01000000 | ffff | 0000 | 01000000 00 |"+ // pad, count at 12, id at 16, pad, "" at 20
		"09 | 0000") // tail at 25, padding to 28
	got := cdr.Marshal(m)
	if !bytes.Equal(got, want) {
		t.Fatalf("\n got % x\nwant % x", got, want)
	}
}

func TestArraysOctetsAndBounds(t *testing.T) {
	m := &test_msgs.Arrays{FixedOctets: [4]uint8{1, 2, 3, 4}, Octets: []byte("xyz"), BoundedChars: []uint8("abcd")}
	cdrtest.RoundTrip(t, m)
	m.BoundedChars = append(m.BoundedChars, 'e')
	if _, err := cdr.Append(nil, m); !errors.Is(err, cdr.ErrBound) {
		t.Errorf("5 chars in char[<=4]: %v", err)
	}
	m.BoundedChars = nil
	m.FixedShortStrings[1] = "sixsix"
	if _, err := cdr.Append(nil, m); !errors.Is(err, cdr.ErrBound) {
		t.Errorf("6 bytes in string<=5[2]: %v", err)
	}
}

func TestDefaults(t *testing.T) {
	var d test_msgs.Defaults
	d.SetDefaults()
	want := test_msgs.Defaults{
		On: true, Count: -7, Mask: 0xff, Ratio: 0.5, Name: `it's "quoted"`, Short: "single",
		Triple: [3]int32{1, 2, 3}, Weights: []float32{0.25, -1}, Tags: []string{"a, b", "c", "d"},
		Pair:        [2]bool{true, false},
		Nested:      test_msgs.Thing2{Value: 1.25},
		NestedArray: [2]test_msgs.Thing2{{Value: 1.25}, {Value: 1.25}},
	}
	cdrtest.RoundTrip(t, &d)
	if a, b := cdr.Marshal(&d), cdr.Marshal(&want); !bytes.Equal(a, b) {
		t.Fatalf("defaults %+v, want %+v", d, want)
	}
}

func TestConstants(t *testing.T) {
	if test_msgs.PrimitivesUint64Const != 1<<64-1 || test_msgs.PrimitivesInt64Const != -1<<63 ||
		test_msgs.PrimitivesUint8Const != 16 || test_msgs.PrimitivesStringConst != "hello world" ||
		!test_msgs.PrimitivesBoolConst || test_msgs.PrimitivesFloat64Const != -2.25e-3 ||
		test_msgs.EmptyOnlyConstant != 1 || test_msgs.Compute_RequestAdd != 1 {
		t.Fatal("constant values differ from the .msg files")
	}
}

func TestService(t *testing.T) {
	s := test_msgs.Compute
	if s.Name != "test_msgs/srv/Compute" || s.RequestDDSTypeName != "test_msgs::srv::dds_::Compute_Request_" ||
		s.ResponseDDSTypeName != "test_msgs::srv::dds_::Compute_Response_" ||
		s.RequestTypeHash != new(test_msgs.Compute_Request).TypeHash() ||
		s.ResponseTypeHash != new(test_msgs.Compute_Response).TypeHash() ||
		s.TypeHash == s.RequestTypeHash {
		t.Fatalf("%+v", s)
	}
	ev := &test_msgs.Compute_Event{Request: []test_msgs.Compute_Request{{Op: test_msgs.Compute_RequestAdd, Operands: []int64{1, 2}}}}
	cdrtest.RoundTrip(t, ev)
	ev.Response = make([]test_msgs.Compute_Response, 2)
	if _, err := cdr.Append(nil, ev); !errors.Is(err, cdr.ErrBound) {
		t.Errorf("two responses in an event: %v", err)
	}
}

package ros

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
)

// getParametersRequest is rmw_cyclonedds' get_parameters request for "team_id" from
// the writer with instance handle 0x1122334455667788, request 42.
var getParametersRequest = []byte{
	0, 1, 0, 0, // CDR_LE
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, // guid
	42, 0, 0, 0, 0, 0, 0, 0, // seq
	1, 0, 0, 0, 8, 0, 0, 0, 't', 'e', 'a', 'm', '_', 'i', 'd', 0, // names: ["team_id"]
}

func TestFraming(t *testing.T) {
	var e cdr.Encoder
	req := &rcl_interfaces.GetParameters_Request{Names: []string{"team_id"}}
	b, err := appendFramed(&e, nil, RequestHeader{GUID: 0x1122334455667788, Seq: 42}, req)
	if err != nil || !bytes.Equal(b, getParametersRequest) {
		t.Fatalf("request %v\n got % x\nwant % x", err, b, getParametersRequest)
	}
	var back rcl_interfaces.GetParameters_Request
	h, err := decodeFramed(b, &back)
	if err != nil || h != (RequestHeader{0x1122334455667788, 42}) || !reflect.DeepEqual(&back, req) {
		t.Fatalf("decoded %+v %+v %v", h, back, err)
	}
	// A big-endian request (allowed by CDR) has the same meaning.
	be := []byte{0, 0, 0, 0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0, 0, 0, 0, 0, 0, 0, 42,
		0, 0, 0, 1, 0, 0, 0, 8, 't', 'e', 'a', 'm', '_', 'i', 'd', 0}
	if h, err := decodeFramed(be, &back); err != nil || h != (RequestHeader{0x1122334455667788, 42}) || back.Names[0] != "team_id" {
		t.Errorf("big-endian request: %+v %+v %v", h, back, err)
	}
	for n := 0; n < 20; n++ {
		if _, err := decodeFramed(getParametersRequest[:n], &back); !errors.Is(err, cdr.ErrHeader) && !errors.Is(err, cdr.ErrTruncated) {
			t.Errorf("%d-byte prefix: %v", n, err)
		}
	}
}

func FuzzFramedRequest(f *testing.F) {
	f.Add(getParametersRequest)
	f.Add(getParametersRequest[:16])
	f.Add([]byte{0, 1, 0, 0})
	f.Add(append(append([]byte{}, getParametersRequest[:20]...), 0xff, 0xff, 0xff, 0xff))
	f.Fuzz(func(t *testing.T, b []byte) {
		var req rcl_interfaces.GetParameters_Request
		h, err := decodeFramed(b, &req)
		if err != nil {
			return
		}
		var e cdr.Encoder
		again, err := appendFramed(&e, nil, h, &req)
		if err != nil {
			t.Fatalf("re-encoding a decoded request: %v", err)
		}
		var req2 rcl_interfaces.GetParameters_Request
		h2, err := decodeFramed(again, &req2)
		if err != nil || h2 != h || !reflect.DeepEqual(req, req2) {
			t.Fatalf("round trip: %+v %+v → %+v %+v %v", h, req, h2, req2, err)
		}
	})
}

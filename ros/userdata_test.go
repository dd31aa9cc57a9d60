package ros

import (
	"testing"

	"github.com/robocup-dnetwork/dnetwork/ros/dds"
)

func TestUserData(t *testing.T) {
	if got := string(enclaveUserData("")); got != "enclave=/;" {
		t.Errorf("default enclave user data %q", got)
	}
	if got := string(enclaveUserData("/robots/r1")); got != "enclave=/robots/r1;" {
		t.Errorf("enclave user data %q", got)
	}
	const hash = "RIHS01_df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18"
	for _, tc := range []struct {
		extra string
		with  bool
		want  string
	}{
		{"", true, "typehash=" + hash + ";"},
		{"", false, ""},
		{"serviceid=1.10.0.0.0.0.0.0.0.0.0.0.0.0.0.1;", true, "serviceid=1.10.0.0.0.0.0.0.0.0.0.0.0.0.0.1;typehash=" + hash + ";"},
		{"clientid=1.2;", false, "clientid=1.2;"},
	} {
		if got := string(endpointUserData(tc.extra, hash, tc.with)); got != tc.want {
			t.Errorf("endpointUserData(%q, %v) = %q, want %q", tc.extra, tc.with, got, tc.want)
		}
	}
	ud := []byte("serviceid=1.2.3;typehash=" + hash + ";")
	if v, ok := userDataValue(ud, "serviceid"); !ok || v != "1.2.3" {
		t.Errorf("serviceid = %q, %v", v, ok)
	}
	if v, ok := userDataValue(ud, "typehash"); !ok || v != hash {
		t.Errorf("typehash = %q, %v", v, ok)
	}
	if _, ok := userDataValue(ud, "clientid"); ok {
		t.Error("clientid found in service user data")
	}
	if _, ok := userDataValue([]byte("myserviceid=1;"), "serviceid"); ok {
		t.Error("key matched as a suffix")
	}
	g := dds.GUID{0x01, 0x10, 0xab, 0xcd, 0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 1, 0xc1}
	if got := endpointID(g, 0x01020304); got != "1.10.ab.cd.0.1.2.3.4.5.6.7.1.2.3.4" {
		t.Errorf("endpointID = %q", got)
	}
}

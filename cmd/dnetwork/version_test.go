package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestVersionArgs: version prints the version, answers -h with its usage (status 0) and
// refuses a flag or an argument it does not know with status 2, as every command does.
func TestVersionArgs(t *testing.T) {
	tests := []struct {
		args        []string
		code        int
		out, errOut string
	}{
		{nil, 0, "dnetwork ", ""},
		{[]string{"-h"}, 0, "", "usage: dnetwork version"},
		{[]string{"--bogus"}, 2, "", "flag provided but not defined: -bogus"},
		{[]string{"extra"}, 2, "", `unexpected arguments ["extra"]`},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := dispatch(context.Background(), append([]string{"version"}, tt.args...), strings.NewReader(""), &out, &errb)
		if code != tt.code || !strings.Contains(out.String(), tt.out) || !strings.Contains(errb.String(), tt.errOut) {
			t.Errorf("version %q: status %d, stdout %q, stderr %q; want %d, %q, %q",
				tt.args, code, out.String(), errb.String(), tt.code, tt.out, tt.errOut)
		}
		if tt.code != 0 || len(tt.args) > 0 {
			if strings.Contains(out.String(), "dnetwork ") {
				t.Errorf("version %q printed the version: %q", tt.args, out.String())
			}
		}
	}
}

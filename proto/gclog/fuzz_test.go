package gclog

import (
	"bytes"
	"errors"
	"io"
	"os"
	"reflect"
	"testing"
)

// FuzzReader: any input gives entries and at most one error, never a panic; the
// messages read are written again and read back equal.
func FuzzReader(f *testing.F) {
	for _, name := range fixtures {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		entries := entryText(data)
		f.Add([]byte(entries[0] + entries[len(entries)-1]))
		for _, e := range entries[1:12] {
			f.Add([]byte(e))
		}
		f.Add(toTagForm(f, []byte(entries[3]+entries[4])))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		var msgs []Entry
		for {
			e, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				if _, again := r.Next(); !errors.Is(again, err) {
					t.Fatalf("error %v, then %v", err, again)
				}
				break
			}
			if e.Message != nil {
				msgs = append(msgs, e)
			}
		}
		for _, form := range []Form{FormTag, FormKey} {
			var b bytes.Buffer
			w := NewWriter(&b, form)
			for _, e := range msgs {
				if err := w.Write(e); err != nil {
					t.Fatalf("write %+v: %v", e, err)
				}
			}
			_ = w.Flush()
			got, err := readAll(t, b.Bytes())
			if err != nil || len(got) != len(msgs) {
				t.Fatalf("form %v: read back %d of %d: %v\n%s", form, len(got), len(msgs), err, b.Bytes())
			}
			for i := range got {
				if !reflect.DeepEqual(got[i].Message, msgs[i].Message) || got[i].Time != msgs[i].Time || got[i].Kind != msgs[i].Kind {
					t.Fatalf("form %v entry %d: %+v, want %+v", form, i+1, got[i].Message, msgs[i].Message)
				}
			}
		}
	})
}

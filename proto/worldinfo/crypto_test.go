package worldinfo

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TV-FW-POSE from the protocol research, independent of testdata/.
const (
	tvPosePlain  = "beef020000000000000100300000803f000000400000003f" + "000000000000000000000000000000000000000000000000000000000000000000000000"
	tvPoseCipher = "355cb2ca83cb02e73646ca767fa272a3ef64327e055c600b899e178cede0d3f9" +
		"f6068e19b0ef498d1ae70886c914a71af3b682994562b388124ebe1e6c395518"
)

func TestTVFWPose(t *testing.T) {
	plain, want := mustHex(t, tvPosePlain), mustHex(t, tvPoseCipher)
	c := NewCipher(DefaultKey)
	got, err := c.Seal(nil, plain)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("Seal: err=%v\n got % x\nwant % x", err, got, want)
	}
	back, err := c.Open(nil, want)
	if err != nil || !bytes.Equal(back, plain) {
		t.Fatalf("Open: err=%v\n got % x\nwant % x", err, back, plain)
	}
	if v := loadVectors(t)["pose"]; !bytes.Equal(v.cipher, want) || !bytes.Equal(v.plain, plain) {
		t.Errorf("testdata pose vector disagrees with TV-FW-POSE")
	}
}

// TestOpenSSLVectors checks every vector made by `openssl enc -aes-128-ecb`.
func TestOpenSSLVectors(t *testing.T) {
	for name, v := range loadVectors(t) {
		c := NewCipher(v.key)
		if want := SealedSize(len(v.plain)); len(v.cipher) != want {
			t.Errorf("%s: ciphertext %d bytes, SealedSize says %d", name, len(v.cipher), want)
		}
		got, err := c.Seal([]byte("prefix"), v.plain)
		if rest, ok := bytes.CutPrefix(got, []byte("prefix")); err != nil || !ok || !bytes.Equal(rest, v.cipher) {
			t.Errorf("%s Seal: err=%v\n got % x\nwant prefix + % x", name, err, got, v.cipher)
		}
		plain, err := c.Open([]byte("prefix"), v.cipher)
		if rest, ok := bytes.CutPrefix(plain, []byte("prefix")); err != nil || !ok || !bytes.Equal(rest, v.plain) {
			t.Errorf("%s Open: err=%v\n got % x\nwant prefix + % x", name, err, plain, v.plain)
		}
	}
}

func TestDeriveKey(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"AllemaniACsX0rz", "AllemaniACsX0rz\x00"},
		{"0123456789abcdef", "0123456789abcdef"},
		{"a key string longer than sixteen bytes", "a key string lon"},
		{"short", "short\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"},
		{"", strings.Repeat("\x00", 16)},
	} {
		if k := DeriveKey(tc.key); string(k[:]) != tc.want {
			t.Errorf("DeriveKey(%q) = %q, want %q", tc.key, k[:], tc.want)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	vs := loadVectors(t)
	c := NewCipher(DefaultKey)
	pose := vs["pose"].cipher
	for _, n := range []int{0, 1, 15, 17, 63} {
		if _, err := c.Open(nil, make([]byte, n)); !errors.Is(err, ErrCipherLength) {
			t.Errorf("Open(%d bytes) err = %v, want ErrCipherLength", n, err)
		}
	}
	// Flipping a bit of the last block destroys the padding.
	bad := bytes.Clone(pose)
	bad[len(bad)-1] ^= 0x80
	if got, err := c.Open([]byte("keep"), bad); !errors.Is(err, ErrPadding) || string(got) != "keep" {
		t.Errorf("corrupt last block: got %q err %v, want ErrPadding and dst unchanged", got, err)
	}
	// A wrong key mostly fails the padding check, otherwise the header check.
	wrong := NewCipher("AllemaniACsX0ry")
	failed := 0
	for name, v := range vs {
		if v.key != DefaultKey || len(v.plain) == 0 {
			continue
		}
		plain, err := wrong.Open(nil, v.cipher)
		if err == nil {
			_, _, err = Parse(plain)
		}
		if err == nil {
			t.Errorf("%s: decoded with the wrong key", name)
		}
		if errors.Is(err, ErrPadding) {
			failed++
		}
	}
	if failed == 0 {
		t.Errorf("no vector failed the padding check with a wrong key")
	}
}

func TestSealTooLong(t *testing.T) {
	c := NewCipher(DefaultKey)
	if _, err := c.Seal(nil, make([]byte, MTU+1)); !errors.Is(err, ErrTooLong) {
		t.Fatalf("Seal(1401 bytes) err = %v, want ErrTooLong", err)
	}
	out, err := c.Seal(nil, make([]byte, MTU))
	if err != nil || len(out) != MaxCiphertext {
		t.Fatalf("Seal(1400 bytes) = %d bytes, %v; want %d", len(out), err, MaxCiphertext)
	}
}

func TestSealOpenAllLengths(t *testing.T) {
	c := NewCipher("some other key!!")
	buf := make([]byte, 0, RecvBufferSize)
	for n := 0; n <= 70; n++ {
		plain := bytes.Repeat([]byte{byte(n)}, n)
		ct, err := c.Seal(nil, plain)
		if err != nil || len(ct) != SealedSize(n) || len(ct)%BlockSize != 0 || len(ct) <= n {
			t.Fatalf("Seal(%d): %d bytes, %v", n, len(ct), err)
		}
		got, err := c.Open(buf[:0], ct)
		if err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("Open(Seal(%d)) = % x, %v", n, got, err)
		}
	}
}

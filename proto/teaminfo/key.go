package teaminfo

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"hash"
	"sync"
)

// Key is a team's shared secret for dnet authentication tags: HMAC-SHA-256 over the
// packet's bytes before the tag (header flag "tagged" included), truncated to TagSize
// bytes. A Key is safe for concurrent use; signing and verifying do not allocate in the
// steady state (HMAC states are pooled).
type Key struct {
	pool sync.Pool // of *macState
}

type macState struct {
	h   hash.Hash
	sum [sha256.Size]byte
}

// NewKey returns a Key for secret, which must not be empty. The secret is copied. Use at
// least 16 random bytes; a short or guessable secret gives a weak tag.
func NewKey(secret []byte) (*Key, error) {
	if len(secret) == 0 {
		return nil, fmt.Errorf("%w: empty secret", ErrKey)
	}
	s := bytes.Clone(secret)
	k := &Key{}
	k.pool.New = func() any { return &macState{h: hmac.New(sha256.New, s)} }
	return k, nil
}

// sum writes the truncated tag of msg to dst.
func (k *Key) sum(dst *[TagSize]byte, msg []byte) {
	m := k.pool.Get().(*macState)
	m.h.Reset()
	m.h.Write(msg)
	m.h.Sum(m.sum[:0])
	copy(dst[:], m.sum[:TagSize])
	k.pool.Put(m)
}

// verify reports in constant time whether tag is the truncated tag of msg.
func (k *Key) verify(msg, tag []byte) bool {
	var want [TagSize]byte
	k.sum(&want, msg)
	return hmac.Equal(want[:], tag)
}

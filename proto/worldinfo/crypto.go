package worldinfo

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"slices"
)

// KeySize is the AES-128 key size.
const KeySize = 16

// DeriveKey returns the AES key Fawkes uses for a key string: the string's bytes followed
// by a NUL byte, zero padded and cut to 16 bytes. For key strings of 15 or more characters
// this equals the 16 bytes OpenSSL reads from Fawkes' key pointer; Fawkes' behaviour for
// shorter keys is undefined (it reads past the string) and here they are zero padded.
func DeriveKey(key string) [KeySize]byte {
	var k [KeySize]byte
	copy(k[:], key) // the NUL and the padding are the zeros already there
	return k
}

// Cipher encrypts and decrypts whole datagrams with AES-128-ECB and PKCS#7 padding, as
// Fawkes' MessageEncryptor and MessageDecryptor do. It is safe for concurrent use.
type Cipher struct {
	block cipher.Block
}

// NewCipher returns the cipher for a key string (see [DeriveKey]). Fawkes also takes an IV
// string, which ECB mode ignores; it has no counterpart here.
func NewCipher(key string) *Cipher {
	k := DeriveKey(key)
	block, err := aes.NewCipher(k[:])
	if err != nil { // unreachable: a 16-byte key is always valid
		panic("worldinfo: " + err.Error())
	}
	return &Cipher{block: block}
}

// SealedSize returns the ciphertext length for a plaintext of n bytes: PKCS#7 always adds
// 1 to 16 bytes of padding.
func SealedSize(n int) int { return (n/BlockSize + 1) * BlockSize }

// Seal appends the encryption of plain to dst and returns the extended slice. Plaintexts
// longer than [MTU] are rejected with [ErrTooLong]. dst and plain must not overlap.
func (c *Cipher) Seal(dst, plain []byte) ([]byte, error) {
	if len(plain) > MTU {
		return dst, fmt.Errorf("%w: plaintext has %d bytes", ErrTooLong, len(plain))
	}
	n := SealedSize(len(plain))
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	out := dst[start:]
	full := len(plain) &^ (BlockSize - 1)
	for i := 0; i < full; i += BlockSize {
		c.block.Encrypt(out[i:i+BlockSize], plain[i:i+BlockSize])
	}
	// The last block is padded in place and encrypted in place.
	last := out[full:]
	pad := byte(n - len(plain))
	copy(last, plain[full:])
	for i := len(plain) - full; i < BlockSize; i++ {
		last[i] = pad
	}
	c.block.Encrypt(last, last)
	return dst, nil
}

// Open appends the decryption of ciphertext to dst and returns the extended slice. It
// fails with [ErrCipherLength] when the length is zero or not a multiple of 16 and with
// [ErrPadding] when the padding is invalid, the usual result of a wrong key (about one
// wrong key in 256 still yields valid padding; the header check then rejects it). The
// plaintext may exceed [MTU]; [Parse] rejects that. dst and ciphertext must not overlap.
func (c *Cipher) Open(dst, ciphertext []byte) ([]byte, error) {
	if len(ciphertext) == 0 || len(ciphertext)%BlockSize != 0 {
		return dst, fmt.Errorf("%w: %d bytes", ErrCipherLength, len(ciphertext))
	}
	start := len(dst)
	dst = slices.Grow(dst, len(ciphertext))[:start+len(ciphertext)]
	out := dst[start:]
	for i := 0; i < len(ciphertext); i += BlockSize {
		c.block.Decrypt(out[i:i+BlockSize], ciphertext[i:i+BlockSize])
	}
	pad := int(out[len(out)-1])
	bad := pad == 0 || pad > BlockSize
	if !bad {
		for _, v := range out[len(out)-pad:] {
			bad = bad || int(v) != pad
		}
	}
	if bad {
		return dst[:start], ErrPadding
	}
	return dst[:len(dst)-pad], nil
}

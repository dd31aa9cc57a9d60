package cdr

import "errors"

// Sentinel errors. Decoding errors wrap one of them with the offset and sizes involved;
// test with errors.Is.
var (
	// ErrHeader reports a missing or unsupported encapsulation header.
	ErrHeader = errors.New("cdr: bad encapsulation header")
	// ErrTruncated reports that the input ended inside a value.
	ErrTruncated = errors.New("cdr: truncated")
	// ErrLength reports a sequence or string length that cannot fit in the bytes left.
	ErrLength = errors.New("cdr: length exceeds remaining bytes")
	// ErrBound reports a bounded string or sequence longer than its bound.
	ErrBound = errors.New("cdr: bound exceeded")
	// ErrBool reports a boolean byte other than 0 or 1.
	ErrBool = errors.New("cdr: invalid boolean")
	// ErrString reports a string whose last byte is not NUL.
	ErrString = errors.New("cdr: string not NUL-terminated")
)

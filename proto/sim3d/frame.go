package sim3d

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
)

// Framing of the agent connection.
const (
	// FrameHeaderLen is the size of the big-endian payload length in front of every
	// message on the agent's TCP connection.
	FrameHeaderLen = 4
	// DefaultMaxFrame is the payload size limit used when a caller passes 0. A full Nao
	// percept is a few kilobytes.
	DefaultMaxFrame = 64 << 10

	minGrow = 4 << 10
)

// Framing errors.
var (
	// ErrFrameTooLarge reports a length prefix above the reader's limit. The stream is
	// out of step after it and the connection should be closed.
	ErrFrameTooLarge = errors.New("sim3d: frame too large")
	// ErrIncomplete reports that a buffer holds only part of a frame; more bytes are needed.
	ErrIncomplete = errors.New("sim3d: incomplete frame")
	// ErrTruncated reports a stream that ended inside a frame. It wraps io.ErrUnexpectedEOF.
	ErrTruncated = fmt.Errorf("sim3d: stream ended inside a frame: %w", io.ErrUnexpectedEOF)
)

// AppendFrame appends payload with its 4-byte big-endian length prefix to dst.
func AppendFrame(dst, payload []byte) ([]byte, error) {
	if uint64(len(payload)) > math.MaxUint32 {
		return dst, fmt.Errorf("%w: %d bytes do not fit a 32-bit length", ErrFrameTooLarge, len(payload))
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(payload)))
	return append(dst, payload...), nil
}

// SplitFrame takes the first frame off b. It returns the payload (aliasing b) and the
// bytes after the frame. When b does not yet hold a whole frame it returns ErrIncomplete
// and rest = b; a length above maxPayload (0 means DefaultMaxFrame) is ErrFrameTooLarge.
func SplitFrame(b []byte, maxPayload int) (payload, rest []byte, err error) {
	if maxPayload <= 0 {
		maxPayload = DefaultMaxFrame
	}
	if len(b) < FrameHeaderLen {
		return nil, b, fmt.Errorf("%w: %d of %d header bytes", ErrIncomplete, len(b), FrameHeaderLen)
	}
	n := binary.BigEndian.Uint32(b)
	if uint64(n) > uint64(maxPayload) {
		return nil, b, fmt.Errorf("%w: length prefix %d exceeds the limit %d", ErrFrameTooLarge, n, maxPayload)
	}
	end := FrameHeaderLen + int(n)
	if len(b) < end {
		return nil, b, fmt.Errorf("%w: %d of %d payload bytes", ErrIncomplete, len(b)-FrameHeaderLen, n)
	}
	return b[FrameHeaderLen:end:end], b[end:], nil
}

// FrameReader reads length-prefixed frames from a stream, reusing one buffer.
type FrameReader struct {
	r   io.Reader
	max int
	hdr [FrameHeaderLen]byte
	buf []byte
	err error // sticky after the stream went out of step or ended
}

// NewFrameReader returns a reader of frames whose payload is at most maxPayload bytes
// (0 means DefaultMaxFrame).
func NewFrameReader(r io.Reader, maxPayload int) *FrameReader {
	if maxPayload <= 0 {
		maxPayload = DefaultMaxFrame
	}
	return &FrameReader{r: r, max: maxPayload}
}

// Next returns the next payload. The slice is valid until the following call. At a clean
// end of stream Next returns io.EOF; a stream that ends inside a frame gives ErrTruncated.
// After an error every later call returns the same error.
func (f *FrameReader) Next() ([]byte, error) {
	if f.err != nil {
		return nil, f.err
	}
	if k, err := io.ReadFull(f.r, f.hdr[:]); err != nil {
		switch {
		case errors.Is(err, io.EOF) && k == 0:
			f.err = io.EOF
		case errors.Is(err, io.ErrUnexpectedEOF):
			f.err = fmt.Errorf("%w (%d of %d header bytes)", ErrTruncated, k, FrameHeaderLen)
		default:
			f.err = fmt.Errorf("sim3d: read frame header: %w", err)
		}
		return nil, f.err
	}
	n := binary.BigEndian.Uint32(f.hdr[:])
	if uint64(n) > uint64(f.max) {
		f.err = fmt.Errorf("%w: length prefix %d exceeds the limit %d", ErrFrameTooLarge, n, f.max)
		return nil, f.err
	}
	// Grow the buffer as bytes arrive, so a bogus length below a generous limit does not
	// allocate the whole claimed size up front.
	p := f.buf[:0]
	for len(p) < int(n) {
		if len(p) == cap(p) {
			p = slices.Grow(p, min(int(n)-len(p), max(cap(p), minGrow)))
		}
		k, err := f.r.Read(p[len(p):min(cap(p), int(n))])
		p = p[:len(p)+k]
		if err != nil && len(p) < int(n) {
			if errors.Is(err, io.EOF) {
				f.err = fmt.Errorf("%w (%d of %d payload bytes)", ErrTruncated, len(p), n)
			} else {
				f.err = fmt.Errorf("sim3d: read frame payload: %w", err)
			}
			return nil, f.err
		}
	}
	f.buf = p[:0]
	return p, nil
}

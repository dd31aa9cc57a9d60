package worldinfo

import (
	"encoding/binary"
	"fmt"
)

// Record is one record of a plaintext datagram. Body aliases the datagram.
type Record struct {
	Type RecordType
	// Offset is the position of the record header in the datagram.
	Offset int
	Body   []byte
}

// Check reports why a receiver skips the record: [ErrUnknownType] for a type it does not
// know, [ErrSize] for a body whose size differs from the type's. Both are skipped by
// their size and the records after them are still used.
func (r Record) Check() error {
	size, ok := BodySize(r.Type)
	if !ok {
		return fmt.Errorf("%w %d (%d-byte body skipped)", ErrUnknownType, uint16(r.Type), len(r.Body))
	}
	if len(r.Body) != size {
		return fmt.Errorf("%w: %s body needs %d bytes, got %d", ErrSize, r.Type, size, len(r.Body))
	}
	return nil
}

// Message decodes the body into a new message of the record's type.
func (r Record) Message() (Message, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	m := NewMessage(r.Type)
	if err := m.UnmarshalBinary(r.Body); err != nil {
		return nil, err
	}
	return m, nil
}

// Parse checks the header of a plaintext datagram and returns it with a [Reader] over the
// records. A plaintext longer than [MTU] is rejected with [ErrTooLong].
func Parse(plain []byte) (Header, Reader, error) {
	var h Header
	if err := h.UnmarshalBinary(plain); err != nil {
		return Header{}, Reader{}, err
	}
	if len(plain) > MTU {
		return Header{}, Reader{}, fmt.Errorf("%w: %d bytes", ErrTooLong, len(plain))
	}
	return h, NewReader(plain), nil
}

// Reader walks the records of a plaintext datagram without allocating.
//
//	h, r, err := worldinfo.Parse(plain)
//	for rec, ok := r.Next(); ok; rec, ok = r.Next() { ... }
//	if err := r.Err(); err != nil { /* rest of the datagram ignored */ }
type Reader struct {
	b   []byte
	off int
	err error
}

// NewReader returns a Reader over the records that follow the header of plain. It does
// not check the header; see [Parse].
func NewReader(plain []byte) Reader {
	return Reader{b: plain, off: min(HeaderSize, len(plain))}
}

// Next returns the next record, or false at the end of the datagram or at a truncated
// record (then [Reader.Err] says which). Records of unknown type or wrong size are
// returned too; [Record.Check] tells them apart.
func (r *Reader) Next() (Record, bool) {
	rest := len(r.b) - r.off
	if rest == 0 || r.err != nil {
		return Record{}, false
	}
	if rest < RecordHeaderSize {
		r.err = fmt.Errorf("%w: record header at offset %d needs %d bytes, %d left",
			ErrTruncated, r.off, RecordHeaderSize, rest)
		return Record{}, false
	}
	t := RecordType(binary.BigEndian.Uint16(r.b[r.off:]))
	size := int(binary.BigEndian.Uint16(r.b[r.off+2:]))
	if body := rest - RecordHeaderSize; body < size {
		r.err = fmt.Errorf("%w: %s record at offset %d declares %d bytes, %d left",
			ErrTruncated, t, r.off, size, body)
		return Record{}, false
	}
	start := r.off + RecordHeaderSize
	rec := Record{Type: t, Offset: r.off, Body: r.b[start : start+size : start+size]}
	r.off = start + size
	return rec, true
}

// Err returns the [ErrTruncated] error that ended the walk, or nil.
func (r *Reader) Err() error { return r.err }

// Offset returns the position of the next record; after a truncation error it is where the
// ignored rest of the datagram begins.
func (r *Reader) Offset() int { return r.off }

// Type10RelBall finds the relative ball that a Fawkes sender labelled type 10. Fawkes
// appends the relative ball as type 10 immediately before the global ball, also type 10,
// so a datagram with exactly two type-10 records of the ball size, adjacent, carries the
// relative ball first. Type10RelBall returns the offset of that first record. A single
// type-10 record is ambiguous and is not reported.
func Type10RelBall(plain []byte) (offset int, ok bool) {
	r := NewReader(plain)
	n, prevWas10 := 0, false
	for rec, more := r.Next(); more; rec, more = r.Next() {
		is10 := rec.Type == TypeGlobalBall && len(rec.Body) == BallSize
		if is10 {
			n++
			if n == 1 {
				offset = rec.Offset
			} else if !prevWas10 {
				return 0, false
			}
		}
		prevWas10 = is10
	}
	return offset, n == 2
}

// Builder assembles a plaintext datagram of at most [MTU] bytes. The zero Builder is ready
// to use with a zero header; its buffer is reused after [Builder.Reset].
type Builder struct {
	buf     []byte
	records int
}

// Reset starts a new datagram with header h, keeping the buffer.
func (b *Builder) Reset(h Header) {
	if cap(b.buf) < MTU {
		b.buf = make([]byte, 0, MTU)
	}
	b.buf, _ = h.AppendBinary(b.buf[:0])
	b.records = 0
}

// SetSeq overwrites the sequence number in the header.
func (b *Builder) SetSeq(seq uint32) {
	if len(b.buf) < HeaderSize {
		b.Reset(Header{})
	}
	binary.BigEndian.PutUint32(b.buf[offSeq:], seq)
}

// Add appends m as a record of its own type.
func (b *Builder) Add(m Message) error { return b.AddAs(m.RecordType(), m) }

// AddAs appends m as a record of type t, which must have the same body size as m's own
// type. It exists for the Fawkes relative ball sent as type 10 ([TypeGlobalBall]).
func (b *Builder) AddAs(t RecordType, m Message) error {
	size, ok := BodySize(t)
	if own := bodySizes[m.RecordType()]; !ok || size != own {
		return fmt.Errorf("%w: cannot send a %d-byte %s body as %s", ErrSize, own, m.RecordType(), t)
	}
	if err := b.grow(t, size); err != nil {
		return err
	}
	start := len(b.buf)
	b.buf = binary.BigEndian.AppendUint16(b.buf, uint16(t))
	b.buf = binary.BigEndian.AppendUint16(b.buf, uint16(size))
	var err error
	if b.buf, err = m.AppendBinary(b.buf); err != nil {
		b.buf = b.buf[:start]
		return fmt.Errorf("%s record: %w", t, err)
	}
	b.records++
	return nil
}

// AddRaw appends a record with any type and body, unchecked except for the size limit.
func (b *Builder) AddRaw(t RecordType, body []byte) error {
	if len(body) > 0xffff {
		return fmt.Errorf("%w: %d-byte body", ErrTooLong, len(body))
	}
	if err := b.grow(t, len(body)); err != nil {
		return err
	}
	b.buf = binary.BigEndian.AppendUint16(b.buf, uint16(t))
	b.buf = binary.BigEndian.AppendUint16(b.buf, uint16(len(body)))
	b.buf = append(b.buf, body...)
	b.records++
	return nil
}

func (b *Builder) grow(t RecordType, size int) error {
	if len(b.buf) < HeaderSize {
		b.Reset(Header{})
	}
	if n := len(b.buf) + RecordHeaderSize + size; n > MTU {
		return fmt.Errorf("%w: %s record (%d bytes) would make the datagram %d bytes",
			ErrTooLong, t, RecordHeaderSize+size, n)
	}
	return nil
}

// Bytes returns the plaintext datagram; it aliases the builder's buffer.
func (b *Builder) Bytes() []byte {
	if len(b.buf) < HeaderSize {
		b.Reset(Header{})
	}
	return b.buf
}

// Len returns the datagram length in bytes.
func (b *Builder) Len() int { return max(len(b.buf), HeaderSize) }

// Records returns the number of records added since the last Reset.
func (b *Builder) Records() int { return b.records }

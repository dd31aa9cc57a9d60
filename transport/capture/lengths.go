package capture

import (
	"encoding/binary"
	"fmt"
)

// pcapng block types whose packet length pcapgo allocates before reading.
const (
	ngSectionHeader  = 0x0a0d0d0a
	ngPacket         = 2 // obsolete Packet Block
	ngSimplePacket   = 3
	ngEnhancedPacket = 6
	ngByteOrderMagic = 0x1a2b3c4d
	pcapHeaderLen    = 24
	pcapRecordLen    = 16
)

// validPrefix walks the block (pcapng) or record (pcap) lengths of a whole file and
// returns how many leading bytes are well formed, with the error found after them (nil
// if the whole file is). pcapgo allocates a packet's length as the file states it
// before reading it, so the Reader gives pcapgo only the valid prefix: no file makes it
// allocate more than the file's own size.
func validPrefix(b []byte) (int, error) {
	if len(b) >= 4 && binary.LittleEndian.Uint32(b) == ngSectionHeader {
		return validPcapng(b)
	}
	return validPcap(b)
}

func validPcapng(b []byte) (int, error) {
	var order binary.ByteOrder = binary.LittleEndian
	off := 0
	for off < len(b) {
		if len(b)-off < 12 {
			return off, fmt.Errorf("capture: block at byte %d cut short", off)
		}
		if binary.LittleEndian.Uint32(b[off:]) == ngSectionHeader {
			switch {
			case binary.LittleEndian.Uint32(b[off+8:]) == ngByteOrderMagic:
				order = binary.LittleEndian
			case binary.BigEndian.Uint32(b[off+8:]) == ngByteOrderMagic:
				order = binary.BigEndian
			default:
				return off, fmt.Errorf("capture: section header at byte %d has no byte-order magic", off)
			}
		}
		typ, n := order.Uint32(b[off:]), int64(order.Uint32(b[off+4:]))
		if n < 12 || n%4 != 0 || n > int64(len(b)-off) {
			return off, fmt.Errorf("capture: block at byte %d has length %d (%d bytes left)", off, n, len(b)-off)
		}
		var pkt, room int64
		switch typ {
		case ngPacket, ngEnhancedPacket:
			if n < 32 {
				return off, fmt.Errorf("capture: packet block at byte %d has length %d", off, n)
			}
			pkt, room = int64(order.Uint32(b[off+20:])), n-32
		case ngSimplePacket:
			if n < 16 {
				return off, fmt.Errorf("capture: packet block at byte %d has length %d", off, n)
			}
			pkt, room = int64(order.Uint32(b[off+8:])), n-16
		}
		if pkt > room {
			return off, fmt.Errorf("capture: packet at byte %d claims %d bytes in a %d-byte block", off, pkt, n)
		}
		off += int(n)
	}
	return off, nil
}

func validPcap(b []byte) (int, error) {
	if len(b) < pcapHeaderLen {
		return 0, fmt.Errorf("capture: pcap header cut short")
	}
	var order binary.ByteOrder = binary.LittleEndian
	if m := binary.BigEndian.Uint32(b); m == magicPcapMicro || m == magicPcapNano {
		order = binary.BigEndian
	}
	off := pcapHeaderLen
	for off < len(b) {
		if len(b)-off < pcapRecordLen {
			return off, fmt.Errorf("capture: record at byte %d cut short", off)
		}
		if n := int64(order.Uint32(b[off+8:])); n > int64(len(b)-off-pcapRecordLen) {
			return off, fmt.Errorf("capture: record at byte %d claims %d bytes, %d left", off, n, len(b)-off-pcapRecordLen)
		}
		off += pcapRecordLen + int(order.Uint32(b[off+8:]))
	}
	return off, nil
}

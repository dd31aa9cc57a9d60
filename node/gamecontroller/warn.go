package gamecontroller

// kind is a cause of drops and warnings; warnings are rate-limited per kind.
type kind uint8

const (
	// Drop causes, one per field of Counters.
	causeFiltered kind = iota
	causeHeader
	causeLength
	causeVersion
	causeRange
	causeMonitor
	causeNotOurTeam
	causePlayer
	causeOtherGC
	causeUnconfirmed
	// Warnings only.
	warnReturn
	warnPublish
	warnRequest
)

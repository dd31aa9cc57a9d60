//go:build !dnetwork_directcall || !amd64 || go1.27

package directcall

import "unsafe"

// Available: this build makes no direct calls; callers make ordinary cgo calls.
const Available = false

// Call is never called where Available is false.
func Call(fn, arg unsafe.Pointer) int32 { panic("directcall: not available in this build") }

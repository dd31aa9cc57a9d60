//go:build dnetwork_directcall && amd64 && !go1.27

package directcall

import "unsafe"

// Available: direct calls are made in this build.
const Available = true

// Call calls the C function fn with arg on the calling thread's system stack
// (runtime.asmcgocall) and returns its int result; fn has the C type int (*)(void *).
//
//go:noescape
func Call(fn, arg unsafe.Pointer) int32

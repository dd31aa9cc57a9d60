//go:build dnetwork_directcall && amd64 && !go1.27

#include "textflag.h"

// func Call(fn, arg unsafe.Pointer) int32
TEXT ·Call(SB),NOSPLIT,$0-20
	JMP	runtime·asmcgocall(SB)

// Package gcapi loads the GameController's own game logic, built as the C library
// game_controller_api (libgame_controller_api.so: gc_params_new, gc_new, gc_apply,
// gc_seek, gc_read), at run time, so that tests can hold dnetwork's simulator against
// the real rules and packet writer.
//
// Invariants: the library is never linked or built by this repository; it is opened with
// dlopen from a path the caller finds with Locate (the DNETWORK_GCAPI_LIB environment
// variable, or ../shared/gc20-hsl/api/libgame_controller_api.so beside the repository)
// and callers skip when it is absent. Without cgo Open fails with ErrNoCgo. A Game is not
// safe for concurrent use.
package gcapi

//go:build cgo

package gcapi

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

// The C view of GameController.h: its enums are C ints, TeamParams and TestParams as
// declared there.
typedef struct { uint8_t number; int fieldPlayerColor; int goalkeeperColor; } gcapi_team;
typedef struct { bool noDelay; bool penaltyShootout; } gcapi_test;

typedef struct {
	void *h;
	void *(*params_new)(const uint8_t *, uintptr_t, const gcapi_team *, int, int, gcapi_test);
	void (*params_destroy)(void *);
	void *(*gc_new)(const void *);
	void (*gc_seek)(void *, uint64_t);
	bool (*gc_apply)(void *, void *, int);
	void (*gc_destroy)(void *);
	void (*gc_read)(void *, uint8_t, bool, uint8_t *);
	void *(*start_set_play)(const int *, int);
	void *(*goal)(int);
	void *(*team_message)(int, bool);
	void *(*start_penalty_shootout)(int);
	void *(*penalize)(int, uint8_t, int);
	void *(*stop_play)(bool);
} gcapi_lib;

static void *sym(void *h, const char *name, const char **missing) {
	void *p = dlsym(h, name);
	if (p == NULL && *missing == NULL) *missing = name;
	return p;
}

// gcapi_open fills l; it returns NULL or what went wrong (a symbol name or dlerror).
static const char *gcapi_open(const char *path, gcapi_lib *l) {
	l->h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (l->h == NULL) return dlerror();
	const char *m = NULL;
	l->params_new = sym(l->h, "gc_params_new", &m);
	l->params_destroy = sym(l->h, "gc_params_destroy", &m);
	l->gc_new = sym(l->h, "gc_new", &m);
	l->gc_seek = sym(l->h, "gc_seek", &m);
	l->gc_apply = sym(l->h, "gc_apply", &m);
	l->gc_destroy = sym(l->h, "gc_destroy", &m);
	l->gc_read = sym(l->h, "gc_read", &m);
	l->start_set_play = sym(l->h, "gc_action_start_set_play", &m);
	l->goal = sym(l->h, "gc_action_goal", &m);
	l->team_message = sym(l->h, "gc_action_team_message", &m);
	l->start_penalty_shootout = sym(l->h, "gc_action_start_penalty_shootout", &m);
	l->penalize = sym(l->h, "gc_action_penalize", &m);
	l->stop_play = sym(l->h, "gc_action_stop_play", &m);
	return m;
}

static void *gcapi_nullary(gcapi_lib *l, const char *name) {
	void *(*f)(void) = dlsym(l->h, name);
	return f == NULL ? NULL : f();
}

static void *gcapi_params_new(gcapi_lib *l, const uint8_t *y, uintptr_t n, const gcapi_team *t, int kick, int sides, bool noDelay) {
	gcapi_test tp = {noDelay, false};
	return l->params_new(y, n, t, kick, sides, tp);
}
static void gcapi_params_destroy(gcapi_lib *l, void *p) { l->params_destroy(p); }
static void *gcapi_new(gcapi_lib *l, void *p) { return l->gc_new(p); }
static void gcapi_seek(gcapi_lib *l, void *g, uint64_t ms) { l->gc_seek(g, ms); }
static bool gcapi_apply(gcapi_lib *l, void *g, void *a, int src) { return l->gc_apply(g, a, src); }
static void gcapi_destroy(gcapi_lib *l, void *g) { l->gc_destroy(g); }
static void gcapi_read(gcapi_lib *l, void *g, uint8_t n, bool trueData, uint8_t *out) { l->gc_read(g, n, trueData, out); }
static void *gcapi_start_set_play(gcapi_lib *l, int hasSide, int side, int sp) {
	return l->start_set_play(hasSide ? &side : NULL, sp);
}
static void *gcapi_goal(gcapi_lib *l, int side) { return l->goal(side); }
static void *gcapi_team_message(gcapi_lib *l, int side, bool illegal) { return l->team_message(side, illegal); }
static void *gcapi_start_penalty_shootout(gcapi_lib *l, int sides) { return l->start_penalty_shootout(sides); }
static void *gcapi_penalize(gcapi_lib *l, int side, uint8_t player, int call) { return l->penalize(side, player, call); }
static void *gcapi_stop_play(gcapi_lib *l, bool resume) { return l->stop_play(resume); }
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"
)

// Lib is an opened game_controller_api library. It stays loaded for the life of the
// process.
type Lib struct{ l *C.gcapi_lib }

// Open loads the library at path and looks up the functions this package calls.
func Open(path string) (*Lib, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	l := (*C.gcapi_lib)(C.calloc(1, C.sizeof_gcapi_lib))
	if msg := C.gcapi_open(cpath, l); msg != nil {
		err := fmt.Errorf("%w: %s: %s", ErrLoad, path, C.GoString(msg))
		C.free(unsafe.Pointer(l))
		return nil, err
	}
	return &Lib{l: l}, nil
}

// Game is one game of the GameController's logic.
type Game struct {
	lib    *Lib
	params unsafe.Pointer
	gc     unsafe.Pointer
}

// NewGame starts a game with a competition's params.yaml, the two teams (home, away),
// the side that kicks off and the sides' mapping; noDelay turns off the delayed PLAYING
// (TestParams.noDelay).
func (l *Lib) NewGame(paramsYAML []byte, teams [2]Team, kickOff Side, sides SideMapping, noDelay bool) (*Game, error) {
	if len(paramsYAML) == 0 {
		return nil, fmt.Errorf("%w: empty params", ErrLoad)
	}
	y := C.CBytes(paramsYAML)
	defer C.free(y)
	t := (*[2]C.gcapi_team)(C.calloc(2, C.sizeof_gcapi_team))
	defer C.free(unsafe.Pointer(t))
	for i, tm := range teams {
		t[i] = C.gcapi_team{number: C.uint8_t(tm.Number), fieldPlayerColor: C.int(tm.FieldPlayerColor), goalkeeperColor: C.int(tm.GoalkeeperColor)}
	}
	p := C.gcapi_params_new(l.l, (*C.uint8_t)(y), C.uintptr_t(len(paramsYAML)), &t[0], C.int(kickOff), C.int(sides), C.bool(noDelay))
	return &Game{lib: l, params: p, gc: C.gcapi_new(l.l, p)}, nil
}

// Close frees the game.
func (g *Game) Close() {
	C.gcapi_destroy(g.lib.l, g.gc)
	C.gcapi_params_destroy(g.lib.l, g.params)
}

// Seek lets d of game time pass (whole milliseconds), firing the timers that expire.
func (g *Game) Seek(d time.Duration) { C.gcapi_seek(g.lib.l, g.gc, C.uint64_t(d.Milliseconds())) }

// Apply applies the action a as the referee (ActionSource user) and reports whether it
// was legal (an illegal action changes nothing).
func (g *Game) Apply(a Action) bool {
	l := g.lib.l
	var act unsafe.Pointer
	switch a.kind {
	case kindNullary:
		name := C.CString(a.name)
		act = C.gcapi_nullary(l, name)
		C.free(unsafe.Pointer(name))
		if act == nil {
			panic("gcapi: the library has no " + a.name)
		}
	case kindStartSetPlay:
		has := C.int(0)
		if a.hasSide {
			has = 1
		}
		act = C.gcapi_start_set_play(l, has, C.int(a.side), C.int(a.arg))
	case kindGoal:
		act = C.gcapi_goal(l, C.int(a.side))
	case kindTeamMessage:
		act = C.gcapi_team_message(l, C.int(a.side), C.bool(a.flag))
	case kindShootout:
		act = C.gcapi_start_penalty_shootout(l, C.int(a.arg))
	case kindPenalize:
		act = C.gcapi_penalize(l, C.int(a.side), C.uint8_t(a.player), C.int(a.arg))
	case kindStopPlay:
		act = C.gcapi_stop_play(l, C.bool(a.flag))
	}
	return bool(C.gcapi_apply(l, g.gc, act, sourceUser))
}

// Read returns the control packet the GameController would send now, with packet number
// n; trueData asks for the monitor's version (RGTD).
func (g *Game) Read(n uint8, trueData bool) []byte {
	buf := (*[PacketSize]byte)(C.calloc(1, PacketSize))
	defer C.free(unsafe.Pointer(buf))
	C.gcapi_read(g.lib.l, g.gc, C.uint8_t(n), C.bool(trueData), (*C.uint8_t)(unsafe.Pointer(buf)))
	out := make([]byte, PacketSize)
	copy(out, buf[:])
	return out
}

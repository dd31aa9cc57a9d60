package gcapi

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Environment variables naming the library and a competition's params.yaml.
const (
	EnvLib    = "DNETWORK_GCAPI_LIB"
	EnvParams = "DNETWORK_GCAPI_PARAMS"
)

// Paths beside the repository (../shared) tried when the environment names none.
const (
	sharedLib    = "shared/gc20-hsl/api/libgame_controller_api.so"
	sharedParams = "shared/gc20-hsl/config/small_advanced/params.yaml"
)

// Where says where the library comes from, for skip messages.
const Where = "build game_controller_api from the GameController sources as " +
	"../shared/gc20-hsl/README.md (\"api/\") says and set " + EnvLib + "=/path/libgame_controller_api.so"

var (
	// ErrNotFound reports that no library (or params file) was found.
	ErrNotFound = errors.New("gcapi: not found")
	// ErrNoCgo reports a build without cgo, which cannot load the library.
	ErrNoCgo = errors.New("gcapi: needs cgo")
	// ErrLoad reports a library that could not be opened or lacks a symbol.
	ErrLoad = errors.New("gcapi: cannot load")
)

// Locate returns the library's path and the params.yaml to start games with, from the
// environment or beside the repository that holds dir (a directory inside it).
func Locate(dir string) (lib, params string, err error) {
	lib, err = find(EnvLib, sharedLib, dir)
	if err != nil {
		return "", "", err
	}
	params, err = find(EnvParams, sharedParams, dir)
	return lib, params, err
}

func find(env, rel, dir string) (string, error) {
	if p := os.Getenv(env); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%w: %s=%s: %w", ErrNotFound, env, p, err)
		}
		return p, nil
	}
	root, err := moduleRoot(dir)
	if err != nil {
		return "", err
	}
	p := filepath.Join(filepath.Dir(root), rel)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%w: %s unset and no %s", ErrNotFound, env, p)
	}
	return p, nil
}

// moduleRoot returns the nearest directory at or above dir that holds go.mod.
func moduleRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("%w: no go.mod above %s", ErrNotFound, dir)
		}
		d = up
	}
}

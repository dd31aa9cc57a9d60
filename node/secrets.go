package node

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

// Keys (team.auth_key, worldinfo.key) are secrets: anyone on the ROS domain can call a
// node's parameter services, so the store never holds a key. A key is given inline in
// the parameter file, where ros2 param get, describe and dump show it as
// params.Hidden, or in a file named by the <name>_file parameter, which only the robot's
// users can read and which keeps the key out of the parameter files as well.

// maxKeyFile is the largest key file read: a key file holds one key.
const maxKeyFile = 4096

// secret declares the key parameter name (default def) and its companion name_file, and
// gives set the key: the file's when name_file is set, else the inline value.
func (b *binder) secret(name, def, desc string, set func(string) error) {
	fileParam := name + "_file"
	inline, ok := b.declareAs(b.s.DeclareSecret, name, params.String(def), params.TypeString,
		desc+fmt.Sprintf(" Over ROS a key that is set reads as %q; %s keeps it out of the parameter file too.", params.Hidden, fileParam), "")
	file, fileOK := b.declare(fileParam, params.String(""), params.TypeString,
		fmt.Sprintf("File holding %s on one line, readable by its owner (and group) only; replaces %s. Empty: %s is used.", name, name, name),
		"absolute path")
	if b.collect || !ok || !fileOK {
		return
	}
	key := inline.StringValue
	switch {
	case file.StringValue != "":
		if key != def && key != params.Hidden {
			b.fail(name, fmt.Errorf("give the key in %s or in %s, not in both", name, fileParam))
			return
		}
		var err error
		if key, err = readKeyFile(file.StringValue); err != nil {
			b.fail(fileParam, err)
			return
		}
	case key == params.Hidden:
		b.fail(name, fmt.Errorf("%q stands for a key that ros2 param get and dump do not show (this looks like a dump); "+
			"give the key itself, or the file that holds it in %s", params.Hidden, fileParam))
		return
	}
	if err := set(key); err != nil {
		b.fail(name, err)
	}
}

// readKeyFile reads a key from a file that other users cannot read or change: the whole
// file without its final line break.
func readKeyFile(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%q is not an absolute path", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("cannot read the key: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("cannot read the key: %w", err)
	}
	switch perm := st.Mode().Perm(); {
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file", path)
	case perm&0o007 != 0 || perm&0o020 != 0:
		return "", fmt.Errorf("%s can be read or changed by other users (mode %04o); chmod 600 %s", path, perm, path)
	case st.Size() > maxKeyFile:
		return "", fmt.Errorf("%s holds %d bytes; a key file holds one key of at most %d bytes", path, st.Size(), maxKeyFile)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return "", fmt.Errorf("cannot read the key: %w", err)
	}
	key := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	switch {
	case key == "":
		return "", fmt.Errorf("%s is empty", path)
	case strings.ContainsAny(key, "\r\n"):
		return "", errors.New(path + " holds more than one line; write the key on one line")
	}
	return key, nil
}

// KeysRead says which keys were read from their files, one line each naming the file
// and the key's length, never the key: --check prints them, so an operator sees that
// the file was found and read.
func (st *Startup) KeysRead() []string {
	var out []string
	for _, k := range []struct{ name, key string }{
		{"team.auth_key", string(st.Config.Team.AuthKey)},
		{"worldinfo.key", st.Config.WorldInfo.Key},
	} {
		file, err := st.Store.GetString(k.name + "_file")
		if err != nil || file == "" {
			continue
		}
		out = append(out, fmt.Sprintf("%s: read a key of %d bytes from %s", k.name, len(k.key), file))
	}
	return out
}

package main

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Package is a ROS interface package: a directory with msg/*.msg and srv/*.srv files.
type Package struct {
	Name     string
	Dir      string
	Doc      string     // <description> of package.xml, if any
	Messages []*Message // sorted by name
	Services []*Service // sorted by name
	msgs     map[string]*Message
}

// Loader finds packages on an include path and resolves message types across them.
type Loader struct {
	dirs map[string]string // package name -> directory
	pkgs map[string]*Package
}

// packageName returns the ROS package name of dir: the <name> of its package.xml, or
// the directory's base name when there is no package.xml.
func packageName(dir string) (string, error) {
	name, _, err := readPackageXML(dir)
	return name, err
}

// readPackageXML returns the name and description of the package in dir.
func readPackageXML(dir string) (name, description string, err error) {
	b, err := os.ReadFile(filepath.Join(dir, "package.xml"))
	if errors.Is(err, fs.ErrNotExist) {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", "", err
		}
		return filepath.Base(abs), "", nil
	}
	if err != nil {
		return "", "", err
	}
	var px struct {
		Name        string `xml:"name"`
		Description string `xml:"description"`
	}
	if err := xml.Unmarshal(b, &px); err != nil {
		return "", "", fmt.Errorf("%s: %w", filepath.Join(dir, "package.xml"), err)
	}
	if px.Name == "" {
		return "", "", fmt.Errorf("%s: no <name>", filepath.Join(dir, "package.xml"))
	}
	return strings.TrimSpace(px.Name), strings.Join(strings.Fields(px.Description), " "), nil
}

// NewLoader returns a Loader that knows the ROS interface packages in dirs (each a
// package directory holding msg/ and/or srv/). Two directories with the same package
// name are an error.
func NewLoader(dirs []string) (*Loader, error) {
	l := &Loader{dirs: map[string]string{}, pkgs: map[string]*Package{}}
	for _, dir := range dirs {
		name, err := packageName(dir)
		if err != nil {
			return nil, err
		}
		if !validPackageName.MatchString(name) {
			return nil, fmt.Errorf("%s: invalid package name %q", dir, name)
		}
		if old, ok := l.dirs[name]; ok && filepath.Clean(old) != filepath.Clean(dir) {
			return nil, fmt.Errorf("package %s found twice: %s and %s", name, old, dir)
		}
		l.dirs[name] = dir
	}
	return l, nil
}

// Package loads (once) and returns the named package.
func (l *Loader) Package(name string) (*Package, error) {
	if p, ok := l.pkgs[name]; ok {
		return p, nil
	}
	dir, ok := l.dirs[name]
	if !ok {
		if name == "service_msgs" {
			return nil, errors.New("package service_msgs not found on the include path (every service's _Event message uses service_msgs/ServiceEventInfo; add -I for it and builtin_interfaces)")
		}
		return nil, fmt.Errorf("package %s not found on the include path", name)
	}
	_, doc, err := readPackageXML(dir)
	if err != nil {
		return nil, err
	}
	p := &Package{Name: name, Dir: dir, Doc: doc, msgs: map[string]*Message{}}
	msgFiles, _ := filepath.Glob(filepath.Join(dir, "msg", "*.msg"))
	srvFiles, _ := filepath.Glob(filepath.Join(dir, "srv", "*.srv"))
	sort.Strings(msgFiles)
	sort.Strings(srvFiles)
	for _, f := range msgFiles {
		text, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(f), ".msg")
		if !validMessageName.MatchString(name) {
			return nil, fmt.Errorf("%s: invalid message name %q", f, name)
		}
		m, err := parseMessage(p.Name, "msg", name, f, string(text))
		if err != nil {
			return nil, err
		}
		p.Messages = append(p.Messages, m)
		p.msgs[name] = m
	}
	for _, f := range srvFiles {
		text, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(f), ".srv")
		if !validMessageName.MatchString(name) {
			return nil, fmt.Errorf("%s: invalid service name %q", f, name)
		}
		s, err := parseService(p.Name, name, f, string(text))
		if err != nil {
			return nil, err
		}
		p.Services = append(p.Services, s)
		for _, m := range []*Message{s.Request, s.Response, s.Event} {
			p.msgs[m.Name] = m
		}
	}
	l.pkgs[name] = p
	return p, nil
}

// Lookup returns the message named by a nested field type.
func (l *Loader) Lookup(t Type) (*Message, error) {
	p, err := l.Package(t.Pkg)
	if err != nil {
		return nil, err
	}
	m, ok := p.msgs[t.Msg]
	if !ok {
		return nil, fmt.Errorf("message %s/%s not found in %s", t.Pkg, t.Msg, p.Dir)
	}
	return m, nil
}

// Check resolves every nested type of m and rejects recursive definitions.
func (l *Loader) Check(m *Message) error {
	return l.check(m, map[string]bool{})
}

func (l *Loader) check(m *Message, path map[string]bool) error {
	if path[m.FullName()] {
		return fmt.Errorf("%s contains itself", m.FullName())
	}
	path[m.FullName()] = true
	defer delete(path, m.FullName())
	for _, f := range m.Fields {
		if !f.Type.IsNested() {
			continue
		}
		n, err := l.Lookup(f.Type)
		if err != nil {
			return fmt.Errorf("%s: field %s: %w", m.Source, f.Name, err)
		}
		if err := l.check(n, path); err != nil {
			return err
		}
	}
	return nil
}

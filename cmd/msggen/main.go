package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "msggen:", err)
		os.Exit(1)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("msggen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var includes multiFlag
	fs.Var(&includes, "I", "ROS package `dir[=godir]` to resolve types from (repeatable)")
	out := fs.String("out", "", "Go output `dir` (only with a single package; default: the package directory)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	pkgDirs := fs.Args()
	if len(pkgDirs) == 0 {
		//lint:ignore ST1005 the message ends with the usage line, whose "..." marks a repeatable argument
		return errors.New("no package directory given; usage: msggen [-I dir[=godir]]... [-out godir] pkgdir[=godir]...")
	}
	if *out != "" && len(pkgDirs) != 1 {
		return errors.New("-out needs exactly one package directory")
	}
	// Each argument is dir or dir=godir; godir holds the package's Go code.
	goDirs := map[string]string{} // package directory -> Go directory
	split := func(args []string) []string {
		var dirs []string
		for _, a := range args {
			dir, goDir, ok := strings.Cut(a, "=")
			if !ok {
				goDir = dir
			}
			dirs = append(dirs, dir)
			goDirs[dir] = goDir
		}
		return dirs
	}
	pkgDirs = split(pkgDirs)
	if *out != "" {
		goDirs[pkgDirs[0]] = *out
	}
	l, err := NewLoader(append(append([]string{}, pkgDirs...), split(includes)...))
	if err != nil {
		return err
	}
	imports := map[string]string{}
	for name, dir := range l.dirs {
		ip, err := goImportPath(goDirs[dir])
		if err != nil {
			return fmt.Errorf("package %s: %w", name, err)
		}
		imports[name] = ip
	}
	for _, dir := range pkgDirs {
		name, err := packageName(dir)
		if err != nil {
			return err
		}
		pkg, err := l.Package(name)
		if err != nil {
			return err
		}
		outDir := goDirs[dir]
		files, err := Generate(l, pkg, imports)
		if err != nil {
			return err
		}
		if err := writeFiles(outDir, files); err != nil {
			return err
		}
	}
	return nil
}

// writeFiles writes files into dir, rewriting only changed ones, and removes
// generated files (by Header) that are no longer produced.
func writeFiles(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if _, ok := files[filepath.Base(f)]; ok || !isGenerated(f) {
			continue
		}
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(dir, n)
		if cur, err := os.ReadFile(p); err == nil && bytes.Equal(cur, files[n]) {
			continue
		}
		if err := os.WriteFile(p, files[n], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func isGenerated(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	return s.Scan() && s.Text() == Header
}

// goImportPath returns the Go import path of dir from the enclosing go.mod.
func goImportPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for root := abs; ; {
		b, err := os.ReadFile(filepath.Join(root, "go.mod"))
		if err == nil {
			mod := modulePath(b)
			if mod == "" {
				return "", fmt.Errorf("%s: no module line", filepath.Join(root, "go.mod"))
			}
			rel, err := filepath.Rel(root, abs)
			if err != nil {
				return "", err
			}
			if rel == "." {
				return mod, nil
			}
			return mod + "/" + filepath.ToSlash(rel), nil
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "", fmt.Errorf("%s is not inside a Go module", dir)
		}
		root = parent
	}
}

func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

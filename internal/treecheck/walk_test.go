package treecheck

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// root is the module's root directory, seen from this package's directory.
const root = "../.."

// goFiles returns the paths of the module's .go files, test files included, leaving out
// directories that hold no package of the module: testdata, build output and those
// whose name starts with a dot.
func goFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "build") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// relDir returns the directory of file p relative to the module's root, with slashes.
func relDir(p string) string {
	rel, _ := filepath.Rel(root, filepath.Dir(p))
	return filepath.ToSlash(rel)
}

package treecheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// packageDocs parses the package clause and its comment of every non-test .go file of
// the module, by package directory (relative to the root, with slashes) and file name.
// A directory that holds only test files has an empty map.
func packageDocs(t *testing.T) map[string]map[string]*ast.File {
	t.Helper()
	pkgs := map[string]map[string]*ast.File{}
	fset := token.NewFileSet()
	for _, f := range goFiles(t) {
		dir := relDir(f)
		if pkgs[dir] == nil {
			pkgs[dir] = map[string]*ast.File{}
		}
		name := filepath.Base(f)
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		pkgs[dir][name] = af
	}
	return pkgs
}

// TestDocGo: every package of the module has a doc.go, which carries the package
// comment, and no other non-test file of the package carries one, so the comment that
// states what the package is and the invariants it keeps is found in one place.
func TestDocGo(t *testing.T) {
	pkgs := packageDocs(t)
	for _, dir := range slices.Sorted(maps.Keys(pkgs)) {
		files := pkgs[dir]
		doc, ok := files["doc.go"]
		switch {
		case !ok:
			t.Errorf("%s: no doc.go: each package's comment (what it is, its invariants) is in its doc.go", dir)
		case doc.Doc == nil:
			t.Errorf("%s/doc.go: no package comment above the package clause", dir)
		}
		for _, name := range slices.Sorted(maps.Keys(files)) {
			if name != "doc.go" && files[name].Doc != nil {
				t.Errorf("%s/%s: a package comment outside doc.go: move it there (or leave a blank line below it)", dir, name)
			}
		}
	}
}

// TestPackageCommentOpening: every doc.go's comment opens with "Package <name> ", or
// "Command <binary> " for a main package (the binary is named after its directory), so
// that its first sentence says what the package is, as go doc shows it.
func TestPackageCommentOpening(t *testing.T) {
	for dir, files := range packageDocs(t) {
		doc, ok := files["doc.go"]
		if !ok || doc.Doc == nil {
			continue // TestDocGo reports it
		}
		want := "Package " + doc.Name.Name + " "
		if doc.Name.Name == "main" {
			want = "Command " + path.Base(dir) + " "
		}
		if text := doc.Doc.Text(); !strings.HasPrefix(text, want) {
			first, _, _ := strings.Cut(text, "\n")
			t.Errorf("%s/doc.go: package comment opens %q, want %q", dir, first, want+"...")
		}
	}
}

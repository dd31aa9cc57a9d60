package treecheck

import (
	"go/parser"
	"go/token"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/robocup-dnetwork/dnetwork/"

// importNames are the names the packages whose last element another package of the
// module shares are imported under, everywhere in the tree.
var importNames = map[string]string{
	"proto/gamecontroller": "gcproto",
	"node/gamecontroller":  "gamecontroller",
	"proto/worldinfo":      "wi",
	"transport/worldinfo":  "wit",
	"node/worldinfo":       "worldinfo",
	"transport/swarm":      "tswarm",
	"node/swarm":           "swarm",
	"proto/sim3d":          "sim3dproto",
	"node/sim3d":           "sim3d",
}

// TestOneNamePerPackage: every import of a package of importNames uses its name, and
// every package whose last element another one shares is in importNames.
func TestOneNamePerPackage(t *testing.T) {
	pkgs := map[string][]string{} // last element -> package directories
	files := goFiles(t)
	for _, f := range files {
		dir := relDir(f)
		if base := path.Base(dir); !slices.Contains(pkgs[base], dir) {
			pkgs[base] = append(pkgs[base], dir)
		}
	}
	for base, dirs := range pkgs {
		if len(dirs) < 2 || base == "internal" {
			continue
		}
		for _, d := range dirs {
			if _, ok := importNames[d]; !ok {
				t.Errorf("%s shares its name %q with %v: give it one import name in importNames", d, base, dirs)
			}
		}
	}
	fset := token.NewFileSet()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			want, ok := importNames[strings.TrimPrefix(p, module)]
			if !ok || !strings.HasPrefix(p, module) {
				continue
			}
			got := path.Base(p)
			if imp.Name != nil {
				got = imp.Name.Name
			}
			if got != want {
				t.Errorf("%s imports %s as %s, want %s", f, p, got, want)
			}
		}
	}
}

package node

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/robocup-dnetwork/dnetwork/ros/params"
	"github.com/robocup-dnetwork/dnetwork/ros/rosargs"
)

// ErrRobotID reports that the node's name cannot be chosen: robot_id is not given, or
// the parameter files give several robots and nothing says which one this is.
var ErrRobotID = errors.New("node: cannot tell which robot this is")

// Startup is everything the command line decides before the ROS node is created.
type Startup struct {
	// Name and Namespace of the ROS node: dnetwork_<robot_id> in the root namespace,
	// unless remapped with __node and __ns.
	Name, Namespace string
	// Store holds the declared parameters; the ROS node serves it.
	Store *params.Store
	// Config is what the parameters say.
	Config Config
	// Warnings are problems that do not stop the node (unknown parameters under a
	// wildcard key); log them once the node's logger is up.
	Warnings []string
}

// Load reads the parameter files and -p rules of the ROS arguments a, chooses the node's
// name, declares every parameter and checks the result. Every problem is reported at
// once, each naming the file and key (or -p rule) it came from.
func Load(a *rosargs.Args) (*Startup, error) {
	if a == nil {
		a = &rosargs.Args{}
	}
	ov, err := params.LoadArgs(a)
	if err != nil {
		return nil, err
	}
	name, ns, err := ResolveName(a, ov)
	if err != nil {
		return nil, err
	}
	fqn := rosargs.FullyQualifiedName(ns, name)
	stray, strayErr := unmatchedFiles(ov, fqn)
	mine := ov.ForNode(fqn)
	store, err := params.NewStore(mine)
	if err != nil {
		return nil, err
	}
	cfg, declErr := Declare(store, mine...)
	warnings, unknown := CheckOverrides(store)
	if strayErr != nil {
		// A required parameter that the file for the wrong section sets is missing
		// only because of that section: its message says it all.
		declErr = withoutRequiredFrom(declErr, ov, fqn)
	}
	if err := errors.Join(declErr, unknown); err != nil {
		// A parameter file that does not apply is the likely cause: say so first.
		return nil, errors.Join(append(stray, err)...)
	}
	if strayErr != nil {
		return nil, strayErr
	}
	for _, e := range stray {
		warnings = append(warnings, e.Error())
	}
	return &Startup{Name: name, Namespace: ns, Store: store, Config: cfg, Warnings: warnings}, nil
}

// ResolveName chooses the node's name and namespace as NewNode of package ros will see
// them. The default name is dnetwork_<robot_id>, but robot_id is itself a parameter
// whose value may depend on the node's name (a file with one section per robot), so
// the name is the fixed point: dnetwork_<k> for the one k in 1..20 whose parameters
// give robot_id k. A __node remap fixes the name directly.
func ResolveName(a *rosargs.Args, ov *params.Overrides) (name, namespace string, err error) {
	type candidate struct {
		id        int
		name, ns  string
		robotID   params.Value
		hasRobots bool
	}
	var fixed []candidate
	seen := map[string]bool{}
	var values []string
	for k := MinRobotID; k <= MaxRobotID; k++ {
		c := candidate{id: k}
		c.name = a.NodeName(NodeName(k))
		c.ns = nodeNamespace(a, c.name)
		fqn := rosargs.FullyQualifiedName(c.ns, c.name)
		for _, o := range ov.ForNode(fqn) {
			if o.Name == "robot_id" {
				c.robotID, c.hasRobots = o.Value, true
			}
		}
		if !c.hasRobots {
			continue
		}
		if s := c.robotID.String(); !seen[s] {
			seen[s] = true
			values = append(values, s)
		}
		if c.robotID.Type == params.TypeInteger && c.robotID.IntegerValue == int64(k) {
			fixed = append(fixed, c)
		}
	}
	switch {
	case len(fixed) == 1:
		return fixed[0].name, fixed[0].ns, nil
	case len(fixed) > 1:
		ids := make([]string, len(fixed))
		for i, c := range fixed {
			ids[i] = fmt.Sprint(c.id)
		}
		return "", "", fmt.Errorf("%w: the parameters configure robots %s; choose one with -p robot_id:=<id> or -r __node:=dnetwork_<id>",
			ErrRobotID, strings.Join(ids, ", "))
	case len(values) == 0 && !slices.ContainsFunc(ov.Keys(), func(k string) bool { _, ok := ov.Lookup(k, "robot_id"); return ok }):
		return "", "", fmt.Errorf("%w: robot_id is not set; give it in a --params-file or with -p robot_id:=<%d..%d>",
			ErrRobotID, MinRobotID, MaxRobotID)
	}
	// robot_id is given but names no robot 1..20. If it applies to the node whatever
	// its name (out of range or not an integer under /** or in a -p rule, or a __node
	// remap whose section says otherwise), take the name the remaps give, or dnetwork:
	// the declaration then reports the value with its source.
	name = a.NodeName("dnetwork")
	namespace = nodeNamespace(a, name)
	if o, ok := robotIDOf(ov, rosargs.FullyQualifiedName(namespace, name)); !ok || validRobotID(o.Value) {
		// Sections for other node names give it: a copied robot file whose section
		// still names the old robot, or a section "dnetwork".
		if err := misnamedRobotID(a, ov); err != nil {
			return "", "", err
		}
	}
	slices.Sort(values)
	if len(values) > 1 {
		return "", "", fmt.Errorf("%w: robot_id is given as %s for different node names; choose one with -p robot_id:=<id>",
			ErrRobotID, strings.Join(values, ", "))
	}
	return name, namespace, nil
}

// nodeNamespace applies the __ns remaps to the root namespace as ros.NewNode does.
func nodeNamespace(a *rosargs.Args, name string) string {
	ns := a.Namespace(name, "/")
	if !strings.HasPrefix(ns, "/") {
		ns = "/" + ns
	}
	if len(ns) > 1 {
		ns = strings.TrimRight(ns, "/")
	}
	return ns
}

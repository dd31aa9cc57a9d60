package node

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/robocup-dnetwork/dnetwork/ros/params"
	"github.com/robocup-dnetwork/dnetwork/ros/rosargs"
)

// A parameter file applies to a node through its section keys, matched against the
// node's fully qualified name as rclcpp does (params.MatchNode): "dnetwork_3",
// "/dnetwork_3", "/**/dnetwork_3", "/**". rclcpp ignores a file none of whose keys
// match, so the usual first mistake – a copy of robot3.yaml whose section still says
// dnetwork_3 – would leave the node without its parameters and say only that robot_id
// or team_number is required. The checks here name the file, its sections and the
// section the node needs instead.

// ErrSection reports a parameter file meant for a dnetwork node none of whose sections
// applies to this node.
var ErrSection = errors.New("node: no section of the parameter file applies to this node")

// dnetworkKey matches a section key whose last level names a dnetwork node.
var dnetworkKey = regexp.MustCompile(`(^|/)dnetwork(_\w+)?$`)

// robotIDOf returns the robot_id override that applies to the node fqn.
func robotIDOf(ov *params.Overrides, fqn string) (params.Override, bool) {
	for _, o := range ov.ForNode(fqn) {
		if o.Name == "robot_id" {
			return o, true
		}
	}
	return params.Override{}, false
}

// sectionKey is the section key that gives parameters to the node ns/name: its name in
// the root namespace, else the fully qualified name.
func sectionKey(ns, name string) string {
	if ns == "/" {
		return name
	}
	return rosargs.FullyQualifiedName(ns, name)
}

// validRobotID reports whether v is a player number.
func validRobotID(v params.Value) bool {
	return v.Type == params.TypeInteger && v.IntegerValue >= MinRobotID && v.IntegerValue <= MaxRobotID
}

// misnamedRobotID explains robot_id values given under a section (or a node-prefixed -p
// rule) that does not apply to the node of that robot: one line each, with the fix; nil
// if there is none.
func misnamedRobotID(a *rosargs.Args, ov *params.Overrides) error {
	var errs []error
	for _, key := range ov.Keys() {
		o, ok := ov.Lookup(key, "robot_id")
		if !ok {
			continue
		}
		fix := fmt.Sprintf("robot_id is a player number %d..%d", MinRobotID, MaxRobotID)
		if validRobotID(o.Value) {
			name := a.NodeName(NodeName(int(o.Value.IntegerValue)))
			ns := nodeNamespace(a, name)
			if params.MatchNode(key, rosargs.FullyQualifiedName(ns, name)) {
				continue // it names its own robot's node
			}
			if o.Source.File == "" {
				fix = "leave out the node prefix"
			} else {
				fix = fmt.Sprintf("name it %s or use /**", sectionKey(ns, name))
			}
		}
		if o.Source.File == "" {
			errs = append(errs, kindErrorf(ErrRobotID, "%s sets robot_id %s for node %s only; %s", o.Source.Key, o.Value, key, fix))
		} else {
			errs = append(errs, kindErrorf(ErrRobotID, "%s: section %s sets robot_id %s; %s", o.Source.File, key, o.Value, fix))
		}
	}
	return errors.Join(errs...)
}

// unmatchedFiles describes each parameter file none of whose sections applies to the
// node fqn, one error each. err joins those whose sections name a dnetwork node (a robot
// file for another robot, or copied without renaming its section): the node must not
// start without them. The others may be meant for other nodes, as with rclcpp.
func unmatchedFiles(ov *params.Overrides, fqn string) (notes []error, err error) {
	ns, name := splitFQN(fqn)
	var errs []error
	for _, f := range ov.Files() {
		if len(f.Keys) == 0 || slices.ContainsFunc(f.Keys, func(k string) bool { return params.MatchNode(k, fqn) }) {
			continue
		}
		sections := make([]string, len(f.Keys))
		for i, k := range f.Keys {
			sections[i] = k
			if o, ok := ov.Lookup(k, "robot_id"); ok && o.Source.File == f.Path {
				sections[i] += " with robot_id " + o.Value.String()
			}
		}
		note := fmt.Sprintf("%s: no section for this node %s (sections: %s), so none of its parameters apply",
			f.Path, fqn, strings.Join(sections, ", "))
		if !slices.ContainsFunc(f.Keys, dnetworkKey.MatchString) {
			notes = append(notes, kindErrorf(ErrSection, "%s", note))
			continue
		}
		err := kindErrorf(ErrSection, "%s; name the section %s or use /**", note, sectionKey(ns, name))
		notes, errs = append(notes, err), append(errs, err)
	}
	return notes, errors.Join(errs...)
}

// withoutRequiredFrom drops from err (a join of Declare's errors) each "required"
// error of a parameter that a dnetwork file none of whose sections applies to the
// node fqn sets: unmatchedFiles reports that file, and naming the parameter too would
// say it is missing although the file sets it.
func withoutRequiredFrom(err error, ov *params.Overrides, fqn string) error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		if err != nil && setByUnmatched(err, ov, fqn) {
			return nil
		}
		return err
	}
	var keep []error
	for _, e := range j.Unwrap() {
		if !setByUnmatched(e, ov, fqn) {
			keep = append(keep, e)
		}
	}
	return errors.Join(keep...)
}

// setByUnmatched reports whether e is a required parameter's error and a dnetwork
// section that does not apply to the node fqn sets that parameter.
func setByUnmatched(e error, ov *params.Overrides, fqn string) bool {
	var pe *params.ParamError
	if !errors.Is(e, errRequired) || !errors.As(e, &pe) {
		return false
	}
	for _, f := range ov.Files() {
		for _, k := range f.Keys {
			if params.MatchNode(k, fqn) || !dnetworkKey.MatchString(k) {
				continue
			}
			if o, ok := ov.Lookup(k, pe.Name); ok && o.Source.File == f.Path {
				return true
			}
		}
	}
	return false
}

// splitFQN splits "/robot1/dnetwork_1" into "/robot1" and "dnetwork_1".
func splitFQN(fqn string) (ns, name string) {
	i := strings.LastIndexByte(fqn, '/')
	ns, name = fqn[:i], fqn[i+1:]
	if ns == "" {
		ns = "/"
	}
	return ns, name
}

// kindError is a message that matches a sentinel error without repeating its text.
type kindError struct {
	kind error
	msg  string
}

func kindErrorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

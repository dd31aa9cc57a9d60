package main

import (
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
)

// pbKinds gives the Lua kind and wire type of each protobuf kind the reader in
// robocup.lua knows.
var pbKinds = map[protoreflect.Kind]struct {
	lua  string
	wire protowire.Type
}{
	protoreflect.BoolKind: {"bool", protowire.VarintType}, protoreflect.EnumKind: {"enum", protowire.VarintType},
	protoreflect.Int32Kind: {"int32", protowire.VarintType}, protoreflect.Int64Kind: {"int64", protowire.VarintType},
	protoreflect.Uint32Kind: {"uint32", protowire.VarintType}, protoreflect.Uint64Kind: {"uint64", protowire.VarintType},
	protoreflect.Sint32Kind: {"sint32", protowire.VarintType}, protoreflect.Sint64Kind: {"sint64", protowire.VarintType},
	protoreflect.FloatKind: {"float", protowire.Fixed32Type}, protoreflect.DoubleKind: {"double", protowire.Fixed64Type},
	protoreflect.Fixed32Kind: {"fixed32", protowire.Fixed32Type}, protoreflect.Sfixed32Kind: {"sfixed32", protowire.Fixed32Type},
	protoreflect.Fixed64Kind: {"fixed64", protowire.Fixed64Type}, protoreflect.Sfixed64Kind: {"sfixed64", protowire.Fixed64Type},
	protoreflect.StringKind: {"string", protowire.BytesType}, protoreflect.BytesKind: {"bytes", protowire.BytesType},
	protoreflect.MessageKind: {"message", protowire.BytesType},
}

// writeRobocup writes the HL standard message's schema, taken from the descriptors of
// the generated Go code (robocup.pb.go and the well-known Timestamp), and the extension
// fields of proto/robocup.
func writeRobocup(b *strings.Builder) {
	root := (&robocup.Message{}).ProtoReflect().Descriptor()
	messages := map[protoreflect.FullName]protoreflect.MessageDescriptor{}
	enums := map[protoreflect.FullName]protoreflect.EnumDescriptor{}
	var walk func(m protoreflect.MessageDescriptor, depth int)
	walk = func(m protoreflect.MessageDescriptor, depth int) {
		if depth > 8 {
			panic("dissectorgen: robocup.proto nests deeper than 8 messages (a cycle?)")
		}
		messages[m.FullName()] = m
		fs := m.Fields()
		for i := range fs.Len() {
			f := fs.Get(i)
			if _, ok := pbKinds[f.Kind()]; !ok || f.IsMap() {
				panic(fmt.Sprintf("dissectorgen: %s: kind %v is not read by robocup.lua", f.FullName(), f.Kind()))
			}
			if e := f.Enum(); e != nil {
				enums[e.FullName()] = e
			}
			if sub := f.Message(); sub != nil {
				walk(sub, depth+1)
			}
		}
	}
	walk(root, 0)

	b.WriteString("-- ROBOCUP: the HL standard team message robocup.humanoid.Message (proto/robocup's\n")
	b.WriteString("-- robocup.pb.go descriptors; fields by number) and the teams' extension fields.\n")
	fmt.Fprintf(b, "local ROBOCUP = {root=%s, standard_max=%d, timestamp=%s, team_enum=%s,\n",
		q(string(root.FullName())), robocup.StandardFieldMax, q("google.protobuf.Timestamp"),
		q(string(root.Fields().ByName("current_pose").Message().Fields().ByName("team").Enum().FullName())))
	b.WriteString("\tmessages={\n")
	for _, name := range sortedNames(messages) {
		m := messages[name]
		fmt.Fprintf(b, "\t[%s]={", q(string(name)))
		fs := m.Fields()
		for i := range fs.Len() {
			f := fs.Get(i)
			k := pbKinds[f.Kind()]
			fmt.Fprintf(b, "\n\t\t[%d]={name=%s, kind=%s, wire=%d", f.Number(), q(string(f.Name())), q(k.lua), k.wire)
			if f.IsList() {
				b.WriteString(", repeated=true")
			}
			if f.Enum() != nil {
				fmt.Fprintf(b, ", enum=%s", q(string(f.Enum().FullName())))
			}
			if f.Message() != nil {
				fmt.Fprintf(b, ", message=%s", q(string(f.Message().FullName())))
			}
			b.WriteString("},")
		}
		b.WriteString("},\n")
	}
	b.WriteString("\t},\n\tenums={\n")
	for _, name := range sortedNames(enums) {
		vs := enums[name].Values()
		var parts []string
		for i := range vs.Len() {
			parts = append(parts, fmt.Sprintf("[%d]=%s", vs.Get(i).Number(), q(string(vs.Get(i).Name()))))
		}
		fmt.Fprintf(b, "\t[%s]={%s},\n", q(string(name)), strings.Join(parts, ", "))
	}
	b.WriteString("\t},\n")
	// The extensions, told apart by wire type at field 101 as robocup.Decode does.
	fmt.Fprintf(b, "\tbitbots={[%d]=%s, [%d]=%s, [%d]=%s, [%d]=%s, [%d]=%s, [%d]=%s},\n",
		robocup.FieldMaxWalkingSpeed, q("max_walking_speed"), robocup.FieldTimeToBall, q("time_to_ball"),
		robocup.FieldRole, q("role"), robocup.FieldAction, q("action"),
		robocup.FieldOffensiveSide, q("offensive_side"), robocup.FieldOtherRobotConfidence, q("other_robot_confidence"))
	fmt.Fprintf(b, "\tbitbots_floats={[%d]=true, [%d]=true, [%d]=true}, time_to_ball_unknown=%d,\n",
		robocup.FieldMaxWalkingSpeed, robocup.FieldTimeToBall, robocup.FieldOtherRobotConfidence, robocup.TimeToBallUnknown)
	fmt.Fprintf(b, "\tpurposes=%d,\n", robocup.FieldPurposes)
	fmt.Fprintf(b, "\tnames={role=%s,\n\t\taction=%s,\n\t\toffensive_side=%s,\n\t\tpurpose=%s}}\n\n",
		names(robocup.RoleNames()), names(robocup.ActionNames()), names(robocup.OffensiveSideNames()), names(robocup.PurposeNames()))
}

func sortedNames[T any](m map[protoreflect.FullName]T) []protoreflect.FullName {
	ns := make([]protoreflect.FullName, 0, len(m))
	for n := range m {
		ns = append(ns, n)
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i] < ns[j] })
	return ns
}

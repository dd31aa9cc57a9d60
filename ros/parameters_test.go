package ros

import (
	"reflect"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

func TestParameterValueConversion(t *testing.T) {
	for _, v := range []params.Value{
		{},
		params.Bool(true),
		params.Integer(-7),
		params.Double(0.25),
		params.String("alpha"),
		params.ByteArray([]byte{1, 2}),
		params.BoolArray([]bool{true, false}),
		params.IntegerArray([]int64{1, -2}),
		params.DoubleArray([]float64{1.5}),
		params.StringArray([]string{"a", "b"}),
	} {
		m := valueToMsg(v)
		if m.Type != uint8(v.Type) {
			t.Errorf("%v: message type %d", v, m.Type)
		}
		if back := valueFromMsg(m); !back.Equal(v) {
			t.Errorf("round trip of %v gives %v", v, back)
		}
	}
	m := valueToMsg(params.StringArray([]string{"x"}))
	if !reflect.DeepEqual(m, rcl_interfaces.ParameterValue{Type: rcl_interfaces.ParameterTypeParameterStringArray, StringArrayValue: []string{"x"}}) {
		t.Errorf("string array message %+v", m)
	}
}

func TestDescriptorConversion(t *testing.T) {
	d := params.Descriptor{
		Name: "net.port", Type: params.TypeInteger, Description: "UDP port", AdditionalConstraints: "unprivileged",
		ReadOnly: true, IntegerRange: &params.IntegerRange{From: 1024, To: 65535, Step: 1},
	}
	want := rcl_interfaces.ParameterDescriptor{
		Name: "net.port", Type: rcl_interfaces.ParameterTypeParameterInteger, Description: "UDP port",
		AdditionalConstraints: "unprivileged", ReadOnly: true,
		IntegerRange: []rcl_interfaces.IntegerRange{{FromValue: 1024, ToValue: 65535, Step: 1}},
	}
	if got := descriptorToMsg(d); !reflect.DeepEqual(got, want) {
		t.Errorf("descriptor\n got %+v\nwant %+v", got, want)
	}
	f := descriptorToMsg(params.Descriptor{Name: "gain", Type: params.TypeDouble, DynamicTyping: true,
		FloatingPointRange: &params.FloatingPointRange{From: 0, To: 1, Step: 0.5}})
	if len(f.FloatingPointRange) != 1 || f.FloatingPointRange[0].ToValue != 1 || f.FloatingPointRange[0].Step != 0.5 || !f.DynamicTyping || f.IntegerRange != nil {
		t.Errorf("double descriptor %+v", f)
	}
}

func TestParametersToMsg(t *testing.T) {
	if parametersToMsg(nil) != nil {
		t.Error("no parameters must give a nil slice")
	}
	ps := []params.Parameter{{Name: "a", Value: params.Integer(1)}, {Name: "b", Value: params.String("x")}}
	if back := parametersFromMsg(parametersToMsg(ps)); !reflect.DeepEqual(back, ps) {
		t.Errorf("round trip %+v", back)
	}
}

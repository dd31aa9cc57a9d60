package ros

import (
	"slices"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rosgraph_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

// Parameters of a node, as an rclcpp node offers them
//
//	service (under the node's name)  type                                      answered by
//	~/get_parameters                 rcl_interfaces/srv/GetParameters           Store.GetValues
//	~/get_parameter_types            rcl_interfaces/srv/GetParameterTypes       Store.GetTypes
//	~/set_parameters                 rcl_interfaces/srv/SetParameters           Store.Set
//	~/set_parameters_atomically      rcl_interfaces/srv/SetParametersAtomically Store.SetAtomically
//	~/describe_parameters            rcl_interfaces/srv/DescribeParameters      Store.Describe
//	~/list_parameters                rcl_interfaces/srv/ListParameters          Store.List
//
// All six use the parameters QoS. Where rclcpp releases answer differently
// (list_parameters' depth below a prefix, an empty set_parameters_atomically)
// the node answers as the rclcpp of its distro (Distro.Params). As in rclcpp, a get, get-types or describe
// request naming an undeclared parameter gets an empty answer (ros2 param prints
// "Parameter not set"). Every change of the store is published on
// /parameter_events (rcl_interfaces/msg/ParameterEvent) with the node's fully
// qualified name, and use_sim_time switches the node's clock to /clock.

type rosgraphClock = rosgraph_msgs.Clock

// startParameters hooks the store to /parameter_events and use_sim_time and
// creates the parameter services.
func (n *Node) startParameters(services bool) error {
	n.removeParamListener = n.params.OnChange(n.parameterEvent)
	if on, err := n.params.GetBool(params.UseSimTime); err == nil && on {
		if err := n.setUseSimTime(true); err != nil {
			return err
		}
	}
	if !services {
		return nil
	}
	q := QoSParameters
	if _, err := NewService(n, "~/get_parameters", q, n.getParameters); err != nil {
		return err
	}
	if _, err := NewService(n, "~/get_parameter_types", q, n.getParameterTypes); err != nil {
		return err
	}
	if _, err := NewService(n, "~/set_parameters", q, n.setParameters); err != nil {
		return err
	}
	if _, err := NewService(n, "~/set_parameters_atomically", q, n.setParametersAtomically); err != nil {
		return err
	}
	if _, err := NewService(n, "~/describe_parameters", q, n.describeParameters); err != nil {
		return err
	}
	if _, err := NewService(n, "~/list_parameters", q, n.listParameters); err != nil {
		return err
	}
	return nil
}

// parameterEvent publishes a change of the store and follows use_sim_time.
func (n *Node) parameterEvent(ev params.Event) {
	for _, p := range slices.Concat(ev.NewParameters, ev.ChangedParameters) {
		if p.Name == params.UseSimTime && p.Value.Type == params.TypeBool {
			if err := n.setUseSimTime(p.Value.BoolValue); err != nil {
				n.log.Errorf("use_sim_time: %v", err)
			}
		}
	}
	m := &rcl_interfaces.ParameterEvent{
		Stamp:             timeMsg(n.clock.Now()),
		Node:              n.fqn,
		NewParameters:     parametersToMsg(ev.NewParameters),
		ChangedParameters: parametersToMsg(ev.ChangedParameters),
		DeletedParameters: parametersToMsg(ev.DeletedParameters),
	}
	if err := n.paramPub.Publish(m); err != nil {
		n.log.WarnEvery("parameter_events", 5*time.Second, "publishing /parameter_events: %v", err)
	}
}

// setUseSimTime switches the node's clock between the system time and /clock,
// subscribing to /clock while simulation time is on.
func (n *Node) setUseSimTime(on bool) error {
	n.simMu.Lock()
	defer n.simMu.Unlock()
	if on == (n.clockSub != nil) {
		return nil
	}
	if !on {
		n.clock.setSim(false)
		err := n.clockSub.Close()
		n.clockSub = nil
		n.log.Infof("use_sim_time false: the clock follows the system time")
		return err
	}
	sub, err := NewSubscription(n, "/clock", QoSClock, func(m *rosgraph_msgs.Clock) {
		n.clock.setSimTime(timeFromMsg(m.Clock))
	})
	if err != nil {
		return err
	}
	n.clockSub = sub
	n.clock.setSim(true)
	n.log.Infof("use_sim_time true: the clock follows /clock")
	return nil
}

func (n *Node) getParameters(req *rcl_interfaces.GetParameters_Request) *rcl_interfaces.GetParameters_Response {
	values, err := n.params.GetValues(req.Names)
	if err != nil {
		n.log.Debugf("get_parameters: %v", err)
		return &rcl_interfaces.GetParameters_Response{}
	}
	resp := &rcl_interfaces.GetParameters_Response{Values: make([]rcl_interfaces.ParameterValue, len(values))}
	for i, v := range values {
		resp.Values[i] = valueToMsg(v)
	}
	return resp
}

func (n *Node) getParameterTypes(req *rcl_interfaces.GetParameterTypes_Request) *rcl_interfaces.GetParameterTypes_Response {
	types, err := n.params.GetTypes(req.Names)
	if err != nil {
		n.log.Debugf("get_parameter_types: %v", err)
		return &rcl_interfaces.GetParameterTypes_Response{}
	}
	resp := &rcl_interfaces.GetParameterTypes_Response{Types: make([]uint8, len(types))}
	for i, t := range types {
		resp.Types[i] = uint8(t)
	}
	return resp
}

func (n *Node) setParameters(req *rcl_interfaces.SetParameters_Request) *rcl_interfaces.SetParameters_Response {
	results := n.params.Set(parametersFromMsg(req.Parameters)...)
	resp := &rcl_interfaces.SetParameters_Response{Results: make([]rcl_interfaces.SetParametersResult, len(results))}
	for i, r := range results {
		resp.Results[i] = rcl_interfaces.SetParametersResult{Successful: r.Successful, Reason: r.Reason}
	}
	return resp
}

func (n *Node) setParametersAtomically(req *rcl_interfaces.SetParametersAtomically_Request) *rcl_interfaces.SetParametersAtomically_Response {
	r := n.params.SetAtomically(parametersFromMsg(req.Parameters)...)
	return &rcl_interfaces.SetParametersAtomically_Response{Result: rcl_interfaces.SetParametersResult{Successful: r.Successful, Reason: r.Reason}}
}

func (n *Node) describeParameters(req *rcl_interfaces.DescribeParameters_Request) *rcl_interfaces.DescribeParameters_Response {
	descs, err := n.params.Describe(req.Names)
	if err != nil {
		n.log.Debugf("describe_parameters: %v", err)
		return &rcl_interfaces.DescribeParameters_Response{}
	}
	resp := &rcl_interfaces.DescribeParameters_Response{Descriptors: make([]rcl_interfaces.ParameterDescriptor, len(descs))}
	for i, d := range descs {
		resp.Descriptors[i] = descriptorToMsg(d)
	}
	return resp
}

func (n *Node) listParameters(req *rcl_interfaces.ListParameters_Request) *rcl_interfaces.ListParameters_Response {
	r := n.params.List(req.Prefixes, req.Depth)
	return &rcl_interfaces.ListParameters_Response{Result: rcl_interfaces.ListParametersResult{Names: r.Names, Prefixes: r.Prefixes}}
}

// valueToMsg converts a parameter value to rcl_interfaces/msg/ParameterValue.
func valueToMsg(v params.Value) rcl_interfaces.ParameterValue {
	return rcl_interfaces.ParameterValue{
		Type:              uint8(v.Type),
		BoolValue:         v.BoolValue,
		IntegerValue:      v.IntegerValue,
		DoubleValue:       v.DoubleValue,
		StringValue:       v.StringValue,
		ByteArrayValue:    v.ByteArrayValue,
		BoolArrayValue:    v.BoolArrayValue,
		IntegerArrayValue: v.IntegerArrayValue,
		DoubleArrayValue:  v.DoubleArrayValue,
		StringArrayValue:  v.StringArrayValue,
	}
}

// valueFromMsg converts rcl_interfaces/msg/ParameterValue to a parameter value;
// the store rejects unknown types.
func valueFromMsg(m rcl_interfaces.ParameterValue) params.Value {
	return params.Value{
		Type:              params.Type(m.Type),
		BoolValue:         m.BoolValue,
		IntegerValue:      m.IntegerValue,
		DoubleValue:       m.DoubleValue,
		StringValue:       m.StringValue,
		ByteArrayValue:    m.ByteArrayValue,
		BoolArrayValue:    m.BoolArrayValue,
		IntegerArrayValue: m.IntegerArrayValue,
		DoubleArrayValue:  m.DoubleArrayValue,
		StringArrayValue:  m.StringArrayValue,
	}
}

func parametersToMsg(ps []params.Parameter) []rcl_interfaces.Parameter {
	if len(ps) == 0 {
		return nil
	}
	out := make([]rcl_interfaces.Parameter, len(ps))
	for i, p := range ps {
		out[i] = rcl_interfaces.Parameter{Name: p.Name, Value: valueToMsg(p.Value)}
	}
	return out
}

func parametersFromMsg(ps []rcl_interfaces.Parameter) []params.Parameter {
	out := make([]params.Parameter, len(ps))
	for i, p := range ps {
		out[i] = params.Parameter{Name: p.Name, Value: valueFromMsg(p.Value)}
	}
	return out
}

// descriptorToMsg converts a descriptor; a range becomes a one-element sequence.
func descriptorToMsg(d params.Descriptor) rcl_interfaces.ParameterDescriptor {
	m := rcl_interfaces.ParameterDescriptor{
		Name:                  d.Name,
		Type:                  uint8(d.Type),
		Description:           d.Description,
		AdditionalConstraints: d.AdditionalConstraints,
		ReadOnly:              d.ReadOnly,
		DynamicTyping:         d.DynamicTyping,
	}
	if r := d.FloatingPointRange; r != nil {
		m.FloatingPointRange = []rcl_interfaces.FloatingPointRange{{FromValue: r.From, ToValue: r.To, Step: r.Step}}
	}
	if r := d.IntegerRange; r != nil {
		m.IntegerRange = []rcl_interfaces.IntegerRange{{FromValue: r.From, ToValue: r.To, Step: r.Step}}
	}
	return m
}

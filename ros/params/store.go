package params

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
)

// UseSimTime is the parameter every rclcpp node declares (bool, default
// false); true makes the node's clock follow /clock.
const UseSimTime = "use_sim_time"

// DepthRecursive asks List for parameters at any depth
// (rcl_interfaces/srv/ListParameters DEPTH_RECURSIVE).
const DepthRecursive = 0

// Release is the rclcpp release whose parameter services a Store answers like
// where releases differ: the depth of a prefixed listing and an empty atomic set.
type Release uint8

const (
	// Jazzy answers as rclcpp 28 (Jazzy) does, and as later releases are
	// assumed to; the zero value.
	Jazzy Release = iota
	// Humble answers as rclcpp 16 (Humble) does.
	Humble
)

// IntegerRange limits an integer parameter to [From, To]; with Step > 0 the
// value must also be From plus a multiple of Step (To is always allowed).
type IntegerRange struct {
	From, To int64
	Step     uint64
}

// FloatingPointRange limits a double parameter to [From, To]; with Step > 0
// the value must be near From plus a multiple of Step.
type FloatingPointRange struct {
	From, To, Step float64
}

// Descriptor describes a parameter (rcl_interfaces/msg/ParameterDescriptor).
type Descriptor struct {
	Name                  string
	Type                  Type // fixed type; for dynamically typed parameters the current value's type
	Description           string
	AdditionalConstraints string
	ReadOnly              bool // only the declaration (default or override) sets it
	DynamicTyping         bool // the value may change type; off by default
	FloatingPointRange    *FloatingPointRange
	IntegerRange          *IntegerRange
}

func (d Descriptor) clone() Descriptor {
	if d.FloatingPointRange != nil {
		r := *d.FloatingPointRange
		d.FloatingPointRange = &r
	}
	if d.IntegerRange != nil {
		r := *d.IntegerRange
		d.IntegerRange = &r
	}
	return d
}

// Result is the outcome of a set (rcl_interfaces/msg/SetParametersResult)
// plus the error behind Reason for errors.Is.
type Result struct {
	Successful bool
	Reason     string
	Err        error
}

func failed(err error) Result { return Result{Reason: err.Error(), Err: err} }

// Event lists what one change did (rcl_interfaces/msg/ParameterEvent without
// the node name and stamp, which the node adds).
type Event struct {
	NewParameters     []Parameter
	ChangedParameters []Parameter
	DeletedParameters []Parameter
}

func (e Event) empty() bool {
	return len(e.NewParameters)+len(e.ChangedParameters)+len(e.DeletedParameters) == 0
}

// ListResult is the answer to a parameter listing
// (rcl_interfaces/msg/ListParametersResult).
type ListResult struct {
	Names    []string
	Prefixes []string
}

type entry struct {
	desc  Descriptor
	value Value
}

type callback[F any] struct {
	id int
	fn F
}

// Store holds a node's parameters with rclcpp's semantics: parameters are
// declared with a default and a descriptor before use, statically typed
// unless declared with dynamic typing, and an override (from the command
// line or a parameter file) replaces the default at declaration. It is safe
// for concurrent use.
type Store struct {
	mu         sync.Mutex
	params     map[string]*entry
	overrides  map[string]Override
	used       map[string]bool
	validators []callback[func([]Parameter) error]
	listeners  []callback[func(Event)]
	nextID     int
	seq        uint64  // events handed out
	release    Release // answers of List and SetAtomically

	// Events are delivered outside mu, one at a time, in commit order.
	evMu      sync.Mutex
	evCond    sync.Cond
	delivered uint64
}

// NewStore makes a store whose declarations take their initial values from
// overrides (usually Overrides.ForNode for this node; later entries win) and
// declares use_sim_time as rclcpp does. The error is about a bad
// use_sim_time override.
func NewStore(overrides []Override) (*Store, error) {
	s := &Store{params: map[string]*entry{}, overrides: map[string]Override{}, used: map[string]bool{}}
	s.evCond.L = &s.evMu
	for _, ov := range overrides {
		ov.Value = ov.Value.Clone()
		s.overrides[ov.Name] = ov
	}
	if _, err := s.Declare(UseSimTime, Bool(false), Descriptor{
		Description: "use the time published on /clock instead of the system clock",
	}); err != nil {
		return nil, err
	}
	return s, nil
}

// Declare declares a parameter and returns its initial value: the override
// for name if there is one, else def. With d.DynamicTyping false the type is
// d.Type, or def's type when d.Type is TypeNotSet; a parameter declared with
// a type and no default has no value until an override or Set gives it one.
// A bad override is reported as a *SourceError naming its file and key.
func (s *Store) Declare(name string, def Value, d Descriptor) (Value, error) {
	return s.declare(name, def, d, false)
}

// Hidden is what a secret parameter's value reads as (DeclareSecret).
const Hidden = "<hidden>"

// DeclareSecret declares a read-only string parameter that holds a secret, such as a
// key. It returns the initial value as Declare does, but the store keeps only what may
// be shown: the default itself (a default is public: it is in the documentation), ""
// when the value is empty, and Hidden otherwise. So get_parameters, describe, list,
// ros2 param dump and /parameter_events never carry the secret, and a dump that is
// loaded back gives Hidden, which the caller can refuse with a clear message.
func (s *Store) DeclareSecret(name string, def Value, d Descriptor) (Value, error) {
	if d.Type == TypeNotSet {
		d.Type = def.Type
	}
	if d.Type != TypeString || d.DynamicTyping || !d.ReadOnly {
		return Value{}, &ParamError{Name: name, Err: errorf(ErrInvalidDescriptor, "a secret is a read-only string")}
	}
	return s.declare(name, def, d, true)
}

// shown is what the store keeps of a secret parameter's value v (DeclareSecret).
func shown(v, def Value) Value {
	if v.StringValue == "" || v.Equal(def) {
		return v
	}
	return String(Hidden)
}

func (s *Store) declare(name string, def Value, d Descriptor, secret bool) (Value, error) {
	if name == "" {
		return Value{}, errorf(ErrInvalidName, "parameter name must not be empty")
	}
	d = d.clone()
	d.Name = name
	if err := checkDescriptor(&d, def); err != nil {
		return Value{}, &ParamError{Name: name, Err: err}
	}
	if err := checkValue(d, def); err != nil {
		return Value{}, &ParamError{Name: name, Err: fmt.Errorf("default: %w", err)}
	}
	s.mu.Lock()
	if _, ok := s.params[name]; ok {
		s.mu.Unlock()
		return Value{}, errorf(ErrAlreadyDeclared, "parameter '%s' is already declared", name)
	}
	initial := def
	ov, hasOverride := s.overrides[name]
	if hasOverride {
		initial = ov.Value
		var err error
		if ov.EmptyArray {
			initial, err = emptyArray(d)
		} else {
			err = checkValue(d, initial)
		}
		if err != nil {
			s.mu.Unlock()
			return Value{}, &SourceError{Source: ov.Source, Err: err}
		}
	}
	if initial.IsSet() {
		if err := s.validate([]Parameter{{Name: name, Value: initial}}); err != nil {
			s.mu.Unlock()
			if hasOverride {
				return Value{}, &SourceError{Source: ov.Source, Err: err}
			}
			return Value{}, &ParamError{Name: name, Err: err}
		}
	}
	if hasOverride {
		s.used[name] = true
	}
	if d.DynamicTyping {
		d.Type = initial.Type
	}
	kept := initial
	if secret {
		kept = shown(initial, def)
	}
	s.params[name] = &entry{desc: d, value: kept.Clone()}
	var ev Event
	if kept.IsSet() {
		ev.NewParameters = []Parameter{{Name: name, Value: kept.Clone()}}
	}
	s.commit(ev) // unlocks s.mu
	return initial.Clone(), nil
}

func checkDescriptor(d *Descriptor, def Value) error {
	if d.DynamicTyping {
		if d.Type != TypeNotSet {
			return errorf(ErrInvalidDescriptor, "a dynamically typed parameter has no fixed type (got %s)", d.Type)
		}
	} else {
		if d.Type == TypeNotSet {
			d.Type = def.Type
		}
		if d.Type == TypeNotSet {
			return errorf(ErrInvalidDescriptor, "a statically typed parameter needs a type or a default value")
		}
		if d.Type > TypeStringArray {
			return errorf(ErrInvalidDescriptor, "unknown type %d", d.Type)
		}
	}
	if r := d.IntegerRange; r != nil {
		if d.Type != TypeInteger {
			return errorf(ErrInvalidDescriptor, "an integer range needs an integer parameter, not %s", d.Type)
		}
		if r.From > r.To {
			return errorf(ErrInvalidDescriptor, "integer range from %d to %d is empty", r.From, r.To)
		}
	}
	if r := d.FloatingPointRange; r != nil {
		if d.Type != TypeDouble {
			return errorf(ErrInvalidDescriptor, "a floating point range needs a double parameter, not %s", d.Type)
		}
		if !(r.From <= r.To) || !(r.Step >= 0) || math.IsInf(r.Step, 0) {
			return errorf(ErrInvalidDescriptor, "floating point range from %v to %v step %v is not valid", r.From, r.To, r.Step)
		}
	}
	return nil
}

// emptyArray is the value "[]" gives a parameter: an empty array of its type.
func emptyArray(d Descriptor) (Value, error) {
	switch {
	case d.DynamicTyping:
		return Value{}, errEmptyArray()
	case d.Type < TypeByteArray:
		return Value{}, errorf(ErrTypeMismatch, "expected %s, got an empty array", d.Type)
	}
	return Value{Type: d.Type}.Clone(), nil
}

// checkValue checks a value against a descriptor's type and range.
func checkValue(d Descriptor, v Value) error {
	if !v.IsSet() {
		return nil
	}
	if !d.DynamicTyping && v.Type != d.Type {
		return &TypeError{Want: d.Type, Got: v}
	}
	if r := d.IntegerRange; r != nil && v.Type == TypeInteger {
		if !inIntegerRange(*r, v.IntegerValue) {
			return &RangeError{Got: v, Integer: r}
		}
	}
	if r := d.FloatingPointRange; r != nil && v.Type == TypeDouble {
		if !inFloatRange(*r, v.DoubleValue) {
			return &RangeError{Got: v, Float: r}
		}
	}
	return nil
}

// inIntegerRange is rclcpp's check: the bounds are always allowed, otherwise
// the value must be inside and on a step from From.
func inIntegerRange(r IntegerRange, v int64) bool {
	if v == r.From || v == r.To {
		return true
	}
	if v < r.From || v > r.To {
		return false
	}
	return r.Step == 0 || (uint64(v)-uint64(r.From))%r.Step == 0
}

// nearlyEqual is rclcpp's comparison of doubles: within 100 ulp-ish of the
// magnitude.
func nearlyEqual(x, y float64) bool {
	return math.Abs(x-y) <= 0x1p-52*math.Abs(x+y)*100
}

// inFloatRange is rclcpp's check: the bounds (within rounding) are always
// allowed, otherwise the value must be inside and near a step from From.
func inFloatRange(r FloatingPointRange, v float64) bool {
	if nearlyEqual(v, r.From) || nearlyEqual(v, r.To) {
		return true
	}
	if !(v >= r.From && v <= r.To) {
		return false
	}
	if r.Step == 0 {
		return true
	}
	n := math.Round((v - r.From) / r.Step)
	return nearlyEqual(v, r.From+n*r.Step)
}

// validate runs the validators; s.mu is held.
func (s *Store) validate(ps []Parameter) error {
	for _, v := range s.validators {
		if err := v.fn(ps); err != nil {
			return &kindError{kind: ErrRejected, msg: "rejected: " + err.Error(), cause: err}
		}
	}
	return nil
}

// commit hands ev to the listeners and unlocks s.mu. Listeners run outside
// s.mu, so they may read the store, one event at a time in commit order.
// They must not change the store.
func (s *Store) commit(ev Event) {
	if ev.empty() || len(s.listeners) == 0 {
		s.mu.Unlock()
		return
	}
	s.seq++
	seq := s.seq
	listeners := slices.Clone(s.listeners)
	s.mu.Unlock()

	s.evMu.Lock()
	for s.delivered+1 != seq {
		s.evCond.Wait()
	}
	s.evMu.Unlock()
	defer func() { // also if a listener panics, so later changes do not wait forever
		s.evMu.Lock()
		s.delivered = seq
		s.evCond.Broadcast()
		s.evMu.Unlock()
	}()
	for _, l := range listeners {
		l.fn(ev)
	}
}

// OnChange registers fn to receive every change: declarations with a value
// (NewParameters), sets (ChangedParameters) and unsets of dynamically typed
// parameters (DeletedParameters), one event per Declare, SetAtomically or
// successful item of Set. This is what the node publishes on
// /parameter_events. fn runs on the goroutine that made the change, after
// the change, in commit order; it may read the store but must not change it.
// The returned function unregisters fn.
func (s *Store) OnChange(fn func(Event)) (remove func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	id := s.nextID
	s.listeners = append(s.listeners, callback[func(Event)]{id, fn})
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.listeners = slices.DeleteFunc(s.listeners, func(c callback[func(Event)]) bool { return c.id == id })
	}
}

// AddValidator registers fn to approve changes before they are made (like
// rclcpp's on-set-parameters callbacks): it gets the parameters of one
// Declare or set and rejects them all by returning an error, whose text
// becomes the Reason. fn runs with the store locked and must not use it.
func (s *Store) AddValidator(fn func([]Parameter) error) (remove func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	id := s.nextID
	s.validators = append(s.validators, callback[func([]Parameter) error]{id, fn})
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.validators = slices.DeleteFunc(s.validators, func(c callback[func([]Parameter) error]) bool { return c.id == id })
	}
}

func notDeclared(name string) error {
	return errorf(ErrNotDeclared, "parameter '%s' is not declared", name)
}

// Has reports whether name is declared.
func (s *Store) Has(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.params[name]
	return ok
}

// Names returns the declared parameters, sorted.
func (s *Store) Names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.params))
	for n := range s.params {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// get is Get with s.mu held.
func (s *Store) get(name string) (Value, error) {
	e, ok := s.params[name]
	if !ok {
		return Value{}, notDeclared(name)
	}
	if !e.value.IsSet() && !e.desc.DynamicTyping {
		return Value{}, errorf(ErrUninitialized, "parameter '%s' is declared as %s but has no value", name, e.desc.Type)
	}
	return e.value.Clone(), nil
}

// Get returns a parameter's value. An undeclared name is ErrNotDeclared; a
// statically typed parameter without a value is ErrUninitialized; a
// dynamically typed one without a value gives a TypeNotSet value.
func (s *Store) Get(name string) (Value, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.get(name)
}

// GetValues returns the values of all names, or an error if any is not
// declared or has no value (get_parameters then answers with no values).
func (s *Store) GetValues(names []string) ([]Value, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Value, len(names))
	for i, n := range names {
		v, err := s.get(n)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// Typed getters: a *ParamError matching ErrTypeMismatch if the parameter
// holds another type.
func (s *Store) GetBool(name string) (bool, error)             { return getAs[bool](s, name) }
func (s *Store) GetInteger(name string) (int64, error)         { return getAs[int64](s, name) }
func (s *Store) GetDouble(name string) (float64, error)        { return getAs[float64](s, name) }
func (s *Store) GetString(name string) (string, error)         { return getAs[string](s, name) }
func (s *Store) GetByteArray(name string) ([]byte, error)      { return getAs[[]byte](s, name) }
func (s *Store) GetBoolArray(name string) ([]bool, error)      { return getAs[[]bool](s, name) }
func (s *Store) GetIntegerArray(name string) ([]int64, error)  { return getAs[[]int64](s, name) }
func (s *Store) GetDoubleArray(name string) ([]float64, error) { return getAs[[]float64](s, name) }
func (s *Store) GetStringArray(name string) ([]string, error)  { return getAs[[]string](s, name) }

func getAs[T Kind](s *Store, name string) (T, error) {
	var zero T
	v, err := s.Get(name)
	if err != nil {
		return zero, err
	}
	t, ok := valueAs[T](v)
	if !ok {
		return zero, &ParamError{Name: name, Err: &TypeError{Want: typeOf[T](), Got: v}}
	}
	return t, nil
}

// Describe returns the descriptors of all names, or ErrNotDeclared.
func (s *Store) Describe(names []string) ([]Descriptor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Descriptor, len(names))
	for i, n := range names {
		e, ok := s.params[n]
		if !ok {
			return nil, notDeclared(n)
		}
		out[i] = e.desc.clone()
	}
	return out, nil
}

// GetTypes returns the types of the current values of all names
// (TypeNotSet for a parameter without a value), or ErrNotDeclared.
func (s *Store) GetTypes(names []string) ([]Type, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Type, len(names))
	for i, n := range names {
		e, ok := s.params[n]
		if !ok {
			return nil, notDeclared(n)
		}
		out[i] = e.value.Type
	}
	return out, nil
}

// SetRelease makes List and SetAtomically answer as the rclcpp of release r
// (a node follows its ROS_DISTRO); a new Store answers as Jazzy.
func (s *Store) SetRelease(r Release) {
	s.mu.Lock()
	s.release = r
	s.mu.Unlock()
}

// List lists parameter names as rclcpp's list_parameters does. Names are
// dot-separated and sorted. With no prefixes it lists the names with fewer
// than depth dots (all names for DepthRecursive). With prefixes it lists each
// name equal to a prefix, and each name below one (prefix + ".") whose dots
// after the prefix number fewer than depth (any for DepthRecursive). Jazzy
// counts the dots after the prefix's own dot (depth 1: the prefix's direct
// children), Humble counts that dot too (depth 1: the prefix alone, depth 2:
// its children). Prefixes in the result are the distinct parents (the part
// before the last dot) of the listed names, in the order of the names.
func (s *Store) List(prefixes []string, depth uint64) ListResult {
	s.mu.Lock()
	skip := 1 // the prefix's dot is not counted
	if s.release == Humble {
		skip = 0
	}
	s.mu.Unlock()
	names := s.Names()
	dotsBelow := func(name string) bool { return uint64(strings.Count(name, ".")) < depth }
	recursive := len(prefixes) == 0 && depth == DepthRecursive
	var r ListResult
	for _, name := range names {
		if !recursive && !(len(prefixes) == 0 && dotsBelow(name)) {
			match := slices.ContainsFunc(prefixes, func(p string) bool {
				if name == p {
					return true
				}
				if !strings.HasPrefix(name, p+".") {
					return false
				}
				return depth == DepthRecursive || dotsBelow(name[len(p)+skip:])
			})
			if !match {
				continue
			}
		}
		r.Names = append(r.Names, name)
		if i := strings.LastIndexByte(name, '.'); i >= 0 && !slices.Contains(r.Prefixes, name[:i]) {
			r.Prefixes = append(r.Prefixes, name[:i])
		}
	}
	return r
}

// Set sets each parameter on its own, as set_parameters does, and returns
// one result per parameter.
func (s *Store) Set(ps ...Parameter) []Result {
	out := make([]Result, len(ps))
	for i, p := range ps {
		out[i] = s.SetAtomically(p)
	}
	return out
}

// SetAtomically sets all parameters or none (set_parameters_atomically).
// A parameter must be declared, writable and given a value of its type within
// its range; a TypeNotSet value unsets (undeclares) a dynamically typed
// parameter. An empty list fails as in Jazzy (ErrEmptyList); Humble sets
// nothing and succeeds.
func (s *Store) SetAtomically(ps ...Parameter) Result {
	s.mu.Lock()
	if len(ps) == 0 {
		humble := s.release == Humble
		s.mu.Unlock()
		if humble {
			return Result{Successful: true}
		}
		return failed(errorf(ErrEmptyList, "parameter list cannot be empty"))
	}
	for _, p := range ps {
		if err := s.checkSet(p); err != nil {
			s.mu.Unlock()
			return failed(err)
		}
	}
	if err := s.validate(ps); err != nil {
		s.mu.Unlock()
		return failed(err)
	}
	var ev Event
	for _, p := range ps {
		e, ok := s.params[p.Name]
		if !ok { // unset earlier in this list
			continue
		}
		if !p.Value.IsSet() {
			if e.value.IsSet() {
				ev.DeletedParameters = append(ev.DeletedParameters, Parameter{Name: p.Name, Value: e.value})
				delete(s.params, p.Name)
			}
			continue
		}
		e.value = p.Value.Clone()
		if e.desc.DynamicTyping {
			e.desc.Type = e.value.Type
		}
		ev.ChangedParameters = append(ev.ChangedParameters, Parameter{Name: p.Name, Value: e.value.Clone()})
	}
	s.commit(ev)
	return Result{Successful: true}
}

func (s *Store) checkSet(p Parameter) error {
	if p.Name == "" {
		return errorf(ErrInvalidName, "parameter name must not be empty")
	}
	e, ok := s.params[p.Name]
	if !ok {
		return errorf(ErrNotDeclared, "parameter '%s' cannot be set because it was not declared", p.Name)
	}
	if e.desc.ReadOnly {
		return errorf(ErrReadOnly, "parameter '%s' cannot be set because it is read-only", p.Name)
	}
	if !p.Value.IsSet() {
		if !e.desc.DynamicTyping && e.value.IsSet() {
			return errorf(ErrTypeMismatch, "parameter '%s' is statically typed and cannot be unset", p.Name)
		}
		return nil
	}
	if p.Value.Type > TypeStringArray {
		return &ParamError{Name: p.Name, Err: errorf(ErrTypeMismatch, "unknown type %d", p.Value.Type)}
	}
	if err := checkValue(e.desc, p.Value); err != nil {
		return &ParamError{Name: p.Name, Err: err}
	}
	return nil
}

// UnusedOverrides returns the overrides no declaration has used, sorted by
// name: values for parameters this node does not have.
func (s *Store) UnusedOverrides() []Override {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Override
	for name, ov := range s.overrides {
		if !s.used[name] {
			out = append(out, ov)
		}
	}
	slices.SortFunc(out, func(a, b Override) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// CheckOverrides reports every unused override as an error naming its file
// and key; call it after all declarations. A node that shares a "/**"
// section with other nodes may filter UnusedOverrides by NodeKey instead.
func (s *Store) CheckOverrides() error {
	var errs []error
	names := s.Names()
	for _, ov := range s.UnusedOverrides() {
		msg := fmt.Sprintf("unknown parameter %q", ov.Name)
		if near := Closest(ov.Name, names); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		errs = append(errs, &SourceError{Source: ov.Source, Err: errorf(ErrNotDeclared, "%s", msg)})
	}
	return errors.Join(errs...)
}

package params

import (
	"errors"
)

// Kind is the set of Go types that hold a parameter value: bool, int64,
// float64, string, []byte, []bool, []int64, []float64 and []string.
type Kind interface {
	bool | int64 | float64 | string | []byte | []bool | []int64 | []float64 | []string
}

// ValueOf wraps a Go value as a parameter value (a copy for slices).
func ValueOf[T Kind](v T) Value {
	switch x := any(v).(type) {
	case bool:
		return Bool(x)
	case int64:
		return Integer(x)
	case float64:
		return Double(x)
	case string:
		return String(x)
	case []byte:
		return ByteArray(cloneOrEmpty(x))
	case []bool:
		return BoolArray(cloneOrEmpty(x))
	case []int64:
		return IntegerArray(cloneOrEmpty(x))
	case []float64:
		return DoubleArray(cloneOrEmpty(x))
	case []string:
		return StringArray(cloneOrEmpty(x))
	}
	return Value{} // unreachable: Kind has no other types
}

// typeOf is the parameter type that holds T.
func typeOf[T Kind]() Type {
	var zero T
	return ValueOf(zero).Type
}

// valueAs unwraps v as T; ok is false when v holds another type.
func valueAs[T Kind](v Value) (t T, ok bool) {
	if v.Type != typeOf[T]() {
		return t, false
	}
	var x any
	switch v.Type {
	case TypeBool:
		x = v.BoolValue
	case TypeInteger:
		x = v.IntegerValue
	case TypeDouble:
		x = v.DoubleValue
	case TypeString:
		x = v.StringValue
	case TypeByteArray:
		x = cloneOrEmpty(v.ByteArrayValue)
	case TypeBoolArray:
		x = cloneOrEmpty(v.BoolArrayValue)
	case TypeIntegerArray:
		x = cloneOrEmpty(v.IntegerArrayValue)
	case TypeDoubleArray:
		x = cloneOrEmpty(v.DoubleArrayValue)
	case TypeStringArray:
		x = cloneOrEmpty(v.StringArrayValue)
	}
	return x.(T), true
}

// Option sets a field of a parameter's descriptor.
type Option func(*Descriptor)

// Description says what the parameter is for.
func Description(text string) Option { return func(d *Descriptor) { d.Description = text } }

// Constraints describes limits that the descriptor cannot express.
func Constraints(text string) Option {
	return func(d *Descriptor) { d.AdditionalConstraints = text }
}

// ReadOnly makes the parameter settable only by its declaration (default or
// override), not by set requests.
func ReadOnly() Option { return func(d *Descriptor) { d.ReadOnly = true } }

// IntRange limits an integer parameter to [from, to] on steps of step from
// from (0: any integer).
func IntRange(from, to int64, step uint64) Option {
	return func(d *Descriptor) { d.IntegerRange = &IntegerRange{From: from, To: to, Step: step} }
}

// FloatRange limits a double parameter to [from, to] on steps of step from
// from (0: any value).
func FloatRange(from, to, step float64) Option {
	return func(d *Descriptor) { d.FloatingPointRange = &FloatingPointRange{From: from, To: to, Step: step} }
}

// Declarer declares typed parameters on a Store and collects the errors, so
// a node can declare its whole configuration and check once:
//
//	d := params.NewDeclarer(store)
//	cfg := config{
//		TeamID: params.Declare(d, "team_id", int64(0), params.IntRange(0, 255, 1), params.ReadOnly()),
//		GCPort: params.Declare(d, "gc_port", int64(3838), params.Description("GameController port")),
//		Peers:  params.Declare(d, "net.peers", []string{}),
//	}
//	if err := d.Err(); err != nil { … }
type Declarer struct {
	store *Store
	errs  []error
}

// NewDeclarer returns a Declarer for s.
func NewDeclarer(s *Store) *Declarer { return &Declarer{store: s} }

// Err joins the errors of all declarations so far (nil if none).
func (d *Declarer) Err() error { return errors.Join(d.errs...) }

// Param is a typed handle to a declared parameter. Get reads the current
// value, so a handle sees changes made through the parameter services.
type Param[T Kind] struct {
	store *Store
	name  string
	def   T
}

// Declare declares a statically typed parameter of type T with a default and
// options. Its error, if any, is kept in d; the handle then reads def.
func Declare[T Kind](d *Declarer, name string, def T, opts ...Option) *Param[T] {
	var desc Descriptor
	for _, o := range opts {
		o(&desc)
	}
	desc.Type, desc.DynamicTyping = typeOf[T](), false
	if _, err := d.store.Declare(name, ValueOf(def), desc); err != nil {
		d.errs = append(d.errs, err)
	}
	return &Param[T]{store: d.store, name: name, def: def}
}

// Name is the parameter's name.
func (p *Param[T]) Name() string { return p.name }

// Get returns the current value (the default if the declaration failed).
func (p *Param[T]) Get() T {
	if v, err := getAs[T](p.store, p.name); err == nil {
		return v
	}
	if v, ok := valueAs[T](ValueOf(p.def)); ok {
		return v
	}
	return p.def
}

// Set sets the parameter as a set request would.
func (p *Param[T]) Set(v T) Result {
	return p.store.SetAtomically(Parameter{Name: p.name, Value: ValueOf(v)})
}

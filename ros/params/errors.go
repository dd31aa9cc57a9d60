package params

import (
	"errors"
	"fmt"
)

// Errors callers can test with errors.Is. Every error of this package
// matches one of them.
var (
	ErrNotDeclared       = errors.New("params: parameter not declared")
	ErrAlreadyDeclared   = errors.New("params: parameter already declared")
	ErrInvalidName       = errors.New("params: invalid parameter name")
	ErrInvalidDescriptor = errors.New("params: invalid parameter descriptor")
	ErrReadOnly          = errors.New("params: parameter is read-only")
	ErrTypeMismatch      = errors.New("params: wrong parameter type")
	ErrOutOfRange        = errors.New("params: parameter value out of range")
	ErrUninitialized     = errors.New("params: parameter has no value")
	ErrRejected          = errors.New("params: parameter change rejected")
	ErrEmptyList         = errors.New("params: empty parameter list")    // an atomic set of nothing (as Jazzy)
	ErrInvalidValue      = errors.New("params: invalid parameter value") // a YAML value rcl cannot type
	ErrInvalidFile       = errors.New("params: invalid parameter file")  // YAML that is not a parameter file
)

// kindError is a message that matches a sentinel (and optionally wraps a
// cause) without repeating the sentinel's text.
type kindError struct {
	kind  error
	msg   string
	cause error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() []error {
	if e.cause != nil {
		return []error{e.kind, e.cause}
	}
	return []error{e.kind}
}

func errorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// TypeError reports a value of the wrong type for a parameter.
type TypeError struct {
	Want Type  // the parameter's type
	Got  Value // the value offered
}

func (e *TypeError) Error() string {
	msg := fmt.Sprintf("expected %s, got %s", e.Want, e.Got.describe())
	if e.Want == TypeDouble && e.Got.Type == TypeInteger {
		msg += fmt.Sprintf(" (write %d.0 for a double)", e.Got.IntegerValue)
	}
	return msg
}

// Is makes errors.Is(err, ErrTypeMismatch) true.
func (e *TypeError) Is(target error) bool { return target == ErrTypeMismatch }

// RangeError reports a number outside the parameter's range or off its step.
type RangeError struct {
	Got     Value
	Integer *IntegerRange       // set for integer parameters
	Float   *FloatingPointRange // set for double parameters
}

func (e *RangeError) Error() string {
	var r string
	if e.Integer != nil {
		r = fmt.Sprintf("[%d, %d]", e.Integer.From, e.Integer.To)
		if e.Integer.Step != 0 {
			r += fmt.Sprintf(" with step %d", e.Integer.Step)
		}
	} else if e.Float != nil {
		r = fmt.Sprintf("[%s, %s]", formatDouble(e.Float.From), formatDouble(e.Float.To))
		if e.Float.Step != 0 {
			r += " with step " + formatDouble(e.Float.Step)
		}
	}
	return fmt.Sprintf("%s is not in the range %s", e.Got.describe(), r)
}

// Is makes errors.Is(err, ErrOutOfRange) true.
func (e *RangeError) Is(target error) bool { return target == ErrOutOfRange }

// ParamError puts a parameter's name in front of an error about its value.
type ParamError struct {
	Name string
	Err  error
}

func (e *ParamError) Error() string { return fmt.Sprintf("parameter '%s': %v", e.Name, e.Err) }
func (e *ParamError) Unwrap() error { return e.Err }

// Source says where an override came from.
type Source struct {
	File string // the parameter file; empty for a -p rule
	Line int    // 1-based line in File; 0 when unknown
	Key  string // YAML key path ("robot1.dnetwork.ros__parameters.net.port") or the -p argument
}

// String is "file: key", or the -p argument alone.
func (s Source) String() string {
	switch {
	case s.File == "":
		return s.Key
	case s.Key == "":
		return s.File
	}
	return s.File + ": " + s.Key
}

// SourceError is an error about a value from a parameter file or a -p rule:
//
//	params/robot1.yaml: /dnetwork_1.ros__parameters.team_number: expected integer, got string "seventeen"
type SourceError struct {
	Source Source
	Err    error
}

func (e *SourceError) Error() string { return e.Source.String() + ": " + e.Err.Error() }
func (e *SourceError) Unwrap() error { return e.Err }

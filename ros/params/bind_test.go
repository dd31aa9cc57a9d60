package params

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// config is how a node binds its parameters: one typed handle per field.
type config struct {
	TeamID  *Param[int64]
	Name    *Param[string]
	Gain    *Param[float64]
	Enabled *Param[bool]
	Peers   *Param[[]string]
	Ports   *Param[[]int64]
	Weights *Param[[]float64]
	Flags   *Param[[]bool]
	Key     *Param[[]byte]
}

func declareConfig(d *Declarer) config {
	return config{
		TeamID:  Declare(d, "team_id", int64(0), Description("team number"), IntRange(0, 255, 1), ReadOnly()),
		Name:    Declare(d, "robot_name", "alpha", Constraints("lower case")),
		Gain:    Declare(d, "gain", 0.5, FloatRange(0, 1, 0)),
		Enabled: Declare(d, "enabled", true),
		Peers:   Declare(d, "net.peers", []string{}),
		Ports:   Declare(d, "net.ports", []int64{3838}),
		Weights: Declare(d, "weights", []float64{0.1}),
		Flags:   Declare(d, "flags", []bool{false}),
		Key:     Declare(d, "key", []byte("k")),
	}
}

func TestBind(t *testing.T) {
	o := &Overrides{}
	if err := o.LoadYAML("p.yaml", []byte("/r1/dn:\n  ros__parameters:\n    team_id: 7\n    net:\n      peers: [10.0.0.2, 10.0.0.3]\n")); err != nil {
		t.Fatal(err)
	}
	s := newStore(t, o.ForNode("/r1/dn")...)
	d := NewDeclarer(s)
	cfg := declareConfig(d)
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	if cfg.TeamID.Get() != 7 || cfg.Name.Get() != "alpha" || cfg.Gain.Get() != 0.5 || !cfg.Enabled.Get() ||
		!reflect.DeepEqual(cfg.Peers.Get(), []string{"10.0.0.2", "10.0.0.3"}) || !reflect.DeepEqual(cfg.Ports.Get(), []int64{3838}) ||
		!reflect.DeepEqual(cfg.Weights.Get(), []float64{0.1}) || !reflect.DeepEqual(cfg.Flags.Get(), []bool{false}) ||
		string(cfg.Key.Get()) != "k" {
		t.Errorf("config = %d %q %v %v %q %v %v %v %q", cfg.TeamID.Get(), cfg.Name.Get(), cfg.Gain.Get(), cfg.Enabled.Get(),
			cfg.Peers.Get(), cfg.Ports.Get(), cfg.Weights.Get(), cfg.Flags.Get(), cfg.Key.Get())
	}
	desc, _ := s.Describe([]string{"team_id", "robot_name", "gain"})
	want := []Descriptor{
		{Name: "team_id", Type: TypeInteger, Description: "team number", ReadOnly: true, IntegerRange: &IntegerRange{0, 255, 1}},
		{Name: "robot_name", Type: TypeString, AdditionalConstraints: "lower case"},
		{Name: "gain", Type: TypeDouble, FloatingPointRange: &FloatingPointRange{0, 1, 0}},
	}
	if !reflect.DeepEqual(desc, want) {
		t.Errorf("descriptors =\n%+v\nwant\n%+v", desc, want)
	}

	// Handles read changes made through the store, and set through it.
	if r := cfg.Gain.Set(0.75); !r.Successful || cfg.Gain.Get() != 0.75 {
		t.Errorf("Gain.Set: %+v, %v", r, cfg.Gain.Get())
	}
	if r := cfg.TeamID.Set(8); r.Successful || !errors.Is(r.Err, ErrReadOnly) {
		t.Errorf("TeamID.Set = %+v", r)
	}
	s.SetAtomically(Parameter{"net.peers", StringArray([]string{"x"})})
	if got := cfg.Peers.Get(); !reflect.DeepEqual(got, []string{"x"}) {
		t.Errorf("Peers = %q", got)
	}
	got := cfg.Peers.Get()
	got[0] = "changed"
	if cfg.Peers.Get()[0] != "x" || cfg.Peers.Name() != "net.peers" {
		t.Error("handle hands out the store's slice")
	}
}

func TestBindErrors(t *testing.T) {
	s := newStore(t,
		Override{Name: "team_id", Value: Integer(300), Source: Source{File: "p.yaml", Key: "dn.ros__parameters.team_id"}},
		Override{Name: "gain", Value: Integer(1), Source: Source{Key: "-p gain:=1"}},
	)
	d := NewDeclarer(s)
	cfg := declareConfig(d)
	Declare(d, "robot_name", "again")
	err := d.Err()
	want := []string{
		"p.yaml: dn.ros__parameters.team_id: integer 300 is not in the range [0, 255] with step 1",
		"-p gain:=1: expected double, got integer 1 (write 1.0 for a double)",
		"parameter 'robot_name' is already declared",
	}
	if err == nil || !reflect.DeepEqual(strings.Split(err.Error(), "\n"), want) {
		t.Fatalf("Err =\n%v\nwant\n%s", err, strings.Join(want, "\n"))
	}
	if !errors.Is(err, ErrOutOfRange) || !errors.Is(err, ErrTypeMismatch) || !errors.Is(err, ErrAlreadyDeclared) {
		t.Error("error kinds lost")
	}
	// Handles of failed declarations read their defaults.
	if cfg.TeamID.Get() != 0 || cfg.Gain.Get() != 0.5 {
		t.Errorf("defaults = %d %v", cfg.TeamID.Get(), cfg.Gain.Get())
	}
	if NewDeclarer(s).Err() != nil {
		t.Error("a fresh declarer has an error")
	}
}

func TestValueOf(t *testing.T) {
	for _, tc := range []struct {
		got, want Value
	}{
		{ValueOf(true), Bool(true)}, {ValueOf(int64(3)), Integer(3)}, {ValueOf(1.5), Double(1.5)},
		{ValueOf("s"), String("s")}, {ValueOf([]byte{1}), ByteArray([]byte{1})},
		{ValueOf([]bool{true}), BoolArray([]bool{true})}, {ValueOf([]int64{1}), IntegerArray([]int64{1})},
		{ValueOf([]float64{1}), DoubleArray([]float64{1})}, {ValueOf([]string{"a"}), StringArray([]string{"a"})},
	} {
		if !tc.got.Equal(tc.want) {
			t.Errorf("ValueOf = %s, want %s", tc.got.describe(), tc.want.describe())
		}
	}
	if _, ok := valueAs[string](Integer(1)); ok {
		t.Error("valueAs converted an integer to a string")
	}
}

package qemutest

import "testing"

func TestActive(t *testing.T) {
	t.Setenv(Env, "")
	if Active() {
		t.Fatal("active with an empty variable")
	}
	t.Setenv(Env, "1")
	if !Active() {
		t.Fatalf("not active with %s=1", Env)
	}
}

func TestSkip(t *testing.T) {
	t.Setenv(Env, "1")
	ran := false
	t.Run("qemu", func(t *testing.T) {
		Skip(t, "a reason")
		ran = true
	})
	if ran {
		t.Fatal("Skip did not skip under qemu")
	}
	t.Setenv(Env, "")
	t.Run("native", func(t *testing.T) {
		Skip(t, "a reason")
		ran = true
	})
	if !ran {
		t.Fatal("Skip skipped without qemu")
	}
}

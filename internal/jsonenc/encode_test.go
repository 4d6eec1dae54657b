package jsonenc_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/upkg/upkg/internal/jsonenc"
)

type text string

func (t text) MarshalText() ([]byte, error) { return []byte("<" + string(t) + ">"), nil }

type ptrMarshaler struct{ N int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) {
	return []byte(` { "n" : [1, 2] , "s":"a<b" } `), nil
}

type zeroer struct{ X int }

func (z zeroer) IsZero() bool { return z.X == 42 }

type Inner struct {
	A      int    `json:"a"`
	Shared string `json:"shared"`
	Deep   string
}

type inner2 struct {
	Deep   string
	A2     int `json:"a"`
	Shared string
	Other  int `json:"other,omitempty"`
}

type Outer struct {
	Inner
	*inner2
	Name  string             `json:"name"`
	Skip  string             `json:"-"`
	Dash  string             `json:"-,"`
	Empty []int              `json:"empty,omitempty"`
	Nil   []int              `json:"nil"`
	Bytes []byte             `json:"bytes"`
	Arr   [3]uint8           `json:"arr"`
	M     map[string]any     `json:"m"`
	IM    map[int]string     `json:"im,omitempty"`
	TM    map[text]int       `json:"tm"`
	F32   float32            `json:"f32"`
	F64   []float64          `json:"f64"`
	Z     zeroer             `json:"z,omitzero"`
	Z2    zeroer             `json:"z2,omitzero"`
	T     text               `json:"t"`
	PM    ptrMarshaler       `json:"pm"`
	PPM   *ptrMarshaler      `json:"ppm"`
	Raw   jsonenc.RawMessage `json:"raw"`
	JRaw  json.RawMessage    `json:"jraw"`
	Any   any                `json:"any"`
	Ptr   *int               `json:"ptr,omitempty"`
	unexp int
	Str   string  `json:"str"`
	Neg0  float64 `json:"neg0,omitempty"`
	Bool  bool    `json:",omitempty"`
	Iface any     `json:"iface,omitempty"`
}

func TestMatchesEncodingJSON(t *testing.T) {
	seven := 7
	vals := []any{
		nil, true, 0, -12, uint64(math.MaxUint64), 1.5, 1e21, 1e-7, 123456789.0, float32(3.14), float32(1e-7), -0.0,
		"plain", "esc \" \\ \n \r \t \b \f \x01 \x1f < > & \u2028 \u2029 é 日本 \xff\xfe end",
		[]any{1, "a", nil, []int{}, map[string]int{}},
		map[string]any{"b": 1, "a": []string{"x"}, "c": nil},
		Outer{
			Inner:  Inner{A: 1, Shared: "inner", Deep: "d"},
			inner2: &inner2{Shared: "hidden", Other: 5, Deep: "x", A2: 3},
			Name:   "n", Skip: "s", Dash: "dash", Nil: nil, Bytes: []byte("hello, world!"),
			Arr: [3]uint8{1, 2, 3}, M: map[string]any{"z": 1.25, "y": []byte{1}},
			IM: map[int]string{10: "ten", -1: "minus", 2: "two"}, TM: map[text]int{"k": 1},
			F32: 0.1, F64: []float64{0.1, 1e20, 1e21, 5e-324, 1e-6, 1e-5, 100},
			Z: zeroer{42}, Z2: zeroer{1}, T: "tee", PPM: &ptrMarshaler{}, Raw: jsonenc.RawMessage(`{"a" : 1}`),
			JRaw: json.RawMessage(`[ 1 ]`), Any: &Inner{A: 9}, Ptr: &seven, unexp: 3, Str: "<&>", Neg0: math.Copysign(0, -1),
		},
		&Outer{},
		[]*Outer{nil},
		struct {
			A []Inner `json:"a"`
			B map[string]*Inner
		}{A: []Inner{{A: 1}}, B: map[string]*Inner{"x": nil, "y": {Deep: "q"}}},
	}
	for i, v := range vals {
		want, werr := json.Marshal(v)
		jsonenc.SetCompact(true)
		got, gerr := jsonenc.Marshal(v)
		jsonenc.SetCompact(false)
		if (werr != nil) != (gerr != nil) {
			t.Errorf("value %d: error %v, encoding/json %v", i, gerr, werr)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("value %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

func TestUnsupported(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(1), make(chan int), func() {}} {
		if _, err := jsonenc.Encode(v); err == nil {
			t.Errorf("%T: no error", v)
		}
	}
}

//go:build js && wasm

// Command wasm is upkg compiled to WebAssembly for the page (web/): it runs
// inside a Web Worker and exposes internal/webapi to JavaScript as the global
// object upkg. The page builds it once per module, each with the format
// families its build tags select (web.Modules; the readers of all formats
// do not fit the page's size budget in one module):
//
//	GOOS=js GOARCH=wasm go build -tags upkg_only,upkg_uasset -trimpath -ldflags='-s -w' -gcflags=github.com/upkg/upkg/...=-l ./wasm
//
// (upkg serve and upkg web do that themselves, and cache the result).
// Without tags it links every format.
//
// Ground rules for this file: it only converts between JavaScript values and
// Go ones. Every function returns an object, {json: "..."} (plus data: a
// Uint8Array for bytes) or {error: "..."}; nothing panics out of a call, so
// the instance survives any file and takes the next one.
package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"syscall/js"

	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/internal/jsonenc"
	"github.com/upkg/upkg/internal/webapi"
)

var session = webapi.NewSession()

func main() {
	api := map[string]any{
		"version":           fn(version),
		"plan":              fn(plan),
		"openPackage":       fn(openPackage),
		"openContainer":     fn(openContainer),
		"openFromContainer": fn(openFromContainer),
		"containerFile":     fn(containerFile),
		"packageFiles":      fn(packageFiles),
		"hex":               fn(hex),
		"thumbnail":         fn(thumbnail),
		"props":             fn(props),
		"content":           fn(content),
		"dump":              fn(dump),
		"close":             fn(closeHandle),
	}
	js.Global().Set("upkg", js.ValueOf(api))
	if ready := js.Global().Get("upkgReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// fn wraps a handler so that argument mistakes and panics become
// {error: ...} results instead of killing the instance.
func fn(h func(args []js.Value) (any, []byte, error)) js.Func {
	return js.FuncOf(func(this js.Value, args []js.Value) any { return invoke(h, args) })
}

func invoke(h func(args []js.Value) (any, []byte, error), args []js.Value) (ret any) {
	defer func() {
		if r := recover(); r != nil {
			ret = errResult(fmt.Errorf("internal error (please report this file): %v\n%s", r, debug.Stack()))
		}
	}()
	v, data, err := h(args)
	if err != nil {
		return errResult(err)
	}
	var s string
	if raw, ok := v.(jsonenc.RawMessage); ok {
		s = string(raw)
	} else {
		b, err := jsonenc.Marshal(v)
		if err != nil {
			return errResult(err)
		}
		s = string(b)
	}
	out := map[string]any{"json": s}
	if data != nil {
		u := js.Global().Get("Uint8Array").New(len(data))
		js.CopyBytesToJS(u, data)
		out["data"] = u
	}
	return js.ValueOf(out)
}

func errResult(err error) js.Value {
	return js.ValueOf(map[string]any{"error": err.Error()})
}

// arg checks the type of argument i, so that a page bug reads as an error
// message rather than a panic inside syscall/js.
func arg(args []js.Value, i int, t js.Type) (js.Value, error) {
	if i >= len(args) || args[i].Type() != t {
		return js.Undefined(), fmt.Errorf("argument %d: want a %v", i+1, t)
	}
	return args[i], nil
}

// handleIndex reads the (handle, index) pair most calls take.
func handleIndex(args []js.Value) (h, i int, err error) {
	hv, err := arg(args, 0, js.TypeNumber)
	if err != nil {
		return 0, 0, err
	}
	iv, err := arg(args, 1, js.TypeNumber)
	if err != nil {
		return 0, 0, err
	}
	return hv.Int(), iv.Int(), nil
}

// handlePath reads the (handle, path) arguments of the calls that name a
// file inside an open container.
func handlePath(args []js.Value) (h int, path string, err error) {
	hv, err := arg(args, 0, js.TypeNumber)
	if err != nil {
		return 0, "", err
	}
	pv, err := arg(args, 1, js.TypeString)
	if err != nil {
		return 0, "", err
	}
	return hv.Int(), pv.String(), nil
}

func version(args []js.Value) (any, []byte, error) {
	return map[string]any{"go": runtime.Version()}, nil, nil
}

func plan(args []js.Value) (any, []byte, error) {
	a, err := arg(args, 0, js.TypeObject)
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, a.Length())
	for i := range names {
		names[i] = a.Index(i).String()
	}
	groups, orphans, mappings := webapi.Plan(names)
	if groups == nil {
		groups = []webapi.Group{}
	}
	return map[string]any{"groups": groups, "orphans": orphans, "mappings": mappings}, nil, nil
}

// str returns the string property k of object o, "" when absent.
func str(o js.Value, k string) string {
	if v := o.Get(k); v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// options reads the page's settings object {engine, aes_key, mappings}
// (argument i). The page's objects are read field by field rather than as
// JSON, which keeps encoding/json's decoder out of the WebAssembly.
func options(args []js.Value, i int) (webapi.OpenOptions, error) {
	a, err := arg(args, i, js.TypeObject)
	if err != nil {
		return webapi.OpenOptions{}, err
	}
	return webapi.OpenOptions{Engine: str(a, "engine"), AESKey: str(a, "aes_key"), Mappings: str(a, "mappings")}, nil
}

// openPackage(main string, files {name: Uint8Array}, settings object).
func openPackage(args []js.Value) (any, []byte, error) {
	m, err := arg(args, 0, js.TypeString)
	if err != nil {
		return nil, nil, err
	}
	obj, err := arg(args, 1, js.TypeObject)
	if err != nil {
		return nil, nil, err
	}
	keys := js.Global().Get("Object").Call("keys", obj)
	files := make(map[string][]byte, keys.Length())
	for i := range keys.Length() {
		k := keys.Index(i).String()
		v := obj.Get(k)
		b := make([]byte, v.Get("length").Int())
		js.CopyBytesToGo(b, v)
		files[k] = b
	}
	oo, err := options(args, 2)
	if err != nil {
		return nil, nil, err
	}
	res, err := session.OpenPackage(m.String(), files, oo)
	return res, nil, err
}

func openContainer(args []js.Value) (any, []byte, error) {
	p, err := arg(args, 0, js.TypeString)
	if err != nil {
		return nil, nil, err
	}
	oo, err := options(args, 1)
	if err != nil {
		return nil, nil, err
	}
	res, err := session.OpenContainer(p.String(), oo)
	return res, nil, err
}

func openFromContainer(args []js.Value) (any, []byte, error) {
	h, p, err := handlePath(args)
	if err != nil {
		return nil, nil, err
	}
	res, err := session.OpenFromContainer(h, p)
	return res, nil, err
}

func containerFile(args []js.Value) (any, []byte, error) {
	h, p, err := handlePath(args)
	if err != nil {
		return nil, nil, err
	}
	data, err := session.ContainerFile(h, p)
	return map[string]int{"size": len(data)}, data, err
}

// packageFiles(handle, path) reads a package and its companions out of a
// container for another module to open: {names, sizes} and the files' bytes
// one after the other in data.
func packageFiles(args []js.Value) (any, []byte, error) {
	h, p, err := handlePath(args)
	if err != nil {
		return nil, nil, err
	}
	names, files, err := session.PackageFiles(h, p)
	if err != nil {
		return nil, nil, err
	}
	sizes := make([]int, len(files))
	n := 0
	for i, f := range files {
		sizes[i] = len(f)
		n += len(f)
	}
	data := make([]byte, 0, n)
	for _, f := range files {
		data = append(data, f...)
	}
	return map[string]any{"names": names, "sizes": sizes}, data, nil
}

// hex(handle, {kind, name, index}).
func hex(args []js.Value) (any, []byte, error) {
	h, err := arg(args, 0, js.TypeNumber)
	if err != nil {
		return nil, nil, err
	}
	r, err := arg(args, 1, js.TypeObject)
	if err != nil {
		return nil, nil, err
	}
	req := webapi.HexRequest{Kind: str(r, "kind"), Name: str(r, "name")}
	if v := r.Get("index"); v.Type() == js.TypeNumber {
		req.Index = v.Int()
	}
	res, err := session.Hex(h.Int(), req)
	if err != nil {
		return nil, nil, err
	}
	return res, res.Data, nil
}

func thumbnail(args []js.Value) (any, []byte, error) {
	h, i, err := handleIndex(args)
	if err != nil {
		return nil, nil, err
	}
	t, data, err := session.Thumbnail(h, i)
	return t, data, err
}

// content(handle, export) converts an export's content (texture → PNG …).
func content(args []js.Value) (any, []byte, error) {
	h, i, err := handleIndex(args)
	if err != nil {
		return nil, nil, err
	}
	info, data, err := session.Content(h, i)
	return info, data, err
}

func props(args []js.Value) (any, []byte, error) {
	h, i, err := handleIndex(args)
	if err != nil {
		return nil, nil, err
	}
	out, err := session.Props(h, i)
	return out, nil, err
}

func dump(args []js.Value) (any, []byte, error) {
	h, err := arg(args, 0, js.TypeNumber)
	if err != nil {
		return nil, nil, err
	}
	out, err := session.Dump(h.Int())
	return out, nil, err
}

func closeHandle(args []js.Value) (any, []byte, error) {
	h, err := arg(args, 0, js.TypeNumber)
	if err != nil {
		return nil, nil, err
	}
	session.Close(h.Int())
	return map[string]bool{"closed": true}, nil, nil
}

// Keep the inspect registry linked in even before any format registers.
var _ = inspect.OpenPackage

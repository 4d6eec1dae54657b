package webapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// HexRequest names the byte range the hex view should show.
type HexRequest struct {
	Kind  string `json:"kind"`  // "section", "export", "thumbnail" or "file"
	Name  string `json:"name"`  // section name; for "file", "" (main) or a companion extension
	Index int    `json:"index"` // export or thumbnail index (0-based)
}

// HexResult is a window of a file with the requested range highlighted.
type HexResult struct {
	Title    string `json:"title"`
	File     string `json:"file"`      // name of the file the bytes come from
	FileSize int64  `json:"file_size"` // its size
	Base     int64  `json:"base"`      // file offset of Data[0]
	Start    int64  `json:"start"`     // highlighted range, file offsets
	Size     int64  `json:"size"`
	Note     string `json:"note,omitempty"`
	Data     []byte `json:"-"`
}

// Hex returns the bytes around the range req names.
func (s *Session) Hex(id int, req HexRequest) (res *HexResult, err error) {
	defer guard("hex", "", &err)
	h, err := s.get(id)
	if err != nil {
		return nil, &Error{Op: "hex", Err: err}
	}
	if h.pkg == nil {
		return nil, &Error{Op: "hex", File: h.name, Err: errors.New("not a package")}
	}
	p := h.pkg
	fail := func(format string, args ...any) (*HexResult, error) {
		return nil, &Error{Op: "hex", File: h.name, Err: fmt.Errorf(format, args...)}
	}
	switch req.Kind {
	case "file":
		f, ok := h.files[strings.ToLower(req.Name)]
		if !ok {
			return fail("no %q file was read with this package", req.Name)
		}
		return window(f, 0, 0, f.name)
	case "section":
		for _, sec := range p.Sections {
			if sec.Name != req.Name {
				continue
			}
			title := fmt.Sprintf("Section %s", sec.Name)
			f, ok := h.files[strings.ToLower(sec.File)]
			if ok && sec.Offset >= 0 && sec.Size >= 0 && sec.Offset <= f.size && sec.Size <= f.size-sec.Offset {
				return window(f, sec.Offset, sec.Size, title)
			}
			if p.Raw != nil {
				b, err := p.Raw(sec.Name)
				if err != nil {
					return fail("section %s: %w", sec.Name, err)
				}
				return detached(b, sec.Offset, title, "These bytes come from the reader (the section does not map onto a dropped file); offsets are relative to the section's start."), nil
			}
			return fail("section %s (offset %d, size %d) lies outside %s", sec.Name, sec.Offset, sec.Size, fileLabel(h, sec.File))
		}
		return fail("no section named %q", req.Name)
	case "export":
		if req.Index < 0 || req.Index >= len(p.Exports) {
			return fail("no export %d (the package has %d)", req.Index, len(p.Exports))
		}
		e := p.Exports[req.Index]
		title := fmt.Sprintf("Export %d %s", req.Index+1, e.Name)
		var want []byte
		if p.ExportData != nil {
			want, _ = p.ExportData(req.Index)
		}
		off := e.SerialOffset
		note := ""
		f, ok := h.files[strings.ToLower(e.File)]
		if ok && strings.EqualFold(e.File, ".uexp") && off >= h.files[""].size {
			// Cooked packages count .uexp offsets from the start of the
			// .uasset: the .uexp continues the header.
			off -= h.files[""].size
			note = fmt.Sprintf("SerialOffset 0x%X counts from the start of the .uasset (%d bytes); the .uexp continues it, so the data starts at 0x%X in the .uexp.", e.SerialOffset, h.files[""].size, off)
		}
		if ok && off >= 0 && e.SerialSize >= 0 && off <= f.size && e.SerialSize <= f.size-off {
			if want == nil || matches(f, off, want) {
				res, err := window(f, off, e.SerialSize, title)
				if res != nil && note != "" {
					res.Note = strings.TrimSpace(note + " " + res.Note)
				}
				return res, err
			}
		}
		if want != nil {
			return detached(want, 0, title, "The export's bytes do not sit at SerialOffset of a dropped file (for example a Zen package); shown as the reader returned them, offsets relative to the export's start."), nil
		}
		return fail("export %d %s: serial range %d+%d lies outside %s", req.Index+1, e.Name, e.SerialOffset, e.SerialSize, fileLabel(h, e.File))
	case "thumbnail":
		if req.Index < 0 || req.Index >= len(p.Thumbnails) {
			return fail("no thumbnail %d", req.Index)
		}
		t := p.Thumbnails[req.Index]
		f := h.files[""]
		if t.Offset < 0 || t.Size < 0 || t.Offset > f.size || t.Size > f.size-t.Offset {
			return fail("thumbnail %d lies outside the file", req.Index)
		}
		return window(f, t.Offset, t.Size, "Thumbnail of "+t.Object)
	}
	return fail("unknown hex request kind %q", req.Kind)
}

func fileLabel(h *handle, ext string) string {
	if f, ok := h.files[strings.ToLower(ext)]; ok {
		return fmt.Sprintf("%s (%d bytes)", f.name, f.size)
	}
	if ext == "" {
		return "the file"
	}
	return "the " + ext + " file, which was not dropped"
}

// matches reports whether f holds want at off.
func matches(f sourceFile, off int64, want []byte) bool {
	if int64(len(want)) > f.size-off {
		return false
	}
	got := make([]byte, len(want))
	if _, err := f.r.ReadAt(got, off); err != nil && !errors.Is(err, io.EOF) {
		return false
	}
	return bytes.Equal(got, want)
}

// window reads the part of f the hex view shows for the range [start,
// start+size): the whole file when it fits in maxHexWindow, otherwise the
// range with hexContext bytes of context before it.
func window(f sourceFile, start, size int64, title string) (*HexResult, error) {
	base, end := int64(0), f.size
	var note string
	if f.size > maxHexWindow {
		base = max(0, start-hexContext)
		end = min(f.size, base+maxHexWindow)
		note = fmt.Sprintf("The file is %d bytes; showing bytes %d to %d around the range.", f.size, base, end)
		if start+size > end {
			note += " The range continues past the end of this window."
		}
	}
	data := make([]byte, end-base)
	if n, err := f.r.ReadAt(data, base); err != nil && !(errors.Is(err, io.EOF) && int64(n) == end-base) {
		return nil, &Error{Op: "hex", File: f.name, Err: fmt.Errorf("reading bytes %d to %d: %w", base, end, err)}
	}
	return &HexResult{Title: title, File: f.name, FileSize: f.size, Base: base, Start: start, Size: size, Note: note, Data: data}, nil
}

// detached shows bytes that do not come from a dropped file at a known place.
func detached(b []byte, base int64, title, note string) *HexResult {
	if len(b) > maxHexWindow {
		b = b[:maxHexWindow]
		note += fmt.Sprintf(" Showing the first %d bytes.", maxHexWindow)
	}
	return &HexResult{Title: title, File: "(decoded)", FileSize: int64(len(b)), Base: base, Start: base, Size: int64(len(b)), Note: note, Data: b}
}

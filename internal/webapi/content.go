package webapi

import (
	"errors"
	"fmt"

	"github.com/upkg/upkg/internal/inspect"
)

// ContentInfo describes a file made from an export's content (what
// `upkg export` writes): a texture as PNG, a sound as WAV, a music module,
// script source.
type ContentInfo struct {
	Export int    `json:"export"`
	Object string `json:"object"`
	Class  string `json:"class"`
	Name   string `json:"name"` // suggested file name
	Kind   string `json:"kind"` // "texture", "sound", "music", "script", "text", "raw"
	Note   string `json:"note,omitempty"`
	Size   int    `json:"size"`
}

// errFound stops the exporter once the export asked for was emitted.
var errFound = errors.New("found")

// Content converts the content of export i with the package format's
// exporter.
func (s *Session) Content(id, i int) (info ContentInfo, data []byte, err error) {
	defer guard("content", "", &err)
	h, err := s.get(id)
	if err != nil {
		return info, nil, &Error{Op: "content", Err: err}
	}
	fail := func(err error) (ContentInfo, []byte, error) {
		return info, nil, &Error{Op: "content", File: h.name, Err: err}
	}
	if h.pkg == nil || i < 0 || i >= len(h.pkg.Exports) {
		return fail(fmt.Errorf("no export %d", i))
	}
	if h.reopen == nil {
		return fail(errors.New("content of packages inside containers is not available in the page yet"))
	}
	e := h.pkg.Exports[i]
	var found bool
	var emitErr error
	err = inspect.ExportContent(h.reopen(), h.pkgOpts, inspect.ExportFilter{Export: e.Path}, func(cf inspect.ContentFile, err error) error {
		if cf.Export != i {
			return nil
		}
		found = true
		if err != nil {
			emitErr = err
			return errFound
		}
		info = ContentInfo{Export: i, Object: cf.Object, Class: cf.Class, Name: cf.Name, Kind: cf.Kind, Note: cf.Note, Size: len(cf.Data)}
		data = cf.Data
		return errFound
	})
	switch {
	case emitErr != nil:
		return fail(emitErr)
	case found:
		return info, data, nil
	case errors.Is(err, inspect.ErrNoExporter):
		return fail(fmt.Errorf("converting content is not available for %s packages yet", h.pkg.Format))
	case err != nil:
		return fail(err)
	}
	return fail(fmt.Errorf("export %d (%s) has no content upkg converts", i+1, e.Name))
}

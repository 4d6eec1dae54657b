//go:build upkg_only && !upkg_pak && !upkg_iostore

package webapi

// hasContainers: see containers.go.
const hasContainers = false

//go:build !upkg_only || upkg_pak || upkg_iostore

package webapi

// hasContainers reports a build that reads containers (.pak, .utoc): the
// CLI's and the page's pak and iostore modules. The page's uasset and
// legacy modules read dropped packages only; there the container calls
// fail at once and the compiler leaves out what they would reach (opening
// files on the module's file system, which links the os package's file
// types and, through their FileInfo, time formatting: 5 KB).
const hasContainers = true

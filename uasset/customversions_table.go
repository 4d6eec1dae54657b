package uasset

// engineCustomVersions returns the custom versions a release's packages
// carry (filled in by the generated table).
func engineCustomVersions(name string) []CustomVersion {
	return nil
}

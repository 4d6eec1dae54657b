#!/usr/bin/env bash
# Regenerates cmd/upkg/default.pgo, the CPU profile that `go build`,
# `go install` and `go run` use on their own (Go 1.21+ takes default.pgo from
# the main package's folder) to optimize the upkg binary for what it spends
# its time on: hot calls are inlined past the usual size limit, and the like.
# The profile is of verify over the whole shared corpus, run in process by
# BenchmarkVerifyCorpus (the walk, every format's checks, the codecs).
# Regenerate it after large changes to those paths; a stale profile still
# builds, it just guides less.
#
#   bench/pgo.sh            (N=150 passes over the corpus, ~20 s plus the build)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test ./internal/inspect -run '^$' -bench '^BenchmarkVerifyCorpus$' -benchtime "${N:-150}x" \
	-o "$tmp/inspect.test" -cpuprofile "$tmp/cpu.pprof" | tee "$tmp/out"
# Without the corpus the benchmark skips and the profile would be empty.
if ! grep -q '^BenchmarkVerifyCorpus' "$tmp/out"; then
	echo "bench/pgo.sh: the benchmark did not run (is ../shared/corpus there?); default.pgo left as it was" >&2
	exit 1
fi
mv "$tmp/cpu.pprof" cmd/upkg/default.pgo
ls -l cmd/upkg/default.pgo

#!/usr/bin/env bash
# Compares `upkg verify` over a folder (default: the whole shared corpus) with
# `cat` of the same files, side by side in one run, and reports the ratio and
# upkg's peak RSS. Both runs are warm (the files are read once first).
# With BASE set to another upkg binary (say one built from an older commit),
# that binary is timed in the same run too, for a before/after ratio.
#
#   bench/verify_vs_cat.sh [DIR] [extra verify flags...]
#   BASE=/tmp/upkg-old bench/verify_vs_cat.sh ../shared/corpus --aes-key KEYS
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus}
shift || true
bin=$(mktemp -d)/upkg
# Built as on a machine with Go and nothing else (no C compiler: cgo off, a
# static binary). With a C compiler present, `go build` links the C library
# dynamically for package net's resolver, which verify never uses, and
# every start pays ~0.9 ms more for the dynamic loader (measured here).
CGO_ENABLED=0 go build -o "$bin" ./cmd/upkg

mapfile -d '' files < <(find "$dir" -type f -print0)
bytes=$(cat "${files[@]}" | wc -c)  # warms the page cache too

t0=$(date +%s.%N)
for i in 1 2 3; do cat "${files[@]}" >/dev/null; done
t1=$(date +%s.%N)
cat_s=$(echo "($t1 - $t0) / 3" | bc -l)

t0=$(date +%s.%N)
for i in 1 2 3; do "$bin" verify --json "$@" "$dir" >/dev/null || true; done
t1=$(date +%s.%N)
upkg_s=$(echo "($t1 - $t0) / 3" | bc -l)

if [[ -n ${BASE:-} ]]; then
	t0=$(date +%s.%N)
	for i in 1 2 3; do "$BASE" verify --json "$@" "$dir" >/dev/null || true; done
	t1=$(date +%s.%N)
	base_s=$(echo "($t1 - $t0) / 3" | bc -l)
	base_rss_kb=$( { /usr/bin/time -f "%M" "$BASE" verify --json "$@" "$dir" >/dev/null; } 2>&1 | tail -1 || true)
fi

rss_kb=$( { /usr/bin/time -f "%M" "$bin" verify --json "$@" "$dir" >/dev/null; } 2>&1 | tail -1 || true)
summary=$("$bin" verify --json "$@" "$dir" | tail -1 || true)

printf 'machine: %s, %s cores\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)"
printf 'files: %d, bytes: %d (%.1f MB)\n' "${#files[@]}" "$bytes" "$(echo "$bytes/1000000" | bc -l)"
printf 'cat:         %.3f s  (%.0f MB/s)\n' "$cat_s" "$(echo "$bytes/1000000/$cat_s" | bc -l)"
printf 'upkg verify: %.3f s  (%.0f MB/s)\n' "$upkg_s" "$(echo "$bytes/1000000/$upkg_s" | bc -l)"
printf 'ratio verify/cat: %.2fx\n' "$(echo "$upkg_s/$cat_s" | bc -l)"
printf 'upkg verify peak RSS: %.1f MB\n' "$(echo "$rss_kb/1024" | bc -l)"
if [[ -n ${BASE:-} ]]; then
	printf 'BASE verify: %.3f s  (%.2fx cat, peak RSS %.1f MB); this one is %.2fx faster\n' "$base_s" "$(echo "$base_s/$cat_s" | bc -l)" "$(echo "$base_rss_kb/1024" | bc -l)" "$(echo "$base_s/$upkg_s" | bc -l)"
fi
printf 'verify summary: %s\n' "$summary"

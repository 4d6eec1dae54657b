#!/usr/bin/env bash
# Compares `upkg verify` over a folder (default: the whole shared corpus) with
# `cat` of the same files, side by side in one run, and reports the ratio and
# upkg's peak RSS.
#
# The run is made of ROUNDS rounds (default 7). Each round reads every file
# once (a warm pass), then times one `cat` of them all and one `upkg verify`,
# back to back, so that both find the page cache in the same state: on a
# machine whose kernel reclaims idle page cache as it goes (DAMON reclaim on
# the project's VMs evicts a few percent of the corpus per second), a
# `verify` timed long after the warm pass would read some files from disk and
# `cat` none. Reported: the median over the rounds of each time and of the
# per-round ratio, with the lowest and highest ratio.
# With BASE set to another upkg binary (say one built from an older commit),
# that binary is timed in each round too, for a before/after ratio.
#
#   bench/verify_vs_cat.sh [DIR] [extra verify flags...]
#   BASE=/tmp/upkg-old ROUNDS=9 bench/verify_vs_cat.sh ../shared/corpus --aes-key KEYS
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus}
shift || true
rounds=${ROUNDS:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/upkg
# Built as on a machine with Go and nothing else (no C compiler: cgo off, a
# static binary). With a C compiler present, `go build` links the C library
# dynamically for package net's resolver, which verify never uses, and
# every start pays ~0.9 ms more for the dynamic loader (measured here).
CGO_ENABLED=0 go build -o "$bin" ./cmd/upkg

mapfile -d '' files < <(find "$dir" -type f -print0)
bytes=$(cat "${files[@]}" | wc -c)

# now prints the time in microseconds (bash's clock: no process started).
now() { local t=${EPOCHREALTIME/[.,]/}; echo "$t"; }
# median of its arguments (numbers), by sort -g.
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END{print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
# cpu sets cpu_ms to the processor time (user + system, in milliseconds)
# that the shell's finished children have used so far. It runs in the
# shell itself: in a subshell (as in $(...)) the times builtin would report
# the subshell's children.
cpu_file=$tmp/times
cpu() {
	local user sys m
	times >"$cpu_file"
	{ read -r _ && read -r user sys; } <"$cpu_file" # children: "0m1.234s 0m0.056s"
	cpu_ms=0
	for m in "$user" "$sys"; do
		local min=${m%%m*} sec=${m#*m}
		sec=${sec%s}
		cpu_ms=$((cpu_ms + min * 60000 + 10#${sec/[.,]/}))
	done
}

cat_us=() upkg_us=() base_us=() ratios=() base_ratios=() cat_cpu=() upkg_cpu=() base_cpu=()
for ((r = 0; r < rounds; r++)); do
	cat "${files[@]}" >/dev/null # the warm pass
	cpu && c0=$cpu_ms
	t0=$(now)
	cat "${files[@]}" >/dev/null
	t1=$(now)
	cpu && c1=$cpu_ms
	"$bin" verify --json "$@" "$dir" >/dev/null || true
	t2=$(now)
	cpu && c2=$cpu_ms
	cat_us+=($((t1 - t0))) upkg_us+=($((t2 - t1)))
	cat_cpu+=($((c1 - c0))) upkg_cpu+=($((c2 - c1)))
	ratios+=("$(echo "($t2 - $t1) / ($t1 - $t0)" | bc -l)")
	if [[ -n ${BASE:-} ]]; then
		cat "${files[@]}" >/dev/null
		cpu && c0=$cpu_ms
		t0=$(now)
		"$BASE" verify --json "$@" "$dir" >/dev/null || true
		t1=$(now)
		cpu && c1=$cpu_ms
		base_us+=($((t1 - t0))) base_cpu+=($((c1 - c0)))
		base_ratios+=("$(echo "($t1 - $t0) / ${cat_us[-1]}" | bc -l)")
	fi
done
cat_s=$(echo "$(median "${cat_us[@]}") / 1000000" | bc -l)
upkg_s=$(echo "$(median "${upkg_us[@]}") / 1000000" | bc -l)
sorted=($(printf '%s\n' "${ratios[@]}" | sort -g))

rss_kb=$( { /usr/bin/time -f "%M" "$bin" verify --json "$@" "$dir" >/dev/null; } 2>&1 | tail -1 || true)
summary=$("$bin" verify --json "$@" "$dir" | tail -1 || true)

printf 'machine: %s, %s cores\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)"
printf 'files: %d, bytes: %d (%.1f MB), rounds: %d\n' "${#files[@]}" "$bytes" "$(echo "$bytes/1000000" | bc -l)" "$rounds"
printf 'cat:         %.3f s  (%.0f MB/s, median)\n' "$cat_s" "$(echo "$bytes/1000000/$cat_s" | bc -l)"
printf 'upkg verify: %.3f s  (%.0f MB/s, median)\n' "$upkg_s" "$(echo "$bytes/1000000/$upkg_s" | bc -l)"
printf 'ratio verify/cat: %.2fx (median of rounds; lowest %.2fx, highest %.2fx)\n' "$(median "${ratios[@]}")" "${sorted[0]}" "${sorted[-1]}"
# Processor time is the work done, whether or not it ran on several cores at
# once (verify's runs on all of them; cat's on one).
printf 'processor time (user + system, median): cat %d ms, upkg verify %d ms\n' "$(median "${cat_cpu[@]}")" "$(median "${upkg_cpu[@]}")"
printf 'upkg verify peak RSS: %.1f MB\n' "$(echo "$rss_kb/1024" | bc -l)"
if [[ -n ${BASE:-} ]]; then
	base_s=$(echo "$(median "${base_us[@]}") / 1000000" | bc -l)
	base_rss_kb=$( { /usr/bin/time -f "%M" "$BASE" verify --json "$@" "$dir" >/dev/null; } 2>&1 | tail -1 || true)
	printf 'BASE verify: %.3f s  (%.2fx cat, median of rounds; processor time %d ms; peak RSS %.1f MB); this one is %.2fx faster\n' "$base_s" "$(median "${base_ratios[@]}")" "$(median "${base_cpu[@]}")" "$(echo "$base_rss_kb/1024" | bc -l)" "$(echo "$base_s/$upkg_s" | bc -l)"
fi
printf 'verify summary: %s\n' "$summary"

# SPDX-License-Identifier: MIT
# Shared by the correlation harnesses (scripts/correlate.sh, scripts/correlate-public.sh): how a
# warpsim stats.json and GPGPU-Sim's raw statistics lines are read, and the error statistics.
# Sourced, not run.

# jq: warpsim's totals as "thread_insts cycles l1d_miss_rate l2_miss_rate dram_reads dram_writes".
# L1D misses as GPGPU-Sim counts them: a miss to a line already being fetched is its HIT_RESERVED
# ("pending hit"), not a miss; ours counts it in misses and in pending_hits.
# shellcheck disable=SC2016 (jq's own $ variables)
corr_ws_jq='.total as $t
  | ([$t | to_entries[] | select(.key | test("^sm\\.[0-9]+\\.l1d\\.accesses$")) | .value] | add) as $l1a
  | ([$t | to_entries[] | select(.key | test("^sm\\.[0-9]+\\.l1d\\.misses$")) | .value] | add) as $l1m
  | ([$t | to_entries[] | select(.key | test("^sm\\.[0-9]+\\.l1d\\.pending_hits$")) | .value] | add) as $l1p
  | ([$t | to_entries[] | select(.key | test("^l2\\.[0-9]+\\.misses$")) | .value] | add) as $l2m
  | ([$t | to_entries[] | select(.key | test("^l2\\.[0-9]+\\.accesses$")) | .value] | add) as $l2a
  | "\($t["gpu.thread_insts"]) \($t["gpu.cycles"]) \(if $l1a > 0 then ($l1m - $l1p) / $l1a else 0 end) \(if $l2a > 0 then $l2m / $l2a else 0 end) \($t["gpu.dram.reads"] // "-") \($t["gpu.dram.writes"] // "-")"'

# corr_gs_field FILE KEY: the last value of "KEY = VALUE" in GPGPU-Sim's raw lines, or "-".
corr_gs_field() {
	awk -v k="$2" '$1 == k { v = $3 } END { if (v == "") print "-"; else print v }' "$1"
}

# awk functions for the summary lines: add(key, ws, gs, err) per run, then
# stats(key, label) prints runs, MAE, max, Pearson r of (ws, gs) and bad[key] (inst mismatches).
# shellcheck disable=SC2034 (used by the scripts that source this file)
corr_stats_awk='
function abs(x) { return x < 0 ? -x : x }
function stats(key, label,   n, mx, my, sxx, syy, sxy, r) {
	n = cnt[key]
	if (n == 0) return
	mx = sx[key] / n; my = sy[key] / n
	sxx = sxx_[key] - n * mx * mx; syy = syy_[key] - n * my * my; sxy = sxy_[key] - n * mx * my
	r = (sxx > 0 && syy > 0) ? sprintf("%.4f", sxy / sqrt(sxx * syy)) : "n/a"
	printf "%-26s %3d runs  MAE %6.1f%%  max %6.1f%%  Pearson r %s  inst mismatches %d\n", label, n, 100 * sae[key] / n, 100 * maxe[key], r, bad[key]
}
function add(key, x, y, e) {
	cnt[key]++; sx[key] += x; sy[key] += y; sxx_[key] += x * x; syy_[key] += y * y; sxy_[key] += x * y
	sae[key] += e; if (e > maxe[key]) maxe[key] = e
}'

#!/usr/bin/env bash
# compare.sh runs the headline benchmarks on the working tree and on an
# older commit, alternating the two, and prints how each moved:
#
#   internal/bench/compare.sh [-count N] COMMIT
#
# The headline benchmarks: a typical check (BenchmarkCheck/robotsgate),
# corpus parse (BenchmarkCorpusParse/robotsgate), the costliest corpus file
# against the median (BenchmarkCorpusCheck, max/median), cold fetch
# (BenchmarkClientCold), warm path (BenchmarkClientWarmPath), a Redis
# miss (redisstore BenchmarkRedisMiss, skipped without redis-server) and
# the README's crawler loop (BenchmarkCrawlLoop: PacedErrors a page).
#
# COMMIT is checked out with `git worktree add` into a temporary directory
# (removed at the end). The working tree's cold_test.go, warm_test.go and
# loop_test.go (internal/bench) and bench_miss_test.go (redisstore)
# replace COMMIT's, so that both sides run the same benchmarks. They use
# only the public API and the helpers of internal/bench's other test
# files, so they measure any commit that has those helpers (from the
# Client-at-scale benchmarks on). Both sides read the same corpus: the full one when
# ROBOTSTXT_CORPUS names its directory, the sample otherwise.
#
# Each side's test binaries are built once; then for each of N rounds
# (default 3) every benchmark runs once on each side, the order of the
# sides swapping every round. Results go to old.txt and new.txt in the
# temporary directory (printed), and through benchstat (golang.org/x/perf,
# fetched with `go run`) when it is available; the table after it lists
# each metric's median, new/old.
set -euo pipefail

count=3
if [[ ${1:-} == -count ]]; then
  count=$2
  shift 2
fi
if [[ $# -ne 1 ]]; then
  sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
old=$1
if [[ -n "${ROBOTSTXT_CORPUS:-}" ]]; then
  # Absolute: each side's binaries run in their own package's directory.
  [[ -d "$ROBOTSTXT_CORPUS/files" ]] || { echo "ROBOTSTXT_CORPUS: no $ROBOTSTXT_CORPUS/files" >&2; exit 2; }
  ROBOTSTXT_CORPUS=$(cd "$ROBOTSTXT_CORPUS" && pwd)
  export ROBOTSTXT_CORPUS
fi

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
tmp=$(mktemp -d)
cleanup() {
  git -C "$root" worktree remove --force "$tmp/old" >/dev/null 2>&1 || true
  rm -rf "$tmp/old"
}
trap cleanup EXIT
git -C "$root" worktree add --detach --quiet "$tmp/old" "$old"
# Commits before ROBOTSTXT_CORPUS read the full corpus from a fixed place
# beside their checkout: link it there for the old tree.
if [[ -n "${ROBOTSTXT_CORPUS:-}" ]]; then
  mkdir -p "$tmp/shared"
  ln -s "$ROBOTSTXT_CORPUS" "$tmp/shared/corpus"
fi
for f in internal/bench/cold_test.go internal/bench/warm_test.go internal/bench/loop_test.go redisstore/bench_miss_test.go; do
  cp "$root/$f" "$tmp/old/$f"
done

echo "building test binaries ($tmp)"
for side in old new; do
  dir=$root
  [[ $side == old ]] && dir=$tmp/old
  (cd "$dir/internal/bench" && go test -c -o "$tmp/$side-bench.test" .)
  (cd "$dir" && go test -c -o "$tmp/$side-redis.test" ./redisstore)
done

# name|binary|directory (relative to the tree)|pattern|benchtime
benches=(
  "check|bench|internal/bench|^BenchmarkCheck\$/^robotsgate\$|1s"
  "parse|bench|internal/bench|^BenchmarkCorpusParse\$/^robotsgate\$|10x"
  "costliest|bench|internal/bench|^BenchmarkCorpusCheck\$|1x"
  "cold|bench|internal/bench|^BenchmarkClientCold\$|65x"
  "warm|bench|internal/bench|^BenchmarkClientWarmPath\$|3000x"
  "redis|redis|redisstore|^BenchmarkRedisMiss\$|40x"
  "loop|bench|internal/bench|^BenchmarkCrawlLoop\$|3x"
)
: >"$tmp/old.txt"
: >"$tmp/new.txt"
for ((round = 0; round < count; round++)); do
  sides=(new old)
  ((round % 2)) && sides=(old new)
  for b in "${benches[@]}"; do
    IFS='|' read -r name bin rel pattern benchtime <<<"$b"
    for side in "${sides[@]}"; do
      dir=$root
      [[ $side == old ]] && dir=$tmp/old
      echo "round $((round + 1))/$count: $name ($side)"
      (cd "$dir/$rel" && "$tmp/$side-$bin.test" -test.run '^$' -test.bench "$pattern" \
        -test.benchtime "$benchtime" -test.benchmem -test.count 1) >>"$tmp/$side.txt" 2>&1 || true
    done
  done
done
echo "results: $tmp/old.txt (old, $old) and $tmp/new.txt (new, working tree)"

if (cd "$root" && go run golang.org/x/perf/cmd/benchstat@latest "$tmp/old.txt" "$tmp/new.txt") 2>/dev/null; then
  :
else
  echo "(benchstat not available)"
fi

# Medians of every metric, and new/old.
printf "%-60s %-22s %14s %14s %9s\n" benchmark metric old new new/old
awk '
  FNR == 1 { side = (FILENAME ~ /old\.txt$/) ? "old" : "new" }
  /^Benchmark/ {
    name = $1; sub(/-[0-9]+$/, "", name)
    for (i = 3; i + 1 <= NF; i += 2) {
      key = name " " $(i + 1)
      n = ++cnt[side, key]; val[side, key, n] = $i; keys[key] = 1
    }
  }
  function median(side, key,   n, i, j, t, a) {
    n = cnt[side, key]
    if (n == 0) return ""
    for (i = 1; i <= n; i++) a[i] = val[side, key, i]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    for (key in keys) {
      split(key, p, " ")
      o = median("old", key); n = median("new", key)
      r = (o != "" && n != "" && o != 0) ? sprintf("%.3f", n / o) : "-"
      printf "%-60s %-22s %14s %14s %9s\n", p[1], p[2], o, n, r
    }
  }' "$tmp/old.txt" "$tmp/new.txt" | sort

#!/usr/bin/env bash
# Runs a libFuzzer target built by Fuzz/build.sh: Fuzz/run.sh catalog|transaction [SECONDS] [extra libFuzzer flags]
#
# The corpus starts from Fuzz/seeds/<target> and grows in $FUZZ_BUILD_DIR/corpus/<target>; crash,
# timeout and out-of-memory inputs are written to $FUZZ_BUILD_DIR/artifacts/<target>/.
set -euo pipefail

cd "$(dirname "$0")/.."
target="${1:-}"
seconds="${2:-300}"
shift $(( $# < 2 ? $# : 2 ))
case "$target" in
    catalog) max_len=8192 ;;
    transaction) max_len=2048 ;;
    *) echo "usage: $0 catalog|transaction [SECONDS] [libFuzzer flags]" >&2; exit 64 ;;
esac

out="${FUZZ_BUILD_DIR:-.build/fuzz}"
fuzzer="$out/$target-fuzzer"
[[ -x "$fuzzer" ]] || { echo "build it first: Fuzz/build.sh $target" >&2; exit 66; }
corpus="$out/corpus/$target"
artifacts="$out/artifacts/$target"
mkdir -p "$corpus" "$artifacts"
cp -n Fuzz/seeds/"$target"/* "$corpus"/

# The Swift runtime's own backtracer would race AddressSanitizer's report; libFuzzer's is enough.
SWIFT_BACKTRACE=enable=no exec "$fuzzer" "$corpus" \
    -dict="Fuzz/$target.dict" -max_len="$max_len" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$@"

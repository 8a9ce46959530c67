#!/usr/bin/env bash
# Runs a libFuzzer target built by Fuzz/build.sh: Fuzz/run.sh catalog|transaction|appstore|http [SECONDS] [extra libFuzzer flags]
#
# The corpus starts from Fuzz/seeds/<target> and grows in $FUZZ_BUILD_DIR/corpus/<target>; crash,
# timeout and out-of-memory inputs are written to $FUZZ_BUILD_DIR/artifacts/<target>/.
set -euo pipefail

cd "$(dirname "$0")/.."
target="${1:-}"
seconds="${2:-300}"
shift $(( $# < 2 ? $# : 2 ))
extra_flags=()
case "$target" in
    catalog) max_len=8192 ;;
    transaction) max_len=2048 ;;
    # Each App Store input builds a ledger and signs; Swift's runtime caches make libFuzzer suspect a
    # leak after almost every input, and the leak scans then take nine tenths of the time (a run with
    # them on found no leak), so they are off for this target.
    appstore) max_len=4096; extra_flags=(-detect_leaks=0) ;;
    # 4 KiB passes the body's 4 KiB head limit; its 8 KiB body limit is met by declared sizes, refused unread.
    http) max_len=4096 ;;
    *) echo "usage: $0 catalog|transaction|appstore|http [SECONDS] [libFuzzer flags]" >&2; exit 64 ;;
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
    -print_final_stats=1 -artifact_prefix="$artifacts/" "${extra_flags[@]}" "$@"

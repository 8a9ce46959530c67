#!/usr/bin/env bash
# Builds a libFuzzer target: Fuzz/build.sh catalog|transaction
#
# The library is compiled as its own module, FulfillmentLedger, instrumented for libFuzzer and
# AddressSanitizer, into a static library; the target is then compiled against it (the transaction
# target together with the test store's TestStoreTransaction and TestStoreVerifier sources, which
# import FulfillmentLedger as they do in the package). ProductCatalog.json is embedded as a string.
#
# Output: $FUZZ_BUILD_DIR (default .build/fuzz)/<target>-fuzzer
set -euo pipefail

cd "$(dirname "$0")/.."
target="${1:-}"
case "$target" in
    catalog) main="Fuzz/CatalogFuzzTarget.swift"; extra=() ;;
    transaction)
        main="Fuzz/TransactionFuzzTarget.swift"
        extra=(Sources/TestStoreAdapter/TestStoreTransaction.swift
            Sources/TestStoreAdapter/TestStoreVerifier.swift) ;;
    *) echo "usage: $0 catalog|transaction" >&2; exit 64 ;;
esac

out="${FUZZ_BUILD_DIR:-.build/fuzz}"
mkdir -p "$out/lib"
flags=(-sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -use-ld=lld)

# The library, once per build directory and again whenever a source is newer than it.
library="$out/lib/libFulfillmentLedger.a"
mapfile -t sources < <(find Sources/FulfillmentLedger -name '*.swift' | sort)
if [[ ! -f "$library" ]] || [[ -n "$(find Sources/FulfillmentLedger -name '*.swift' -newer "$library")" ]]; then
    echo "building FulfillmentLedger (${#sources[@]} files)" >&2
    swiftc "${flags[@]}" -module-name FulfillmentLedger -emit-library -static -emit-module \
        -emit-module-path "$out/lib/FulfillmentLedger.swiftmodule" -o "$library" "${sources[@]}"
fi

# The sample catalog as a Swift string, so the targets need no file at run time.
fixture="$out/$target-CatalogFixture.swift"
{
    printf 'let fuzzCatalogJSON = #"""\n'
    cat ProductCatalog.json
    printf '\n"""#\n'
} > "$fixture"

echo "building $target-fuzzer" >&2
swiftc "${flags[@]}" -module-name "$(tr '[:lower:]' '[:upper:]' <<< "${target:0:1}")${target:1}Fuzz" \
    -I "$out/lib" -L "$out/lib" -lFulfillmentLedger \
    "$main" "${extra[@]}" "$fixture" -o "$out/$target-fuzzer"
echo "$out/$target-fuzzer"

#!/usr/bin/env bash
# Builds a libFuzzer target: Fuzz/build.sh catalog|transaction|appstore
#
# The library is compiled as its own module, FulfillmentLedger, instrumented for libFuzzer and
# AddressSanitizer, into a static library; the target is then compiled against it (the transaction
# target together with the test store's TestStoreTransaction and TestStoreVerifier sources, which
# import FulfillmentLedger as they do in the package). ProductCatalog.json is embedded as a string.
# The appstore target also needs AppStoreAdapter, compiled the same way against OpenSSL's libcrypto,
# and is compiled with its body (shared with AppStoreNotificationFuzzTests), the in-memory store and
# the App Store simulator's chain generator and signer, found wherever the package layout puts them.
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
    appstore)
        main="Fuzz/AppStoreNotificationFuzzTarget.swift"
        extra=(Tests/AppStoreAdapterTests/AppStoreNotificationFuzzBody.swift)
        for name in InMemoryLedgerStore AppStoreTestCertificateAuthority AppStoreJWSSigner AppStoreCompactJWS \
            AppStoreSimulatorError OpenSSLCertificate OpenSSLPrivateKey OpenSSLFailure; do
            found="$(find Sources -name "$name.swift" | head -n 1)"
            [[ -n "$found" ]] || { echo "$name.swift not found under Sources" >&2; exit 66; }
            extra+=("$found")
        done ;;
    *) echo "usage: $0 catalog|transaction|appstore" >&2; exit 64 ;;
esac

out="${FUZZ_BUILD_DIR:-.build/fuzz}"
mkdir -p "$out/lib"
# One package name for every module, as SwiftPM gives them, so `package` declarations are visible.
flags=(-sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -use-ld=lld -package-name FulfillmentLedger)

# The library, once per build directory and again whenever a source is newer than it.
library="$out/lib/libFulfillmentLedger.a"
mapfile -t sources < <(find Sources/FulfillmentLedger -name '*.swift' | sort)
if [[ ! -f "$library" ]] || [[ -n "$(find Sources/FulfillmentLedger -name '*.swift' -newer "$library")" ]]; then
    echo "building FulfillmentLedger (${#sources[@]} files)" >&2
    swiftc "${flags[@]}" -module-name FulfillmentLedger -emit-library -static -emit-module \
        -emit-module-path "$out/lib/FulfillmentLedger.swiftmodule" -o "$library" "${sources[@]}"
fi

# AppStoreAdapter, for the appstore target: built like the library, with COpenSSL's module map.
openssl=()
if [[ "$target" == appstore ]]; then
    openssl=(-I Sources/COpenSSL $(pkg-config --libs libcrypto))
    adapter="$out/lib/libAppStoreAdapter.a"
    mapfile -t adapter_sources < <(find Sources/AppStoreAdapter -name '*.swift' | sort)
    if [[ ! -f "$adapter" ]] || [[ "$library" -nt "$adapter" ]] \
        || [[ -n "$(find Sources/AppStoreAdapter -name '*.swift' -newer "$adapter")" ]]; then
        echo "building AppStoreAdapter (${#adapter_sources[@]} files)" >&2
        swiftc "${flags[@]}" -module-name AppStoreAdapter -emit-library -static -emit-module \
            -emit-module-path "$out/lib/AppStoreAdapter.swiftmodule" -I "$out/lib" "${openssl[@]}" \
            -o "$adapter" "${adapter_sources[@]}"
    fi
    openssl+=(-lAppStoreAdapter)
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
    -I "$out/lib" -L "$out/lib" "${openssl[@]}" -lFulfillmentLedger \
    "$main" "${extra[@]}" "$fixture" -o "$out/$target-fuzzer"
echo "$out/$target-fuzzer"

#!/usr/bin/env bash
# Builds a libFuzzer target: Fuzz/build.sh catalog|transaction|appstore|http
#
# The library is compiled as its own module, FulfillmentLedger, instrumented for libFuzzer and
# AddressSanitizer, into a static library; the target is then compiled against it (the transaction
# target together with the test store's TestStoreTransaction and TestStoreVerifier sources, which
# import FulfillmentLedger as they do in the package). ProductCatalog.json is embedded as a string.
# The appstore target also needs AppStoreAdapter (and LedgerHTTPClient), compiled the same way against OpenSSL's libcrypto,
# and is compiled with its body (shared with AppStoreNotificationFuzzTests), the in-memory store and
# the App Store simulator's chain generator and signer, found wherever the package layout puts them.
# The http target needs LedgerHTTPServer and what it imports (LedgerHTTP, the three store adapters,
# LedgerHTTPClient), each built the same way by build_module in dependency order, and is compiled with
# its body (shared with HTTPRequestFuzzTests).
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
        for name in InMemoryLedgerStore InMemoryLedgerSession+Subscriptions AppStoreTestCertificateAuthority AppStoreJWSSigner AppStoreCompactJWS \
            AppStoreSimulatorError OpenSSLCertificate OpenSSLPrivateKey OpenSSLFailure; do
            found="$(find Sources -name "$name.swift" | head -n 1)"
            [[ -n "$found" ]] || { echo "$name.swift not found under Sources" >&2; exit 66; }
            extra+=("$found")
        done ;;
    http)
        main="Fuzz/HTTPRequestFuzzTarget.swift"
        extra=(Tests/LedgerHTTPServerTests/HTTPRequestFuzzBody.swift) ;;
    *) echo "usage: $0 catalog|transaction|appstore|http" >&2; exit 64 ;;
esac

out="${FUZZ_BUILD_DIR:-.build/fuzz}"
mkdir -p "$out/lib"
# One package name for every module, as SwiftPM gives them, so `package` declarations are visible.
flags=(-sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -use-ld=lld -package-name FulfillmentLedger)
# COpenSSL's module map, for the modules that import it (harmless to the others).
flags+=(-I Sources/COpenSSL)
linked=()

# build_module NAME [DEPENDENCY...]: compiles Sources/NAME/**/*.swift as module NAME into the static
# library $out/lib/libNAME.a, once per build directory and again whenever one of its sources, or the
# library of a dependency (built first, by an earlier call), is newer than it; then links it.
build_module() {
    local name="$1"
    shift
    local library="$out/lib/lib$name.a"
    local module_sources
    mapfile -t module_sources < <(find "Sources/$name" -name '*.swift' | sort)
    local stale=no
    if [[ ! -f "$library" ]] || [[ -n "$(find "Sources/$name" -name '*.swift' -newer "$library")" ]]; then stale=yes; fi
    local dependency
    for dependency in "$@"; do
        if [[ "$out/lib/lib$dependency.a" -nt "$library" ]]; then stale=yes; fi
    done
    if [[ "$stale" == yes ]]; then
        echo "building $name (${#module_sources[@]} files)" >&2
        swiftc "${flags[@]}" -module-name "$name" -emit-library -static -emit-module \
            -emit-module-path "$out/lib/$name.swiftmodule" -I "$out/lib" -o "$library" "${module_sources[@]}"
    fi
    # Dependents before their dependencies, as a static link wants them.
    linked=(-l"$name" "${linked[@]}")
}

# The modules each target imports, in dependency order, each after what Package.swift says it needs.
build_module FulfillmentLedger
case "$target" in
    appstore | http)
        build_module LedgerHTTPClient FulfillmentLedger
        build_module AppStoreAdapter FulfillmentLedger LedgerHTTPClient
        linked+=($(pkg-config --libs libcrypto)) ;;&
    http)
        build_module PlayStoreAdapter FulfillmentLedger LedgerHTTPClient
        build_module TestStoreAdapter FulfillmentLedger
        build_module LedgerHTTP FulfillmentLedger AppStoreAdapter PlayStoreAdapter TestStoreAdapter
        build_module LedgerHTTPServer LedgerHTTP ;;
esac

# The sample catalog as a Swift string, so the targets need no file at run time.
fixture="$out/$target-CatalogFixture.swift"
{
    printf 'let fuzzCatalogJSON = #"""\n'
    cat ProductCatalog.json
    printf '\n"""#\n'
} > "$fixture"

echo "building $target-fuzzer" >&2
swiftc "${flags[@]}" -module-name "$(tr '[:lower:]' '[:upper:]' <<< "${target:0:1}")${target:1}Fuzz" \
    -I "$out/lib" -L "$out/lib" "${linked[@]}" \
    "$main" "${extra[@]}" "$fixture" -o "$out/$target-fuzzer"
echo "$out/$target-fuzzer"

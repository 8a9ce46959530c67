#!/usr/bin/env python3
"""Times Apple's App Store Server Library for Python (PyPI: app-store-server-library)
verifying signed App Store transactions, so `ledger-bench` can compare its own R5 figures
with it. `ledger-bench` writes the inputs and runs this script; it can also be run alone:

    python3 Scripts/appstore_verify_bench.py --jws-file jws.txt --root-certificate root.der \
        --bundle-id com.example.app --environment Sandbox --count 300 --repeats 5

Inputs: a file with one compact JWS (signedTransaction) per line, and the DER root
certificate the signing chain ends in. Prints one JSON object on stdout:

    {"coldPerSecond": ..., "warmPerSecond": ..., "coldSamples": [...], "warmSamples": [...], ...}

cold builds a new SignedDataVerifier for every verification; warm reuses one. Both run with
enable_online_checks=False (no OCSP requests). Note: the library caches verified chains only
when online checks are on, so here warm still verifies the whole chain every time.

Exit codes: 0 measured; 2 the library is not installed; 3 the library rejected a
transaction (the JSON names the library's status and the underlying causes); 64 usage.
"""

import argparse
import json
import platform
import statistics
import sys
import time

# Limits on the inputs, so a wrong file cannot make the script run or read forever.
COUNT_MAX = 1_000_000
REPEATS_MAX = 101
JWS_COUNT_MAX = 10_000
INPUT_BYTES_MAX = 64 * 1024 * 1024
CAUSE_DEPTH_MAX = 10


def parse_arguments():
    parser = argparse.ArgumentParser(description="Time app-store-server-library JWS transaction verification.")
    parser.add_argument("--jws-file", required=True, help="file with one signed transaction (compact JWS) per line")
    parser.add_argument("--root-certificate", required=True, help="DER file of the trusted root certificate")
    parser.add_argument("--bundle-id", required=True)
    parser.add_argument("--environment", default="Sandbox", help="Sandbox or Production (default Sandbox)")
    parser.add_argument("--app-apple-id", type=int, default=None, help="required for Production")
    parser.add_argument("--count", type=int, default=300, help="verifications per repeat")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; the rates are their medians")
    arguments = parser.parse_args()
    if not 1 <= arguments.count <= COUNT_MAX or not 1 <= arguments.repeats <= REPEATS_MAX:
        parser.exit(64, f"--count needs 1 to {COUNT_MAX}, --repeats 1 to {REPEATS_MAX}\n")
    return arguments


def read_bytes(path):
    with open(path, "rb") as file:
        data = file.read(INPUT_BYTES_MAX + 1)
    if len(data) > INPUT_BYTES_MAX:
        raise ValueError(f"{path} is larger than {INPUT_BYTES_MAX} bytes")
    return data


def causes(error):
    """The chain of exceptions behind `error`, innermost last, as readable strings."""
    chain = []
    current = error
    while current is not None and len(chain) < CAUSE_DEPTH_MAX:
        chain.append(f"{type(current).__module__}.{type(current).__name__}: {current}")
        current = current.__cause__ or current.__context__
    return chain


def timed(count, body):
    start = time.perf_counter()
    for index in range(count):
        body(index)
    return count / max(time.perf_counter() - start, 1e-9)


def main():
    arguments = parse_arguments()
    try:
        from importlib import metadata

        from appstoreserverlibrary.models.Environment import Environment
        from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
    except ImportError as error:
        print(json.dumps({"error": "not installed", "causes": causes(error)}))
        return 2

    jws = read_bytes(arguments.jws_file).decode("ascii").split()[:JWS_COUNT_MAX]
    if not jws:
        print(json.dumps({"error": f"{arguments.jws_file} holds no JWS"}))
        return 64
    root = read_bytes(arguments.root_certificate)
    environment = Environment(arguments.environment)

    def new_verifier():
        return SignedDataVerifier([root], False, environment, arguments.bundle_id, arguments.app_apple_id)

    warm = new_verifier()
    try:
        # Every input once, outside the timing: a rejection is reported, never timed.
        for signed in jws:
            warm.verify_and_decode_signed_transaction(signed)
    except VerificationException as error:
        print(json.dumps({"error": "rejected", "status": error.status.name, "causes": causes(error)}))
        return 3

    cold_samples, warm_samples = [], []
    for _ in range(arguments.repeats):
        cold_samples.append(
            timed(arguments.count, lambda i: new_verifier().verify_and_decode_signed_transaction(jws[i % len(jws)])))
        warm_samples.append(
            timed(arguments.count, lambda i: warm.verify_and_decode_signed_transaction(jws[i % len(jws)])))
    print(json.dumps({
        "library": "app-store-server-library",
        "libraryVersion": metadata.version("app-store-server-library"),
        "pythonVersion": platform.python_version(),
        "count": arguments.count,
        "repeats": arguments.repeats,
        "coldPerSecond": statistics.median(cold_samples),
        "warmPerSecond": statistics.median(warm_samples),
        "coldSamples": cold_samples,
        "warmSamples": warm_samples,
        "warmCachesChain": False,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())

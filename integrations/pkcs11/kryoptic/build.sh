#!/usr/bin/env bash
# Builds kryoptic's PKCS#11 module for typed-hpke-pkcs11's tests and leaves it at
# target/libkryoptic_pkcs11.so (where `typed_hpke_pkcs11::kryoptic::module()` looks).
#
# kryoptic's ML-KEM is OpenSSL's, from 3.5 on; the machines this project runs on have 3.0. Its
# `ossl-sys` crate links the libcrypto.a it finds in $KRYOPTIC_OPENSSL_SOURCES and builds
# OpenSSL there only when there is none. So OpenSSL 3.5 is built here first, from the sources
# the `openssl-src` crate carries (pinned in Cargo.lock), as libcrypto alone with what kryoptic
# does not use here left out (TLS, the apps, the legacy ciphers, ML-DSA, SLH-DSA, ...): about
# a minute on 2 cores, where a whole OpenSSL takes over ten. Then kryoptic itself, with the
# features Cargo.toml names, in release mode (the throughput bench measures it), or with
# `--debug` as a debug build: what .ci/run builds for the tests, whose token calls take the same
# time either way (their work is OpenSSL's, optimised in both): 67 CPU-seconds instead of 99.
#
# Needs a C compiler, make and perl (OpenSSL), libclang (bindgen, in kryoptic's build) and
# SQLite's headers (rusqlite links the system's): on Debian `libclang-dev libsqlite3-dev`.
set -euo pipefail
cd "$(dirname "$0")"
profile=release
case "${1:-}" in
    "") ;;
    --debug) profile=debug ;;
    *) echo "usage: build.sh [--debug]" >&2; exit 2 ;;
esac
mkdir -p target
manifest="$(cargo metadata --locked --format-version 1 | python3 -c '
import json, sys
meta = json.load(sys.stdin)
print(next(p["manifest_path"] for p in meta["packages"] if p["name"] == "openssl-src"))')"
ossl="$PWD/target/openssl"
if [ ! -f "$ossl/libcrypto.a" ]; then
    rm -rf "$ossl"
    cp -r "$(dirname "$manifest")/openssl" "$ossl"
    (
        cd "$ossl"
        ./Configure no-shared no-module no-docs no-tests no-apps no-legacy no-engine no-dso \
            no-deprecated no-ssl no-tls no-dtls no-quic no-cmp no-cms no-ct no-ocsp no-ts \
            no-srp no-srtp no-comp no-ui-console no-aria no-bf no-blake2 no-camellia no-cast \
            no-des no-dsa no-idea no-md4 no-mdc2 no-ocb no-rc2 no-rc4 no-rc5 no-rmd160 no-seed \
            no-siphash no-siv no-sm2 no-sm3 no-sm4 no-whirlpool no-ec2m no-gost no-argon2 \
            no-slh-dsa no-ml-dsa no-atexit enable-ec_nistp_64_gcc_128 \
            '-DDEVRANDOM="\"/dev/urandom\""'
        make -j"$(nproc)" build_generated
        make -j"$(nproc)" libcrypto.a
    ) > target/openssl.log 2>&1 || { tail -n 40 target/openssl.log >&2; exit 1; }
fi
if [ "$profile" = release ]; then
    KRYOPTIC_OPENSSL_SOURCES="$ossl" cargo build --locked --release
else
    KRYOPTIC_OPENSSL_SOURCES="$ossl" cargo build --locked
fi
# Cargo builds the `kryoptic` dependency's cdylib beside its other artifacts, with a hash in
# its name: the newest is this build's.
cp "$(ls -t target/$profile/deps/libkryoptic_pkcs11-*.so | head -n 1)" target/libkryoptic_pkcs11.so
echo "kryoptic ($profile build): $PWD/target/libkryoptic_pkcs11.so"

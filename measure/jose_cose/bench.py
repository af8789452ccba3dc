"""Per-message cost of typed-hpke-jose and typed-hpke-cose against the other implementations
that run here, in paired rounds (the method of support/src/driver.rs, across a
process boundary):

    python3 measure/jose_cose/bench.py TARGET_DIR [ROUNDS]

TARGET_DIR holds the release builds of the examples `jose_bench` and `cose_bench`
(`cargo build --release -p typed-hpke-jose -p typed-hpke-cose --examples`). Each round runs one
batch of typed-hpke's (a process timing ITERATIONS operations after a tenth as many untimed)
and one of the peer's (timed in this process), in an order alternating from round to round;
the ratio typed-hpke / peer per round gives a median and a distribution-free 95% confidence
interval (order statistics of the binomial) over ROUNDS rounds (default 15).

Peers: python-cwt 3.3.0 for COSE (its own HPKE and AES-GCM on pyca/cryptography, i.e. OpenSSL);
for JOSE the pyhpke 0.6.5 JWE peer of integrations/jose/interop (no published JWE-HPKE
implementation runs here: lestrrat-go/jwx is served up to v3, whose JWE has no HPKE; jwcrypto
and authlib have none either). Neither peer has X-Wing: those rows compare with typed-hpke's
own single-shot HPKE of the same suite and payload (the floor: the HPKE work any
implementation does), as do the X25519 rows' second line. The payload is 256 bytes; keys and
messages to decrypt are made before the clock starts.
"""

import base64
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "integrations", "jose", "interop"))

import cbor2  # noqa: E402
import pyhpke_peer  # noqa: E402
from cwt import COSE, COSEKey, Recipient  # noqa: E402

PAYLOAD = b"\x5a" * 256


def b64e(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def cose_key(alg_name):
    """The draft's Appendix C key of `alg_name` (private COSE_Key, as a dict)."""
    path = os.path.join(ROOT, "integrations", "cose", "tests", "vectors", "cose-hpke-25.testvectors.txt")
    for line in open(path):
        name, _, rest = line.partition(" COSE_Key:")
        if name == alg_name and rest:
            return cbor2.loads(bytes.fromhex(rest.lstrip(":").strip()))
    raise KeyError(alg_name)


def cwt_ops(alg_name):
    full = cose_key(alg_name)
    public = {k: v for k, v in full.items() if k != -4}
    sk, pk = COSEKey.new(full), COSEKey.new(public)
    alg = full[3]
    if alg_name.endswith("-KE"):
        def encrypt():
            r = Recipient.new(protected={1: alg}, recipient_key=pk)
            cek = COSEKey.from_symmetric_key(alg="A128GCM")
            return COSE.new().encode_and_encrypt(PAYLOAD, cek, protected={1: 1}, recipients=[r])
    else:
        def encrypt():
            return COSE.new().encode_and_encrypt(PAYLOAD, pk, protected={1: alg})
    messages = []

    def decrypt():
        return COSE.new().decode(messages.pop(), sk)

    return encrypt, decrypt, lambda n: messages.extend(encrypt() for _ in range(n))


def jose_ops(alg_name):
    path = os.path.join(ROOT, "integrations", "jose", "tests", "vectors", "jose-hpke-encrypt-20.jose-vectors.json")
    jwk = next(v["jwk"] for v in json.load(open(path)) if v["alg"] == alg_name)
    jwk_text = json.dumps(jwk)
    if alg_name.endswith("-KE"):
        template = b64e(b'{"enc":"A128GCM"}') + ".AA.AA.AA.AA"
    else:
        template = b64e(b"{}") + ".AA..AA."
    case = {"alg": alg_name, "jwk": jwk_text, "jwe": template, "info": "", "extra_info": "", "psk": "", "psk_id": "", "group": None}

    def encrypt():
        return pyhpke_peer.encrypt([case], PAYLOAD)

    messages = []

    def decrypt():
        return pyhpke_peer.decrypt(dict(case, jwe=messages.pop()))

    return encrypt, decrypt, lambda n: messages.extend(encrypt() for _ in range(n))


def rust(binary, op, alg, n):
    out = subprocess.run([binary, op, alg, str(n)], check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def python_batch(fn, prepare, n):
    prepare(n)
    start = time.perf_counter_ns()
    for _ in range(n):
        fn()
    return (time.perf_counter_ns() - start) / n


def ci95(ratios):
    """Median and the distribution-free 95% interval of order statistics around it."""
    xs = sorted(ratios)
    n = len(xs)
    # The largest k with P(Binomial(n, 1/2) < k) <= 2.5%: [x_k, x_{n-k+1}] covers the median.
    k, acc = 0, 0.0
    while True:
        p = math.comb(n, k) / 2 ** n
        if acc + p > 0.025:
            break
        acc += p
        k += 1
    k = max(k, 1)
    median = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
    return median, xs[k - 1], xs[n - k]


def n(iterations):
    return 10 if QUICK else iterations


def row(label, ours, theirs, rounds):
    ratios, a, b = [], [], []
    for r in range(rounds):
        if r % 2:
            t = theirs()
            o = ours()
        else:
            o = ours()
            t = theirs()
        ratios.append(o / t)
        a.append(o)
        b.append(t)
    median, lo, hi = ci95(ratios)
    print(f"| {label} | {sorted(a)[rounds // 2] / 1000:.1f} | {sorted(b)[rounds // 2] / 1000:.1f} | "
          f"{median:.3f} [{lo:.3f}, {hi:.3f}] |", flush=True)


QUICK = os.environ.get("JOSE_COSE_BENCH_QUICK") == "1"


def main():
    target = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    # JOSE_COSE_BENCH_QUICK=1 (.ci/run): the debug builds, one round of a few operations: a
    # check that the bench still runs, not a measurement.
    profile = "debug" if QUICK else "release"
    jose_bin = os.path.join(target, profile, "examples", "jose_bench")
    cose_bin = os.path.join(target, profile, "examples", "cose_bench")
    print("| row | typed-hpke µs | peer µs | typed-hpke / peer, median [95% CI] |")
    print("|---|---|---|---|")
    for crate, binary, ops, alg_int, alg_ke, peer in [
        ("COSE", cose_bin, cwt_ops, "HPKE-3", "HPKE-3-KE", "python-cwt"),
        ("JOSE", jose_bin, jose_ops, "HPKE-3", "HPKE-3-KE", "pyhpke peer"),
    ]:
        for alg in (alg_int, alg_ke):
            encrypt, decrypt, prepare = ops(alg)
            for op, fn, prep in (("encrypt", encrypt, lambda n: None), ("decrypt", decrypt, prepare)):
                row(f"{crate} {op} {alg} (X25519) vs {peer}",
                    lambda: rust(binary, op, alg, n(2000)), lambda: python_batch(fn, prep, n(200)), rounds)
                row(f"{crate} {op} {alg} (X25519) vs typed-hpke single-shot HPKE",
                    lambda: rust(binary, op, alg, n(2000)), lambda: rust(binary, "floor-" + op, alg, n(2000)), rounds)
        for alg in ("HPKE-9", "HPKE-9-KE"):
            for op in ("encrypt", "decrypt"):
                row(f"{crate} {op} {alg} (X-Wing) vs typed-hpke single-shot HPKE",
                    lambda: rust(binary, op, alg, n(1000)), lambda: rust(binary, "floor-" + op, alg, n(1000)), rounds)


if __name__ == "__main__":
    main()

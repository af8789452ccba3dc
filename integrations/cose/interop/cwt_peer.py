"""The python-cwt half of typed-hpke-cose's interoperability test (see examples/cose_interop.rs).

    python3 cwt_peer.py OURS.json THEIRS.json

Decrypts every case in OURS.json (typed-hpke-cose's messages) with python-cwt and fails on
any difference; then encrypts a fresh plaintext to each case's key with python-cwt, with the
same inputs (external_aad, info or recipient_extra_info, HPKE aad, PSK), and writes the cases
to THEIRS.json for `cose_interop check`.
"""

import json
import os
import sys

import cbor2
from cwt import COSE, COSEKey, Recipient

CONTENT_ALG_NAMES = {1: "A128GCM", 3: "A256GCM", 24: "ChaCha20/Poly1305"}


def unh(case, name):
    return bytes.fromhex(case[name])


def decrypt(case):
    key = COSEKey.new(cbor2.loads(unh(case, "key")))
    psk = unh(case, "psk") or None
    return COSE.new().decode(
        unh(case, "message"),
        key,
        external_aad=unh(case, "external_aad"),
        hpke_info=unh(case, "info"),
        extra_info=unh(case, "extra_info"),
        hpke_aad=unh(case, "hpke_aad"),
        hpke_psk=psk,
    )


def encrypt(case, plaintext):
    public = cbor2.loads(unh(case, "public_key"))
    rpk = COSEKey.new(public)
    kid = public[2]
    psk = unh(case, "psk") or None
    protected = {1: case["alg_value"]}
    if psk is not None:
        protected[-5] = unh(case, "psk_id")
    if case["key_encryption"]:
        recipient = Recipient.new(
            protected=protected,
            unprotected={4: kid},
            recipient_key=rpk,
            hpke_psk=psk,
            extra_info=unh(case, "extra_info"),
            hpke_aad=unh(case, "hpke_aad"),
        )
        cek = COSEKey.from_symmetric_key(alg=CONTENT_ALG_NAMES[case["content_alg"]])
        return COSE.new().encode_and_encrypt(
            plaintext,
            cek,
            protected={1: cek.alg},
            recipients=[recipient],
            external_aad=unh(case, "external_aad"),
        )
    return COSE.new().encode_and_encrypt(
        plaintext,
        rpk,
        protected=protected,
        unprotected={4: kid},
        hpke_psk=psk,
        external_aad=unh(case, "external_aad"),
        hpke_info=unh(case, "info"),
    )


def main(ours_path, theirs_path):
    with open(ours_path) as f:
        cases = json.load(f)
    theirs = []
    for case in cases:
        got = decrypt(case)
        if got != unh(case, "plaintext"):
            sys.exit(f"{case['alg']}: python-cwt decrypted {got!r}")
        plaintext = b"python-cwt to typed-hpke-cose, " + os.urandom(16).hex().encode()
        mine = dict(case)
        mine["message"] = encrypt(case, plaintext).hex()
        mine["plaintext"] = plaintext.hex()
        theirs.append(mine)
    with open(theirs_path, "w") as f:
        json.dump(theirs, f, indent=1)
    print(f"{len(cases)} typed-hpke-cose messages decrypted by python-cwt; {len(theirs)} written")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

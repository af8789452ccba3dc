"""A JWE-HPKE peer on pyhpke, for typed-hpke-jose's interoperability test (examples/jose_interop.rs).

    python3 pyhpke_peer.py OURS.json THEIRS.json

Written from draft-ietf-jose-hpke-encrypt-20 (§5 integrated, §6 key encryption, §6.1 the
Recipient_structure, §7.1 step 15 the AAD), RFC 7516 and pyhpke's HPKE, independently of the
Rust code. Decrypts every JWE in OURS.json and fails on any difference; then encrypts a fresh
plaintext to the same keys in the same serialization and mode and writes THEIRS.json.
"""

import base64
import json
import os
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from pyhpke import AEADId, CipherSuite, KDFId, KEMId, KEMKey

SUITES = {  # alg number -> (KEM, KDF, AEAD)
    0: (0x10, 1, 1), 1: (0x11, 2, 2), 2: (0x12, 3, 2), 3: (0x20, 1, 1),
    4: (0x20, 1, 3), 5: (0x21, 3, 2), 6: (0x21, 3, 3), 7: (0x10, 1, 2),
}


def b64e(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def b64d(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def suite_of(alg):
    kem, kdf, aead = SUITES[int(alg.split("-")[1])]
    return CipherSuite.new(KEMId(kem), KDFId(kdf), AEADId(aead))


def rcpt_structure(enc, extra):
    return b"JOSE-HPKE rcpt\xff" + enc.encode() + b"\xff" + extra


def keys(jwk_text):
    jwk = json.loads(jwk_text)
    private = KEMKey.from_jwk(jwk)
    public = {k: v for k, v in jwk.items() if k != "d"}
    return jwk, private, KEMKey.from_jwk(public)


def parse(text):
    if text.startswith("{"):
        obj = json.loads(text)
        recipients = obj.get("recipients") or [{"header": obj.get("header"), "encrypted_key": obj.get("encrypted_key", "")}]
        return obj.get("protected", ""), obj.get("aad"), obj.get("iv", ""), obj["ciphertext"], obj.get("tag", ""), recipients
    p, ek, iv, ct, tag = text.split(".")
    return p, None, iv, ct, tag, [{"header": None, "encrypted_key": ek}]


def decrypt(case):
    jwk, sk, _ = keys(case["jwk"])
    p, aad_b64, iv, ct, tag, recipients = parse(case["jwe"])
    protected = json.loads(b64d(p)) if p else {}
    aad = (p + ("." + aad_b64 if aad_b64 is not None else "")).encode()
    for r in recipients:
        header = dict(protected, **(r.get("header") or {}))
        if header.get("kid") != jwk["kid"]:
            continue
        alg = header["alg"]
        suite = suite_of(alg)
        psk = bytes.fromhex(case["psk"])
        psk_id = b64d(header["psk_id"]) if "psk_id" in header else b""
        assert psk_id == bytes.fromhex(case["psk_id"])
        if alg.endswith("-KE"):
            info = rcpt_structure(header["enc"], bytes.fromhex(case["extra_info"]))
            ctx = suite.create_recipient_context(b64d(header["ek"]), sk, info=info, psk=psk, psk_id=psk_id)
            cek = ctx.open(b64d(r["encrypted_key"]), aad=b"")
            return AESGCM(cek).decrypt(b64d(iv), b64d(ct) + b64d(tag), aad)
        assert "enc" not in header and iv == "" and tag == ""
        info = bytes.fromhex(case["info"])
        ctx = suite.create_recipient_context(b64d(r["encrypted_key"]), sk, info=info, psk=psk, psk_id=psk_id)
        return ctx.open(b64d(ct), aad=aad)
    raise SystemExit(f"{case['alg']}: no recipient for {jwk['kid']}")


def seal(suite, pk, pt, info, aad, psk, psk_id):
    enc, ctx = suite.create_sender_context(pk, info=info, psk=psk, psk_id=psk_id)
    return enc, ctx.seal(pt, aad=aad)


def encrypt(group, plaintext):
    """One JWE to every case of `group`, in the shape of the first case's JWE."""
    first = group[0]
    text = first["jwe"]
    p, aad_b64, _, _, _, recipients = parse(text)
    shape = "compact" if not text.startswith("{") else ("general" if len(recipients) > 1 else "flattened")
    psk, psk_id = bytes.fromhex(first["psk"]), bytes.fromhex(first["psk_id"])
    if not first["alg"].endswith("-KE"):
        jwk, _, pk = keys(first["jwk"])
        hdr = {"alg": first["alg"], "kid": jwk["kid"]}
        if psk_id:
            hdr["psk_id"] = b64e(psk_id)
        p = b64e(json.dumps(hdr).encode())
        aad = (p + ("." + aad_b64 if aad_b64 is not None else "")).encode()
        enc, ct = seal(suite_of(first["alg"]), pk, plaintext, bytes.fromhex(first["info"]), aad, psk, psk_id)
        if shape == "compact":
            return f"{p}.{b64e(enc)}..{b64e(ct)}."
        out = {"protected": p, "encrypted_key": b64e(enc), "ciphertext": b64e(ct)}
        if aad_b64 is not None:
            out["aad"] = aad_b64
        return json.dumps(out)
    enc_name = json.loads(b64d(p)).get("enc")
    cek = os.urandom(16 if enc_name == "A128GCM" else 32)
    sealed = []
    for case in group:
        jwk, _, pk = keys(case["jwk"])
        info = rcpt_structure(enc_name, bytes.fromhex(case["extra_info"]))
        ek, wrapped = seal(suite_of(case["alg"]), pk, cek, info, b"", psk, psk_id)
        hdr = {"alg": case["alg"], "kid": jwk["kid"], "ek": b64e(ek)}
        if psk_id:
            hdr["psk_id"] = b64e(psk_id)
        sealed.append((hdr, wrapped))
    protected = {"enc": enc_name}
    if shape != "general":
        protected.update(sealed[0][0])
    p = b64e(json.dumps(protected).encode())
    aad = (p + ("." + aad_b64 if aad_b64 is not None else "")).encode()
    iv = os.urandom(12)
    sealed_ct = AESGCM(cek).encrypt(iv, plaintext, aad)
    ct, tag = sealed_ct[:-16], sealed_ct[-16:]
    if shape == "compact":
        return f"{p}.{b64e(sealed[0][1])}.{b64e(iv)}.{b64e(ct)}.{b64e(tag)}"
    out = {"protected": p, "iv": b64e(iv), "ciphertext": b64e(ct), "tag": b64e(tag)}
    if aad_b64 is not None:
        out["aad"] = aad_b64
    if shape == "general":
        out["recipients"] = [{"header": h, "encrypted_key": b64e(w)} for h, w in sealed]
    else:
        out["encrypted_key"] = b64e(sealed[0][1])
    return json.dumps(out)


def main(ours_path, theirs_path):
    with open(ours_path) as f:
        cases = json.load(f)
    for case in cases:
        got = decrypt(case)
        if got != bytes.fromhex(case["plaintext"]):
            sys.exit(f"{case['alg']}: pyhpke peer decrypted {got!r}")
    groups = {}
    for i, case in enumerate(cases):
        groups.setdefault(case["group"] if case["group"] is not None else f"single-{i}", []).append(case)
    theirs = []
    for group in groups.values():
        plaintext = b"pyhpke peer to typed-hpke-jose, " + os.urandom(16).hex().encode()
        jwe = encrypt(group, plaintext)
        for case in group:
            theirs.append(dict(case, jwe=jwe, plaintext=plaintext.hex()))
    with open(theirs_path, "w") as f:
        json.dump(theirs, f, indent=1)
    print(f"{len(cases)} typed-hpke-jose JWEs decrypted by the pyhpke peer; {len(theirs)} written")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

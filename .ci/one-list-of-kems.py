#!/usr/bin/env python3
"""Fails if a file outside the library keeps a list of every KEM.

The library's table (`src/suite/table.rs`) is the one list of KEMs; tests, tools, the fuzz
targets and the ct harness take the matrix from it (`suite::AnyKem::all`, `Suite::all`,
`suite::KEM_IDS`) so that a KEM added there reaches them with no other change. A file that
names every KEM type of the table is such a list, written again. The few that must name each
one, because what they say differs per KEM, are listed below with the reason; any other file
naming them all fails this check. Files that name one KEM, or several, for a fact about those
KEMs (a protocol's registry, a test of a KEM's own behaviour) are not lists and pass.
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Files allowed to name every KEM of the table, and why each must.
ALLOWED = {
    # The provider's public ECH suite constants, one per (KEM, KDF, AEAD), as rustls' own
    # providers list theirs: which suites ECH offers is the protocol crate's decision.
    "integrations/rustls/src/lib.rs",
    # The comparative bench's floor column: each KEM's own primitive calls, written per KEM.
    "measure/src/compare/floor.rs",
    # The differential tests: each peer's KEM types, paired with ours, one named test per cell.
    "measure/tests/differential.rs",
}


def kem_types() -> list[str]:
    table = (ROOT / "src/suite/table.rs").read_text()
    body = table[table.index("dh_kems:") : table.index("two_stage_kdfs:")]
    names = re.findall(r"crate::kem::(\w+)", body)
    if len(names) < 2:
        sys.exit("one-list-of-kems: found no KEM in src/suite/table.rs")
    return names


def main() -> int:
    kems = kem_types()
    files = subprocess.run(
        ["git", "ls-files", "-z", "--", "*.rs", "*.py", "*.sh", "*.toml"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\0")
    lists = []
    for name in filter(None, files):
        if name.startswith("src/"):
            continue
        text = (ROOT / name).read_text(errors="replace")
        if all(re.search(rf"\b{kem}\b", text) for kem in kems):
            lists.append(name)
    unexpected = [f for f in lists if f not in ALLOWED]
    stale = sorted(ALLOWED - set(lists))
    for f in unexpected:
        print(
            f"{f}: names every KEM of src/suite/table.rs; take them from the library "
            "(suite::AnyKem::all, Suite::all, suite::KEM_IDS), or list the file in "
            ".ci/one-list-of-kems.py with the reason it must name each",
            file=sys.stderr,
        )
    for f in stale:
        print(f"{f}: listed in .ci/one-list-of-kems.py but no longer names every KEM", file=sys.stderr)
    if unexpected or stale:
        return 1
    print(f"one list of KEMs: {len(kems)} KEMs; outside src/, only the {len(ALLOWED)} files allowed name them all")
    return 0


if __name__ == "__main__":
    sys.exit(main())

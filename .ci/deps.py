#!/usr/bin/env python3
"""The dependency policy, checked without the network (.ci/run; .ci/deps-policy.toml says why
each exception is one).

For each published crate of the workspace (and typed-hpke-age, which has a lockfile of its
own), over what it depends on to build (normal and build dependencies, as Cargo.lock resolves
them; dev-dependencies and the unpublished members are not shipped):
- every crate comes from crates.io or from this repository (no git, no other registry);
- every crate's licence expression is satisfiable by the licences the policy allows;
- no cryptography crate is built in two versions (two generations of sha2 or p256 in one
  binary are two implementations to trust and to patch), except the pairs the policy lists for
  that crate, with the reason.
RustSec advisories need the advisory database, which a CI run without the network does not
have: they are checked when someone works on the project (CONTRIBUTING.md), and the result is
in that session's note.
"""

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLICY = tomllib.loads((ROOT / ".ci/deps-policy.toml").read_text())
CRATES_IO = "registry+https://github.com/rust-lang/crates.io-index"


def is_crypto(name: str) -> bool:
    return name in POLICY["crypto"]["crates"] or any(
        name.startswith(p) for p in POLICY["crypto"]["prefixes"]
    )


def licence_ok(expression: str) -> bool:
    """An SPDX expression (OR, AND, WITH, parentheses; the old `/` as OR) one can comply with
    using only the allowed licences."""
    allowed = set(POLICY["licences"]["allowed"])
    tokens = re.findall(r"\(|\)|[A-Za-z0-9.+-]+", expression.replace("/", " OR "))
    pos = 0

    def parse_or():
        nonlocal pos
        value = parse_and()
        while pos < len(tokens) and tokens[pos] == "OR":
            pos += 1
            value = parse_and() or value
        return value

    def parse_and():
        nonlocal pos
        value = parse_atom()
        while pos < len(tokens) and tokens[pos] == "AND":
            pos += 1
            value = parse_atom() and value
        return value

    def parse_atom():
        nonlocal pos
        if tokens[pos] == "(":
            pos += 1
            value = parse_or()
            pos += 1  # ")"
            return value
        name = tokens[pos]
        pos += 1
        if pos < len(tokens) and tokens[pos] == "WITH":
            exception = tokens[pos + 1]
            pos += 2
            return name in allowed and exception in POLICY["licences"]["exceptions"]
        return name in allowed

    return bool(tokens) and parse_or() and pos == len(tokens)


def check(manifest_dir: Path, published: list[str]) -> list[str]:
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--locked", "--format-version", "1"],
            cwd=manifest_dir,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    problems = []
    for root_name in published:
        root = next(i for i, p in packages.items() if p["name"] == root_name and p["source"] is None)
        # What the crate builds with: normal and build dependencies, transitively.
        seen, todo = set(), [root]
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            for dep in nodes[pid]["deps"]:
                if any(k["kind"] in (None, "build") for k in dep["dep_kinds"]):
                    todo.append(dep["pkg"])
        versions = {}
        for pid in seen:
            p = packages[pid]
            if p["source"] not in (None, CRATES_IO):
                problems.append(f"{root_name}: {p['name']} {p['version']} comes from {p['source']}")
            if p["source"] is not None:
                lic = p.get("license") or ""
                waived = POLICY["licences"].get("crates", {}).get(p["name"]) == lic
                if not licence_ok(lic) and not waived:
                    problems.append(f"{root_name}: {p['name']} {p['version']}: licence {lic!r}")
            if is_crypto(p["name"]):
                versions.setdefault(p["name"], set()).add(p["version"])
        allowed = POLICY["duplicates"].get(root_name, {}).get("crates", [])
        for name, vs in sorted(versions.items()):
            if len(vs) > 1 and name not in allowed:
                problems.append(f"{root_name}: two generations of {name}: {', '.join(sorted(vs))}")
        for name in allowed:
            if len(versions.get(name, ())) < 2:
                problems.append(f"{root_name}: the policy allows two {name}, and there is one: remove it")
        print(f"{root_name}: {len(seen)} crates, "
              f"{sum(len(v) > 1 for v in versions.values())} cryptography crates in two versions "
              f"({len(allowed)} allowed)")
    return problems


# The expression reader, on the forms crates.io has.
assert licence_ok("MIT OR Apache-2.0") and licence_ok("MIT/Apache-2.0")
assert licence_ok("(MIT OR Apache-2.0) AND Unicode-3.0")
assert licence_ok("Apache-2.0 WITH LLVM-exception OR Apache-2.0 OR MIT")
assert not licence_ok("GPL-3.0-only") and not licence_ok("MIT AND GPL-2.0-or-later")
assert not licence_ok("MPL-2.0") and not licence_ok("")
assert not licence_ok("Apache-2.0 WITH Classpath-exception-2.0")

problems = check(ROOT, POLICY["published"]["workspace"])
problems += check(ROOT / "integrations/age", POLICY["published"]["age"])
for problem in problems:
    print(problem, file=sys.stderr)
sys.exit(1 if problems else 0)

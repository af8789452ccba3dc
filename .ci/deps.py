#!/usr/bin/env python3
"""The dependency policy, checked without the network beyond the crates' download (.ci/run;
.ci/deps-policy.toml says why each exception is one).

For each published crate of the workspace (and typed-hpke-age, which has a lockfile of its
own), over what it builds with in this repository's lockfile, every feature of its own on, for
every target (`cargo tree -e normal,build --all-features --target all`: dev-dependencies are not
shipped, and the workspace's other members do not add their features):
- every crate comes from crates.io or from this repository (no git, no other registry, no path
  outside it);
- every crate's licence expression is satisfiable by the licences the policy allows, or the
  policy waives that licence for that crate, at that version, in that published crate;
- no crate is built in two versions (two generations of sha2 or getrandom in one binary are two
  implementations to trust and to patch), except the exact versions the policy lists for that
  crate and that published crate, with the reason.
A user's build resolves its own lockfile: what is checked is this one, which CI and the
benchmarks build. RustSec advisories need the advisory database, which a CI run without the
network does not have: they are checked when someone works on the project (CONTRIBUTING.md),
and the result is in that session's note.
"""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLICY = tomllib.loads((ROOT / ".ci/deps-policy.toml").read_text())
LINE = re.compile(r"^(\S+) v(\S+)(?: \((?!proc-macro\))([^)]*)\))?(?: \(proc-macro\))?\|(.*?)(?: \(\*\))?$")


def licence_ok(expression: str) -> bool:
    """Whether an SPDX expression (OR, AND, WITH, parentheses; the old `/` as OR) can be
    complied with using only the allowed licences. A malformed expression is not."""
    allowed = set(POLICY["licences"]["allowed"])
    tokens = re.findall(r"\(|\)|[A-Za-z0-9.+-]+", expression.replace("/", " OR "))
    pos = 0

    class Malformed(Exception):
        pass

    def take():
        nonlocal pos
        if pos >= len(tokens):
            raise Malformed
        pos += 1
        return tokens[pos - 1]

    def parse_or():
        value = parse_and()
        while pos < len(tokens) and tokens[pos] == "OR":
            take()
            value = parse_and() or value
        return value

    def parse_and():
        value = parse_atom()
        while pos < len(tokens) and tokens[pos] == "AND":
            take()
            value = parse_atom() and value
        return value

    def parse_atom():
        token = take()
        if token == "(":
            value = parse_or()
            if take() != ")":
                raise Malformed
            return value
        if token in ("(", ")", "AND", "OR", "WITH"):
            raise Malformed
        if pos < len(tokens) and tokens[pos] == "WITH":
            take()
            return token in allowed and take() in POLICY["licences"]["exceptions"]
        return token in allowed

    try:
        value = parse_or()
    except Malformed:
        return False
    return value and pos == len(tokens)


def built_with(workspace: Path, published: str) -> set[tuple[str, str, str, str]]:
    """(name, version, where, licence) of every crate `published` builds with."""
    out = subprocess.run(
        ["cargo", "tree", "--locked", "-p", published, "-e", "normal,build", "--all-features",
         "--target", "all", "--prefix", "none", "--format", "{p}|{l}"],
        cwd=workspace, capture_output=True, text=True, check=True,
    ).stdout
    crates = set()
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            raise SystemExit(f"deps.py: cannot read cargo tree's line {line!r}")
        name, version, where, licence = m.groups()
        crates.add((name, version, where or "", licence))
    return crates


def check(workspace: Path, published: list[str]) -> list[str]:
    problems = []
    for root in published:
        crates = built_with(workspace, root)
        versions: dict[str, set[str]] = {}
        for name, version, where, licence in crates:
            if where and not where.startswith("/"):
                problems.append(f"{root}: {name} {version} comes from {where}")
            if where.startswith("/") and not Path(where).resolve().is_relative_to(ROOT):
                problems.append(f"{root}: {name} {version} is a path outside the repository: {where}")
            waived = any(
                w["crate"] == name and w["version"] == version and w["licence"] == licence
                and root in w["published"]
                for w in POLICY["licences"].get("waivers", [])
            )
            if not licence_ok(licence) and not waived:
                problems.append(f"{root}: {name} {version}: licence {licence!r}")
            versions.setdefault(name, set()).add(version)
        entry = POLICY["duplicates"].get(root, {})
        # `same-as`: a crate built on another published one (a plugin on its library) has that
        # one's duplicates, and no more unless it lists them.
        own = {**POLICY["duplicates"].get(entry.get("same-as", ""), {}).get("versions", {}),
               **entry.get("versions", {})}
        allowed = {**COMMON, **own}
        for name, vs in sorted(versions.items()):
            if len(vs) > 1:
                if sorted(vs) == sorted(allowed.get(name, [])):
                    COMMON_SEEN.add(name)
                else:
                    problems.append(f"{root}: {name} in {len(vs)} versions: {', '.join(sorted(vs))}")
        for name, vs in own.items():
            if sorted(versions.get(name, ())) != sorted(vs):
                problems.append(f"{root}: the policy allows {name} {', '.join(vs)}, which is not "
                                f"what is built ({', '.join(sorted(versions.get(name, ()))) or 'none'})")
        print(f"{root}: {len(crates)} crates, "
              f"{sum(len(v) > 1 for v in versions.values())} built in two versions, each allowed")
    return problems


# Duplicates every published crate may have (where they occur); each must occur somewhere.
COMMON = POLICY["duplicates"].get("*", {}).get("versions", {})
COMMON_SEEN: set[str] = set()


# The expression reader, on the forms crates.io has, and on malformed ones.
assert licence_ok("MIT OR Apache-2.0") and licence_ok("MIT/Apache-2.0")
assert licence_ok("(MIT OR Apache-2.0) AND Unicode-3.0")
assert licence_ok("Apache-2.0 WITH LLVM-exception OR Apache-2.0 OR MIT")
assert not licence_ok("GPL-3.0-only") and not licence_ok("MIT AND GPL-2.0-or-later")
assert not licence_ok("MPL-2.0") and not licence_ok("")
assert not licence_ok("Apache-2.0 WITH Classpath-exception-2.0")
for malformed in ["(MIT GPL-3.0-only", "(Apache-2.0 LGPL-2.1-only", "MIT AND", "MIT OR", "(",
                  "MIT WITH", "MIT)", "OR MIT", "MIT MIT"]:
    assert not licence_ok(malformed), malformed

problems = check(ROOT, POLICY["published"]["workspace"])
problems += check(ROOT / "integrations/age", POLICY["published"]["age"])
for name in sorted(set(COMMON) - COMMON_SEEN):
    problems.append(f"the policy allows {name} {', '.join(COMMON[name])} everywhere, and no "
                    "published crate builds those versions: remove it")
for problem in problems:
    print(problem, file=sys.stderr)
sys.exit(1 if problems else 0)

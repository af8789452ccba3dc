#!/usr/bin/env python3
"""Compares a cargo-mutants run with mutants/survivors.tsv (see mutants/run).

Usage: check.py OUT_DIR FILE...   (OUT_DIR/<package>/mutants.out, one per group of mutants/run)

Every mutant the run missed (missed.txt) or that timed out (timeout.txt) in the given files
must have a line in survivors.tsv, `file<TAB>mutant<TAB>reason`, with a reason; a listed mutant
of those files that the run caught is stale and must go. The mutant is named without its line
and column, so an edit elsewhere in the file does not make the list stale.
"""
import glob, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def mutants(path):
    """{(file, description)} of a cargo-mutants outcome file."""
    found = set()
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r"^(\S+?):\d+:\d+: (.*)$", line.strip())
            if m:
                found.add((m.group(1), m.group(2)))
    return found


def main():
    root, files = sys.argv[1], set(sys.argv[2:])
    survived, caught = set(), set()
    for out in glob.glob(os.path.join(root, "*", "mutants.out")):
        survived |= mutants(os.path.join(out, "missed.txt")) | mutants(os.path.join(out, "timeout.txt"))
        # With --iterate, what an earlier run caught is not tested again and is listed here.
        caught |= mutants(os.path.join(out, "caught.txt")) | mutants(os.path.join(out, "unviable.txt")) \
            | mutants(os.path.join(out, "previously_caught.txt"))
    listed, problems = {}, []
    for n, line in enumerate(open(os.path.join(HERE, "survivors.tsv")), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.rstrip("\n").split("\t")
        if len(parts) != 3 or not parts[2].strip():
            problems.append(f"survivors.tsv:{n}: want file<TAB>mutant<TAB>reason")
            continue
        listed[(parts[0], parts[1])] = parts[2]
    for key in sorted(survived):
        if key[0] in files and key not in listed:
            problems.append(f"missed, and not in survivors.tsv: {key[0]}: {key[1]}")
    for key in sorted(listed):
        if key[0] in files and key in caught:
            problems.append(f"caught now, so stale in survivors.tsv: {key[0]}: {key[1]}")
    ran = {k for k in survived | caught if k[0] in files}
    for file in sorted(files - {k[0] for k in ran}):
        problems.append(f"no mutant of {file} in the run's results")
    print(f"mutants: {len(ran)} in {len(files)} files, {len(ran & caught)} caught or unviable, "
          f"{len([k for k in survived if k[0] in files])} survived "
          f"({len([k for k in survived if k[0] in files and k in listed])} listed with a reason)")
    if problems:
        sys.exit("\n".join(problems))


if __name__ == "__main__":
    main()

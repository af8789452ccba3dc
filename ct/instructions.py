#!/usr/bin/env python3
"""The hot paths' instruction counts (ct/src/instructions.rs) against ct/instructions.tsv.

    ct/instructions.py BACKEND CPU ITERATIONS < counts  (check; ct/run calls it)
    CT_INSTRUCTIONS=update ct/instructions.py ...       (rewrite the backend's baseline)

`counts` is `path<TAB>instructions` per line, over ITERATIONS operations (the program prints
its paths and that number), as callgrind totals them. A path of the baseline that the program
does not count fails the check, under any CPU. A path that grows past its baseline by more than TOLERANCE fails the check; one
that shrinks by more is reported, so that the baseline is regenerated on purpose (like
BENCHMARKS.md). A baseline holds for the CPU features it was recorded under (which code runs
depends on them): under others the counts are printed and not judged.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINE = os.path.join(HERE, "instructions.tsv")
TOLERANCE = 0.03
HEADER = """\
# Instructions per operation of typed-hpke's hot paths, per backend, counted by callgrind
# (ct/src/instructions.rs; ct/run checks them, ct/instructions.py says how). Regenerate on
# purpose: CT_INSTRUCTIONS=update bash ct/run [backend ...]
# cpu<TAB>backend<TAB>the CPU features valgrind showed the program when the counts were taken
# backend<TAB>path<TAB>instructions per operation
"""


def read_baseline():
    cpus, counts = {}, {}
    if os.path.exists(BASELINE):
        for line in open(BASELINE):
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "cpu":
                cpus[fields[1]] = fields[2]
            else:
                counts[(fields[0], fields[1])] = int(fields[2])
    return cpus, counts


def main():
    backend, cpu, iterations = sys.argv[1], sys.argv[2], int(sys.argv[3])
    now = {}
    for line in sys.stdin:
        if line.strip():
            path, count = line.split("\t")
            now[path] = int(count) // iterations
    if not now:
        sys.exit(f"ct instructions ({backend}): callgrind counted no hot path")
    cpus, base = read_baseline()
    if os.environ.get("CT_INSTRUCTIONS") == "update":
        cpus[backend] = cpu
        base = {k: v for k, v in base.items() if k[0] != backend}
        base.update({(backend, path): count for path, count in now.items()})
        with open(BASELINE, "w") as f:
            f.write(HEADER)
            for b in sorted(cpus):
                f.write(f"cpu\t{b}\t{cpus[b]}\n")
            for (b, path), count in sorted(base.items()):
                f.write(f"{b}\t{path}\t{count}\n")
        print(f"ct instructions ({backend}): baseline written, {len(now)} paths")
        return
    judged = cpus.get(backend) == cpu
    if not judged:
        print(f"ct instructions ({backend}): note: the baseline was taken with CPU features "
              f"'{cpus.get(backend)}', valgrind shows '{cpu}' here: counts printed, not judged")
    failed = False
    for (b, path) in sorted(base):
        if b == backend and path not in now:
            print(f"ct instructions ({backend}): {path}: in the baseline, not counted")
            failed = True
    for path in sorted(now):
        old = base.get((backend, path))
        if old is None:
            print(f"ct instructions ({backend}): {path}: {now[path]} (no baseline)")
            failed |= judged
            continue
        ratio = now[path] / old
        verdict = ""
        if ratio > 1 + TOLERANCE:
            verdict = "  GREW past the baseline"
            failed |= judged
        elif ratio < 1 - TOLERANCE:
            verdict = "  below the baseline: regenerate it (CT_INSTRUCTIONS=update)"
        print(f"ct instructions ({backend}): {path}: {now[path]} / {old} = {ratio:.3f}{verdict}")
    if failed:
        sys.exit(f"ct instructions ({backend}): a hot path grew by more than "
                 f"{TOLERANCE:.0%} (or has no baseline, or was not counted); if that is "
                 "intended, regenerate ct/instructions.tsv with CT_INSTRUCTIONS=update bash ct/run")


if __name__ == "__main__":
    main()

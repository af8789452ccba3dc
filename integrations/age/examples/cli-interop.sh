#!/usr/bin/env bash
# The example CLI against Go's age (filippo.io/age, the reference implementation), both ways,
# and with a P-256 key in a SoftHSM2 token. Run by .ci/run:
#   examples/cli-interop.sh CLI GO_AGE_BIN_DIR
# CLI is the built example; GO_AGE_BIN_DIR holds Go's `age` and `age-keygen`. Needs
# softhsm2-util. Every step's output is compared with its input.
set -euo pipefail
cli="$1"
goage="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
head -c 200000 /dev/urandom > plain
: > empty

echo "-- mlkem768x25519: our keys, Go encrypts, we decrypt; we encrypt, Go decrypts"
"$cli" keygen -o ours.key
ours="$("$cli" recipient ours.key)"
case "$ours" in age1pq1*) ;; *) echo "not a pq recipient: $ours" >&2; exit 1 ;; esac
"$goage/age" -r "$ours" -o go.age plain
"$cli" decrypt -i ours.key -o out go.age && cmp plain out
"$cli" encrypt -r "$ours" -a -o ours.age plain
"$goage/age" -d -i ours.key -o out ours.age && cmp plain out
"$cli" encrypt -r "$ours" -o ours-empty.age empty
"$goage/age" -d -i ours.key -o out ours-empty.age && cmp empty out

echo "-- mlkem768x25519: Go's keys, both ways"
"$goage/age-keygen" -pq -o go.key 2>/dev/null
gor="$("$goage/age-keygen" -y go.key)"
test "$("$cli" recipient go.key)" = "$gor"
"$cli" encrypt -r "$gor" -r "$ours" -o both.age plain
"$goage/age" -d -i go.key -o out both.age && cmp plain out
"$cli" decrypt -i ours.key -o out both.age && cmp plain out
"$goage/age" -r "$gor" -r "$ours" -a -o go-both.age plain
"$cli" decrypt -i go.key -o out go-both.age && cmp plain out

echo "-- mixing post-quantum and classical recipients is refused"
x25519="$("$goage/age-keygen" 2>/dev/null | sed -n 's/^# public key: //p')"
if "$cli" encrypt -r "$ours" -r "$x25519" -o mixed.age plain 2>err; then
    echo "a post-quantum and an X25519 recipient were mixed" >&2; exit 1
fi
cat err

echo "-- p256tag and mlkem768p256tag in software: Go encrypts, we decrypt"
for kind in tag tagpq; do
    "$cli" keygen --$kind -o $kind.key
    r="$("$cli" recipient $kind.key)"
    "$goage/age" -r "$r" -o go-$kind.age plain
    "$cli" decrypt -i $kind.key -o out go-$kind.age && cmp plain out
done

echo "-- p256tag: a key in a SoftHSM2 token; Go and we encrypt to it, the token decrypts"
mkdir tokens
printf 'directories.tokendir = %s/tokens\nobjectstore.backend = file\nlog.level = ERROR\n' "$work" > softhsm2.conf
export SOFTHSM2_CONF="$work/softhsm2.conf"
softhsm2-util --init-token --free --label age --so-pin 12345678 --pin 1234 >/dev/null
uri="pkcs11:token=age;object=file-key?pin-value=1234"
tag="$("$cli" keygen "$uri")"
case "$tag" in age1tag1*) ;; *) echo "not a tag recipient: $tag" >&2; exit 1 ;; esac
test "$("$cli" recipient "$uri")" = "$tag"
"$goage/age" -r "$tag" -r "$x25519" -o go-tag.age plain
"$cli" decrypt -i "$uri" -o out go-tag.age && cmp plain out
"$cli" encrypt -r "$tag" -a -o tag.age plain
"$cli" decrypt -i "$uri" -o out tag.age && cmp plain out
# A file for another key: no match, and an error exit.
if "$cli" decrypt -i "$uri" -o out go.age 2>err; then
    echo "the token key opened a file not sent to it" >&2; exit 1
fi
cat err
echo "cli-interop: ok"

#!/usr/bin/env bash
# age-plugin-pkcs11tag with the command lines its users run, against a SoftHSM2 token: Go's age
# v1.3.2 and rage 0.12.1 each encrypt to the age1tag1... / age1tagpq1... recipient the keygen
# prints (natively: recipients need no plugin) and each decrypts with -i on the plugin's identity
# file (through the plugin). Run by integrations/age/ci-run:
#   plugin-pkcs11tag/cli-interop.sh PLUGIN GO_BIN_DIR RAGE_BIN_DIR [kryoptic]
# Without the fourth argument, against a SoftHSM2 token made here (P-256 keys only: its
# mlkem768p256tag keys keep the ML-KEM-768 half in the identity, --pq-split). With `kryoptic`,
# against the token of $KRYOPTIC_CONF (label "age", PIN 1234) and the module $KRYOPTIC_MODULE,
# as examples/with_kryoptic_token.rs sets them (.ci/run runs it so once kryoptic is built): its
# mlkem768p256tag keys keep both halves in the token (--pq).
set -euo pipefail
. "$(dirname "$0")/../cli-common.sh"

if [ "${4:-}" = kryoptic ]; then
    module="$KRYOPTIC_MODULE"
    kind=kryoptic
    modes=("" --pq --pq-split)
else
    modes=("" --pq-split)
    module="$(for m in /usr/lib/softhsm/libsofthsm2.so /usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so \
        /usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so /usr/local/lib/softhsm/libsofthsm2.so; do
        [ -e "$m" ] && echo "$m" && break; done)"
    mkdir tokens
    printf 'directories.tokendir = %s/tokens\nobjectstore.backend = file\nlog.level = ERROR\n' "$work" > softhsm2.conf
    export SOFTHSM2_CONF="$work/softhsm2.conf"
    softhsm2-util --init-token --free --label age --so-pin 12345678 --pin 1234 >/dev/null
    kind=softhsm
fi
export AGE_PLUGIN_PKCS11TAG_PIN=1234


for pq in "${modes[@]}"; do
    case "$pq" in "") name=p256tag ;; --pq) name=mlkem768p256tag ;; *) name=mlkem768p256tag-split ;; esac
    echo "-- $name ($kind): keygen, then Go's age and rage each encrypt and each decrypt"
    age-plugin-pkcs11tag --generate $pq --module "$module" --token age --label "$name" \
        -o "$name.key" 2> keygen.err
    cat keygen.err
    test "$(stat -c %a "$name.key")" = 600
    recipient="$(sed -n 's/^# public key: //p' "$name.key")"
    case "$pq:$recipient" in :age1tag1*|--pq*:age1tagpq1*) ;;
        *) echo "not a $name recipient: $recipient" >&2; exit 1 ;; esac
    grep -q '^AGE-PLUGIN-PKCS11TAG-1' "$name.key"
    "$go/age" -r "$recipient" -o "go-$name.age" plain
    "$rage" -r "$recipient" -a -o "rage-$name.age" plain
    for file in "go-$name.age" "rage-$name.age"; do
        rm -f out
        "$go/age" -d -i "$name.key" -o out "$file" && cmp plain out
        rm -f out
        "$rage" -d -i "$name.key" -o out "$file" && cmp plain out
    done
    # To the identity's own recipient (age -e -i, rage -e -i): from the public key the identity
    # holds, with no token (no PIN at hand).
    env -u AGE_PLUGIN_PKCS11TAG_PIN "$rage" -e -i "$name.key" -o "self-$name.age" plain
    env -u AGE_PLUGIN_PKCS11TAG_PIN "$go/age" -e -i "$name.key" -a -o "go-self-$name.age" plain
    for file in "self-$name.age" "go-self-$name.age"; do
        rm -f out
        "$go/age" -d -i "$name.key" -o out "$file" && cmp plain out
    done
    # A PIN asked of the client, not in the environment: refused without a terminal, as an
    # error.
    fails env -u AGE_PLUGIN_PKCS11TAG_PIN "$rage" -d -i "$name.key" -o out "go-$name.age" < /dev/null
    grep -q "no PIN given" err.txt
done

echo "-- errors, never a crash"
"$go/age-keygen" -o other.key 2>/dev/null
"$go/age" -r "$("$go/age-keygen" -y other.key)" -o other.age plain
# A file not to the token's key: no token is opened, so not even a wrong PIN is tried.
AGE_PLUGIN_PKCS11TAG_PIN=0000 fails "$rage" -d -i p256tag.key -o out other.age
grep -q "No matching keys" err.txt
AGE_PLUGIN_PKCS11TAG_PIN=0000 fails "$go/age" -d -i p256tag.key -o out other.age
grep -q "no identity matched" err.txt
# A file to another key of the same type.
"$go/age" -r "$(sed -n 's/^# public key: //p' mlkem768p256tag-split.key)" -o to-split.age plain
fails "$rage" -d -i p256tag.key -o out to-split.age
# A label in use; on SoftHSM2, an ML-KEM key in the token.
fails age-plugin-pkcs11tag --generate --module "$module" --token age --label p256tag
if [ "$kind" = softhsm ]; then
    fails age-plugin-pkcs11tag --generate --pq --module "$module" --token age --label pq
fi
# An output file that exists: refused before a key is made, so the label stays free.
fails age-plugin-pkcs11tag --generate --module "$module" --token age --label fresh -o p256tag.key
age-plugin-pkcs11tag --generate --module "$module" --token age --label fresh -o fresh.key 2>/dev/null
# A module another user can write (here, under the temporary directory) is not loaded.
cp "$module" "$work/copy.so"
fails age-plugin-pkcs11tag --generate --module "$work/copy.so" --token age --label copied
grep -q "writable by another user" err.txt
# A wrong PIN is the token's error, for each client.
AGE_PLUGIN_PKCS11TAG_PIN=0000 fails "$rage" -d -i p256tag.key -o out go-p256tag.age
grep -q -i "PIN" err.txt
AGE_PLUGIN_PKCS11TAG_PIN=0000 fails "$go/age" -d -i p256tag.key -o out go-p256tag.age
grep -q -i "PIN" err.txt
if [ "$kind" = softhsm ]; then
    # SoftHSM2 flags its user PIN after one failure (CKF_USER_PIN_COUNT_LOW): from then on a PIN
    # from the environment, even the right one, is not tried (a stale variable would lock a
    # token that counts), and the user is told to be asked instead.
    fails "$rage" -d -i p256tag.key -o out go-p256tag.age
    grep -q "has failed before" err.txt
fi
if [ "$kind" = softhsm ]; then
    # The key removed: the token initialized again under its label (every object gone).
    softhsm2-util --init-token --token age --label age --so-pin 12345678 --pin 1234 >/dev/null
    fails "$rage" -d -i p256tag.key -o out go-p256tag.age
    grep -q "no such token or key" err.txt
    fails "$go/age" -d -i mlkem768p256tag-split.key -o out go-mlkem768p256tag-split.age
fi
echo "age-plugin-pkcs11tag ($kind): Go's age v1.3.2 and rage 0.12.1, both directions, and the errors"

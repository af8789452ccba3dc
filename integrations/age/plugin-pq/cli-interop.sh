#!/usr/bin/env bash
# age-plugin-pq with the command lines its users run: rage 0.12.1 (which has no mlkem768x25519
# of its own and runs the plugin for every age1pq1... recipient and AGE-PLUGIN-PQ-1... identity)
# and Go's age v1.3.2 (native mlkem768x25519, and a plugin client), against Go's own
# extra/age-plugin-pq. Run by integrations/age/ci-run:
#   plugin-pq/cli-interop.sh PLUGIN GO_BIN_DIR RAGE_BIN_DIR
# PLUGIN is the built age-plugin-pq; GO_BIN_DIR holds Go's age, age-keygen and age-plugin-pq;
# RAGE_BIN_DIR holds rage. Every decryption's output is compared with the plaintext.
set -euo pipefail
. "$(dirname "$0")/../cli-common.sh"
: > empty

echo "-- -identity: ours and Go's extra/age-plugin-pq convert the same identities byte for byte"
"$go/age-keygen" -pq -o go.key 2>/dev/null
"$go/age-keygen" -pq -o go2.key 2>/dev/null
recipient="$("$go/age-keygen" -y go.key)"
case "$recipient" in age1pq1*) ;; *) echo "not a pq recipient: $recipient" >&2; exit 1 ;; esac
# Two keys with age-keygen's comments and an empty line between them, CRLF on one.
{ cat go.key; echo; sed 's/$/\r/' go2.key; } > two.key
for input in go.key two.key; do
    "$go/age-plugin-pq" -identity "$input" > theirs.txt
    age-plugin-pq -identity "$input" > mine.txt
    cmp theirs.txt mine.txt
    age-plugin-pq -identity < "$input" > mine-stdin.txt
    cmp theirs.txt mine-stdin.txt
done
test "$(wc -l < theirs.txt)" -eq 2
# Inputs at the edges of Go's reading rules: both refuse, or both print the same bytes.
same_as_go() {
    local ours=0 theirs=0
    age-plugin-pq -identity "$1" > mine.txt 2>/dev/null || ours=$?
    "$go/age-plugin-pq" -identity "$1" > theirs.txt 2>/dev/null || theirs=$?
    if [ "$ours" -ne 0 ] || [ "$theirs" -ne 0 ]; then
        [ "$ours" -ne 0 ] && [ "$theirs" -ne 0 ] \
            || { echo "$1: ours exit $ours, Go's exit $theirs" >&2; exit 1; }
        echo "   both refuse $1"
    else
        cmp mine.txt theirs.txt
        echo "   both convert $1"
    fi
}
key="$(grep -v '^#' go.key)"
printf '%s\n' "$key" | tr 'A-Z' 'a-z' > lower.key
{ printf '# \xff\xfe not UTF-8\n'; echo "$key"; } > latin.key
for n in 65534 65535 65536; do
    { printf '#%*s\n' $((n - 1)) '' | tr ' ' x; echo "$key"; } > "line-$n.key"
done
{ echo "$key"; printf '\xef\xbb\xbf%s\n' "$key"; } > bom.key
{ echo "$key"; echo " "; } > space.key
printf '%s' "$key" > no-newline.key
for input in lower.key latin.key line-65534.key line-65535.key line-65536.key bom.key \
    space.key no-newline.key; do
    same_as_go "$input"
done
# Go's flag rules: `--` ends the flags, a boolean flag takes a value; a file name that is not
# UTF-8 is a file name (it used to panic).
age-plugin-pq -identity -- go.key | cmp - <("$go/age-plugin-pq" -identity go.key)
age-plugin-pq -identity=true go.key | cmp - <("$go/age-plugin-pq" -identity go.key)
fails age-plugin-pq -identity "$(printf 'no-such-\xff')"
age-plugin-pq -identity -o plugin.key go.key
cmp plugin.key <("$go/age-plugin-pq" -identity go.key)
test "$(stat -c %a plugin.key)" = 600
fails age-plugin-pq -identity -o plugin.key go.key
fails age-plugin-pq -identity empty
"$go/age-keygen" -o x25519.key 2>/dev/null
fails age-plugin-pq -identity x25519.key
# The identity file's limit, 16 MiB as Go's: a file of exactly that size (one key, then comment
# lines) converts; one byte more is refused, from a file and from standard input.
python3 - go.key <<'PY'
import sys
key = open(sys.argv[1], "rb").read()
pad = 16 * 1024 * 1024 - len(key)
line = b"#" + b"x" * 1022 + b"\n"
body = key + line * (pad // len(line))
body += b"#" * (16 * 1024 * 1024 - len(body) - 1) + b"\n"
assert len(body) == 16 * 1024 * 1024
open("limit.key", "wb").write(body)
open("over.key", "wb").write(body + b"\n")
PY
cmp <(age-plugin-pq -identity limit.key) <("$go/age-plugin-pq" -identity go.key)
fails age-plugin-pq -identity over.key
fails age-plugin-pq -identity < over.key

echo "-- Go's native age encrypts, rage decrypts with the plugin identity (our plugin)"
"$go/age" -r "$recipient" -o go.age plain
"$rage" -d -i plugin.key -o out go.age && cmp plain out
"$go/age" -r "$recipient" -a -o go-empty.age empty
# (rage creates its output file at the first byte it writes: an empty file goes to stdout.)
"$rage" -d -i plugin.key go-empty.age > out && cmp empty out

echo "-- rage encrypts to age1pq1... (our plugin), Go's native age decrypts"
"$rage" -r "$recipient" -o rage.age plain
"$go/age" -d -i go.key -o out rage.age && cmp plain out
# To a plugin identity's own recipient (rage -e -i), and to two recipients at once.
"$rage" -e -i plugin.key -o rage-self.age plain
"$go/age" -d -i go.key -o out rage-self.age && cmp plain out
recipient2="$("$go/age-keygen" -y go2.key)"
"$rage" -r "$recipient" -r "$recipient2" -a -o rage-two.age plain
"$go/age" -d -i go2.key -o out rage-two.age && cmp plain out
"$rage" -d -i plugin.key -o out rage-two.age && cmp plain out

echo "-- Go's age as a plugin client: it decrypts with our plugin identity"
"$go/age" -d -i plugin.key -o out rage.age && cmp plain out
"$go/age" -d -i plugin.key -o out go.age && cmp plain out

echo "-- ours and Go's plugin open each other's files through rage"
"$rage" -d -i plugin.key -o out rage-two.age && cmp plain out
mkdir theirs
cp "$go/age-plugin-pq" theirs/age-plugin-pq
PATH="$work/theirs:$PATH" "$rage" -d -i plugin.key -o out rage.age && cmp plain out
PATH="$work/theirs:$PATH" "$rage" -r "$recipient" -o theirs.age plain
"$rage" -d -i plugin.key -o out theirs.age && cmp plain out

echo "-- errors, never a crash"
# A file not to this key.
"$go/age" -r "$recipient2" -o other.age plain
fails "$rage" -d -i <(age-plugin-pq -identity go.key) -o out other.age
# A post-quantum and a classical recipient in one file.
x25519="$("$go/age-keygen" -y x25519.key)"
fails "$rage" -r "$recipient" -r "$x25519" -o mixed.age plain
# Bech32 strings made here (BIP 173, without its length limit, as age's long keys need).
cat > bech32.py <<'PY'
import sys
CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
def polymod(values):
    gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
    chk = 1
    for v in values:
        b = chk >> 25
        chk = (chk & 0x1ffffff) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (b >> i) & 1 else 0
    return chk
def expand(hrp):
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
def convert(data, frombits, tobits):
    acc = bits = 0
    out = []
    for v in data:
        acc = acc << frombits | v
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            out.append(acc >> bits & (1 << tobits) - 1)
    if bits and frombits == 8:
        out.append(acc << (tobits - bits) & (1 << tobits) - 1)
    return out
def decode(s):
    s = s.lower()
    hrp, data = s[:s.rindex("1")], [CHARSET.index(c) for c in s[s.rindex("1") + 1:-6]]
    return hrp, bytes(convert(data, 5, 8))
def encode(hrp, key):
    d = convert(key, 8, 5)
    chk = polymod(expand(hrp.lower()) + d + [0] * 6) ^ 1
    return hrp + "1" + "".join(CHARSET[v] for v in d + [chk >> 5 * (5 - i) & 31 for i in range(6)])
if sys.argv[1] == "low-order":
    # The recipient with its X25519 half replaced by u = 0.
    hrp, key = decode(sys.argv[2])
    print(encode(hrp, key[:1184] + bytes(32)))
else:
    # A plugin identity of 31 bytes, not a seed.
    print(encode("AGE-PLUGIN-PQ-", bytes(31)).upper())
PY
# A recipient whose X25519 half is of low order (u = 0): refused when the plugin is given it.
fails "$rage" -r "$(python3 bech32.py low-order "$recipient")" -o low.age plain
# A plugin identity that is not a 32-byte seed.
python3 bech32.py short-identity > bad.key
fails "$rage" -d -i bad.key -o out go.age
# A stanza tampered with: one byte of the body flipped is another key's stanza (no match).
python3 - go.age tampered.age <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
i = data.index(b"\n", data.index(b"-> mlkem768x25519")) + 1
data[i] = ord("A") if data[i] != ord("A") else ord("B")
open(sys.argv[2], "wb").write(data)
PY
fails "$rage" -d -i plugin.key -o out tampered.age
echo "age-plugin-pq: rage 0.12.1 and Go's age v1.3.2, both ways, and Go's plugin: all agree"

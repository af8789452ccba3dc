# Sourced by the command-line tests (plugin-pq/cli-interop.sh, plugin-pkcs11tag/cli-interop.sh)
# with their first three arguments: PLUGIN GO_BIN_DIR RAGE_BIN_DIR. It sets $go and $rage, moves
# to a fresh directory removed on exit, puts PLUGIN first on PATH under its own file name, and
# writes `plain`, 100,000 random bytes.
go="$2"
rage="$3/rage"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
cp "$1" "$work/bin/"
export PATH="$work/bin:$PATH"
cd "$work"
head -c 100000 /dev/urandom > plain

# `fails COMMAND...` passes when COMMAND fails with an error message, and fails the test when
# it succeeds, dies of a signal, exits as a Rust panic does (101) or prints a panic.
fails() {
    local status=0
    "$@" > out.txt 2> err.txt || status=$?
    if [ "$status" -eq 0 ] || [ "$status" -gt 100 ]; then
        echo "expected a failure with an error, got exit $status: $*" >&2
        cat err.txt >&2
        exit 1
    fi
    if grep -q -i "panicked" err.txt; then
        echo "a panic: $*" >&2
        cat err.txt >&2
        exit 1
    fi
    echo "   refused: $(head -c 240 err.txt | tr '\n' ' ')"
}

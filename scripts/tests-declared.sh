#!/usr/bin/env bash
# Each crate's integration tests are one binary (tests/integration.rs declares every file of
# tests/ as a module; Cargo.toml sets autotests = false), so a test file that nobody declares
# would never be compiled or run. This fails, naming the file, when one is left out.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=0
for toml in crates/*/Cargo.toml; do
    crate=$(dirname "$toml")
    grep -q '^autotests = false' "$toml" || continue
    for file in "$crate"/tests/*.rs; do
        [ -e "$file" ] || continue
        name=$(basename "$file" .rs)
        [ "$name" = integration ] && continue
        if ! grep -q "^mod $name;" "$crate/tests/integration.rs" \
            && ! grep -q "^path = \"tests/$name.rs\"" "$toml"; then
            echo "tests-declared: $file is neither a module of $crate/tests/integration.rs nor a [[test]] of $toml: it would never run" >&2
            missing=1
        fi
    done
done
exit "$missing"

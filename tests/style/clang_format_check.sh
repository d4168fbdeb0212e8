#!/usr/bin/env bash
# .clang-format is the formatting law: every C++ file of the repository must be as clang-format
# writes it. Usage: clang_format_check.sh SOURCE_DIR [CLANG_FORMAT]. Lists the files that differ
# (with the first lines that would change) and fails; passes with a count of the files checked.
set -euo pipefail
src=$1
format=${2:-clang-format}
cd "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cc')
else
  mapfile -t files < <(find src include tests tools -name '*.cpp' -o -name '*.hpp' -o -name '*.h')
fi
if ((${#files[@]} == 0)); then
  echo "format: no C++ files found under $src"
  exit 1
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! "$format" --dry-run -Werror "${files[@]}" 2>"$out"; then
  grep -E '^[^ ].*error:' "$out" | cut -d: -f1 | sort -u | sed 's/^/format: differs: /'
  head -n 20 "$out"
  echo "format: run clang-format -i on the files above"
  exit 1
fi
echo "format: ${#files[@]} files as clang-format writes them"

#!/usr/bin/env bash
# The API reference's check (ctest api_reference): doxygen over include/rfk (docs/api/Doxyfile),
# writing into OUT, must give no warning at all: every public name documented, no broken
# reference, no markup doxygen misreads.
#   check_api_docs.sh SOURCE OUT
set -euo pipefail
source=$1 out=$2
rm -rf "$out"
mkdir -p "$out"
cd "$source"
{ cat docs/api/Doxyfile; echo "OUTPUT_DIRECTORY = $out"; echo "WARN_LOGFILE = $out/warnings.txt"; } | doxygen - >/dev/null
warnings=$(grep -cE 'warning|error' "$out/warnings.txt" || true)
echo "api_reference: $warnings doxygen warnings; HTML in $out/html"
if [ "$warnings" -ne 0 ]; then
  sed -n 1,60p "$out/warnings.txt"
  exit 1
fi

#!/usr/bin/env bash
# Starts Chromium ($SCMS_CHROMIUM) with its feature switches merged: every
# --disable-features=… into one, every --enable-features=… into one.
# Chromium keeps only the last of each, and Playwright passes its own list
# before the project's (scripts/browser/chromium.ts), so without the merge
# ours would silently replace Playwright's. Everything else is passed as it
# came, and exec keeps the pipes Playwright drives the browser through.
set -euo pipefail

args=()
disabled=()
enabled=()
for arg in "$@"; do
  case "$arg" in
    --disable-features=*) disabled+=("${arg#--disable-features=}") ;;
    --enable-features=*) enabled+=("${arg#--enable-features=}") ;;
    *) args+=("$arg") ;;
  esac
done

# Joined with commas, empty entries left out.
joined() {
  local IFS=,
  local list="$*"
  while [[ $list == *,,* ]]; do list="${list//,,/,}"; done
  list="${list#,}"
  printf '%s' "${list%,}"
}
if [ "${#disabled[@]}" -gt 0 ]; then args+=("--disable-features=$(joined "${disabled[@]}")"); fi
if [ "${#enabled[@]}" -gt 0 ]; then args+=("--enable-features=$(joined "${enabled[@]}")"); fi

exec "${SCMS_CHROMIUM:?the Chromium to start}" "${args[@]}"

#!/bin/sh
# expect_run.sh TILEC RC FLAGS COMMAND PATTERN...: `tilec run --device cpu FLAGS COMMAND` (COMMAND:
# the program's file and its arguments) must exit with RC, and its output (stdout and stderr
# together) must match every extended regular expression PATTERN.
tilec=$1 want_rc=$2 flags=$3 command=$4
shift 4
# shellcheck disable=SC2086  # FLAGS and COMMAND are word lists
out=$("$tilec" run --device cpu $flags $command 2>&1)
rc=$?
if [ "$rc" -ne "$want_rc" ]; then
  printf 'exit code %s, expected %s; output:\n%s\n' "$rc" "$want_rc" "$out"
  exit 1
fi
for pattern in "$@"; do
  if ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
    printf 'output does not match /%s/:\n%s\n' "$pattern" "$out"
    exit 1
  fi
done

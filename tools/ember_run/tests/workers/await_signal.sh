#!/bin/sh
# Waits for a signal, records which one arrived, then exits. With
# IGNORE_TERM=1 it (and its sleep) ignore SIGTERM, so only SIGKILL stops it.
out=$WORKER_OUT
child=
if [ "$IGNORE_TERM" = 1 ]; then
  trap '' TERM
else
  trap 'echo TERM > "$out/signal.$RANK"; kill $child 2>/dev/null; exit 0' TERM
fi
trap 'echo INT > "$out/signal.$RANK"; kill $child 2>/dev/null; exit 0' INT
sleep 60 >/dev/null 2>&1 &  # not holding the launcher's pipes
child=$!
echo $$ > "$out/pid.$RANK"
echo $child > "$out/child.$RANK"
touch "$out/ready.$RANK"
while kill -0 $child 2>/dev/null; do wait $child; done

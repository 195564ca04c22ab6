#!/bin/sh
# A training loop of 6 steps that checkpoints after each step into
# $WORKER_OUT/ckpt.$RANK and resumes from it. On the first attempt rank 1
# crashes after step 3; the restarted group continues from its checkpoints.
ckpt="$WORKER_OUT/ckpt.$RANK"
step=0
if [ -f "$ckpt" ]; then
  step=$(cat "$ckpt")
  echo "resumed from step $step (restart $TORCHELASTIC_RESTART_COUNT)"
fi
while [ "$step" -lt 6 ]; do
  step=$((step + 1))
  echo "$step" > "$ckpt.tmp" && mv "$ckpt.tmp" "$ckpt"
  if [ "$RANK" = 1 ] && [ "$step" = 3 ] && [ "$TORCHELASTIC_RESTART_COUNT" = 0 ]; then
    echo "crashing after step $step"
    exit 1
  fi
  sleep 0.05
done
echo "done at step $step"

#!/bin/sh
# 300 numbered lines as fast as the shell can write them.
i=0
while [ $i -lt 300 ]; do
  echo "line $RANK $i"
  i=$((i + 1))
done

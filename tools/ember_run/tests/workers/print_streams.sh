#!/bin/sh
# Two stdout lines, one stderr line, then an unterminated stdout line.
echo "out one $RANK"
echo "err one $RANK" >&2
echo "out two $RANK"
printf 'tail %s' "$RANK"

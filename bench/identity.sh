#!/bin/bash
# Records and reports for the identity check of a round (docs/runtime.md, "Speed"): run it on the
# tree before (git archive) and on yours, then `diff -rq OUT1 OUT2`. Usage: bench/identity.sh TREE OUT (both absolute paths)
# (PYTHON: the interpreter, with tgpl's dependencies; TREE's tgpl is imported, whatever is installed).
TREE=$1; OUT=$2; mkdir -p $OUT; rm -f $OUT/*
PY=${PYTHON:-python3}
cd $TREE
run() { PYTHONPATH=$TREE $PY -m tgpl "$@"; }
GAMES="examples/cards.tgpl examples/chess/chess.tgpl examples/citadels/citadels.tgpl examples/connect4.tgpl examples/draughts.tgpl examples/fiveinarow.tgpl examples/graph.tgpl examples/hex.tgpl examples/treasure.tgpl examples/tris.tgpl tests/data/dice.tgpl tests/data/eights.tgpl tests/data/lead.tgpl tests/data/race.tgpl tests/data/tris_thesis.tgpl tests/data/tris_thesis_joined.tgpl"
for g in $GAMES; do
  n=$(basename $g .tgpl)
  for s in 1 2 3; do
    run play $g --players random,random --seed $s --record $OUT/$n-r$s.json --quiet --max-moves 400 > $OUT/$n-r$s.out 2>&1; echo "rc=$?" >> $OUT/$n-r$s.out
  done
  case $n in chess|draughts|fiveinarow) ;; *)
    run play $g --players mcts,random --seed 5 --record $OUT/$n-m5.json --quiet --max-moves 400 > $OUT/$n-m5.out 2>&1; echo "rc=$?" >> $OUT/$n-m5.out;;
  esac
done
for s in 1 2 3 4; do
  run play examples/citadels/citadels.tgpl --players random,random,random,random --seed $s --record $OUT/citadels4-r$s.json --quiet > $OUT/citadels4-r$s.out 2>&1; echo "rc=$?" >> $OUT/citadels4-r$s.out
done
for g in examples/tris.tgpl tests/data/eights.tgpl tests/data/dice.tgpl tests/data/tris_thesis.tgpl tests/data/defect_loop.tgpl tests/data/defect_stuck.tgpl tests/data/defect_no_winner.tgpl tests/data/defect_unwinnable.tgpl; do
  n=$(basename $g .tgpl)
  run verify $g --json > $OUT/verify-$n.json 2>&1; echo "rc=$?" >> $OUT/verify-$n.json
done
ls $OUT | wc -l

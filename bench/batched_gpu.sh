#!/usr/bin/env bash
# The batched engine's GPU figures (issue 39), on a machine with an NVIDIA GPU and JAX with its CUDA plugin.
#   bash bench/batched_gpu.sh [OUTDIR]
# Tris and Connect Four lowered from examples/, the JAX backend in each layout at 65,536 and 1,048,576
# columns (bench/batched_gpu_probe.py: compile time, then playouts/s), each under a timeout so that one slow
# compile leaves time for the rest; then pgx on the same device with 32,768 games at once (pgx installed).
set -o pipefail
out=${1:-/tmp/batched_gpu}
mkdir -p "$out"
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
log="$out/gpu.txt"
nvidia-smi -L 2>&1 | tee "$log"
python3 -c "import jax; print('jax', jax.__version__, jax.devices())" 2>&1 | tee -a "$log"
probe() { local t=$1; shift; timeout "$t" python3 bench/batched_gpu_probe.py "$@" 2>&1 | tee -a "$log"; echo "  (exit $?)" | tee -a "$log"; }
probe 90 tris bool 65536,1048576
if ! grep -q "playouts/s" "$log"; then  # the first probe measured nothing
    echo "tris bool did not finish: again with LLVM's expensive passes off" | tee -a "$log"
    XLA_FLAGS=--xla_llvm_disable_expensive_passes=true probe 60 tris bool 65536
fi
probe 60 tris packed 65536,1048576
probe 70 connect4 bool 65536,1048576
probe 50 connect4 packed 65536,1048576
for game in tic_tac_toe connect_four; do
    timeout 45 python3 -c "import sys, json; sys.path.insert(0, 'bench'); import batched as b;
print('pgx', '$game', json.dumps(b.pgx_rate('python3', '$game', 32768, 3.0)))" 2>&1 | tail -1 | tee -a "$log"
done

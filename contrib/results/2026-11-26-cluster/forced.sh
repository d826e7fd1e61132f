cd /work/main
export OMPI_MCA_mca_base_component_path=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:$HOME/.openmpi/components
for pl in rsag-h1:2,rsag-h2:2 rsag-h1:3,rsag-h2:2,rsag-h3:3; do
  np=$(echo $pl | tr ',' '\n' | awk -F: '{s+=$2} END{print s}')
  for coll in allreduce reduce reduce_scatter_block; do
    echo "== $pl $coll"
    mpirun --allow-run-as-root $(contrib/rsag-cluster.sh mpirun-args) --oversubscribe --host $pl -np $np contrib/rsag_bench --coll $coll --sizes 8,1K,16K,64K,256K,1M,4M,16M --iters 10 --rsag-algorithms forced 2>/dev/null | grep -v "^#"
  done
done

# Each node's answer is remembered for the later steps of the job while its map is unchanged: in
# one batch job, a doctored answer for node1 is what step 2 reports (so the file is read, not the
# check rerun), while node2, whose map changed between the steps, is checked again and now warns.
# The job's epilog removes the answers.
source "$(dirname "$0")/common.sh"
tf2016_client
node_maps "5.0.5 5.1.10" "5.0.5 5.1.10"
fake_map 5.0.5 7.6.5 >"$t/maps/node2-lacks.toml"
slurm_up "map=$t/maps/%n.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64
cache=/tmp/cudnn-compat-spank.$(id -u)
cat >"$t/job.sh" <<JOB
#!/bin/bash
srun -N2 -l "$t/tf2016"
for f in $cache/\$SLURM_JOB_ID.*; do
  grep -q ' node=node1 ' "\$f" && sed -i '2s/.*/1/; 3s/.*/DOCTORED/' "\$f"
done
cp "$t/maps/node2-lacks.toml" "$t/maps/node2.toml"
srun -N2 -l "$t/tf2016"
JOB

expect_rc 1 sbatch -N2 --cudnn=5.1 --wait -o "$t/job.out" "$t/job.sh"  # node2 fails step 2
job=$(grep -o '[0-9]*' <<<"$out" | head -n 1)
out=$(<"$t/job.out")
count "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5" 3  # step 1 twice, step 2 on node1
has "0: cudnn-compat: node1 cannot serve --cudnn=5.1: DOCTORED"
has "1: cudnn-compat: node2 cannot serve --cudnn=5.1: no installed cuDNN fits"
for ((i = 0; i < 50; ++i)); do compgen -G "$cache/$job.*" >/dev/null || break; sleep 0.2; done
! compgen -G "$cache/$job.*" >/dev/null || fail "the answers of job $job outlived it: $(ls "$cache")"

# A mistyped plugstack.conf argument (shim=yes for shim=on) is the admins' to mend: it costs one
# line in the Slurm log of each node, and users of srun, sbatch and salloc see nothing of it (an
# outside tester's finding: every srun, and every --help, printed it on the user's terminal).
source "$(dirname "$0")/common.sh"
slurm_up shim=yes
expect_rc 0 srun -N2 -l hostname
lacks "cudnn-compat"
expect_rc 0 srun --help
lacks "plugstack.conf argument"
sleep 1  # slurmstepd's log lines reach the file after the step ends
grep -q "cudnn-compat: plugstack.conf argument 'shim=yes' ignored" "$t"/slurm/slurmd-*.log ||
  fail "the mistake is not in the nodes' logs: $(cat "$t"/slurm/slurmd-*.log | tail -20)"

# A one-node Slurm cluster in a folder, for tests (source it):
#
#   rung_slurm_start DIR   munged, slurmctld and slurmd with everything under DIR
#                          (their own munge key and socket, ports, state, logs);
#                          exports SLURM_CONF; returns 1 when they cannot start
#   rung_slurm_stop        stops the three daemons it started (by their pids)
#
# Debian's slurm-wlm (22.05) and munge. The node is this machine, named by
# `hostname -s`, with its CPUs, in partition "debug" (the default), as root.
RUNG_SLURM_PIDS=()

rung_slurm_start() {
	local d=$1 host cpus port
	command -v munged >/dev/null && command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
		command -v srun >/dev/null || return 1
	host=$(hostname -s)
	cpus=$(nproc)
	port=$((30000 + RANDOM % 20000))
	mkdir -p "$d/munge" "$d/state" "$d/spool" || return 1
	chmod 700 "$d/munge"
	dd if=/dev/urandom of="$d/munge/key" bs=128 count=1 status=none && chmod 600 "$d/munge/key" || return 1
	munged --force --socket="$d/munge/sock" --key-file="$d/munge/key" --pid-file="$d/munge/pid" \
		--log-file="$d/munge/log" --seed-file="$d/munge/seed" || return 1
	RUNG_SLURM_PIDS+=("$(cat "$d/munge/pid")")
	cat >"$d/slurm.conf" <<EOF
ClusterName=rungtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
LaunchParameters=use_interactive_step
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
EOF
	export SLURM_CONF=$d/slurm.conf
	slurmctld -f "$SLURM_CONF" -i || return 1
	for _ in $(seq 50); do [ -s "$d/slurmctld.pid" ] && break; sleep 0.1; done
	[ -s "$d/slurmctld.pid" ] && RUNG_SLURM_PIDS+=("$(cat "$d/slurmctld.pid")")
	slurmd -f "$SLURM_CONF" || return 1
	for _ in $(seq 50); do [ -s "$d/slurmd.pid" ] && break; sleep 0.1; done
	[ -s "$d/slurmd.pid" ] && RUNG_SLURM_PIDS+=("$(cat "$d/slurmd.pid")")
	for _ in $(seq 100); do
		timeout 10 srun --quiet --ntasks=1 true 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

rung_slurm_stop() {
	local p
	if [ -n "${SLURM_CONF:-}" ] && [ ${#RUNG_SLURM_PIDS[@]} -gt 0 ]; then
		# the steps first (their slurmstepd would outlive slurmd)
		scancel --user="$(id -un)" 2>/dev/null
		for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.1; done
	fi
	for p in "${RUNG_SLURM_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${RUNG_SLURM_PIDS[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$p" 2>/dev/null
	done
	RUNG_SLURM_PIDS=()
}

#!/usr/bin/env bash
# Bring up (start) or tear down (stop) a single-node Slurm on localhost in a private directory,
# without systemd: munged + slurmctld + slurmd as background daemons. Used by the CI self-test.
# usage: scripts/slurm-local.sh start DIR | stop DIR
# After start, `export SLURM_CONF=DIR/slurm.conf` makes sbatch/squeue/sinfo talk to it.
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?state directory}
fail() { echo "slurm-local: $*" >&2; exit 1; }

if [ "$cmd" = stop ]; then
  for p in slurmd slurmctld munged; do
    [ -f "$dir/$p.pid" ] && kill "$(cat "$dir/$p.pid")" 2>/dev/null || true
  done
  sleep 1
  for p in slurmd slurmctld munged; do
    [ -f "$dir/$p.pid" ] && kill -9 "$(cat "$dir/$p.pid")" 2>/dev/null || true
  done
  exit 0
fi
[ "$cmd" = start ] || fail "unknown command $cmd"
[ "$(id -u)" -eq 0 ] || fail "needs root (slurmd must run as root to launch jobs)"
for b in munged slurmctld slurmd sbatch sinfo; do
  command -v "$b" >/dev/null || fail "$b not installed (Debian packages slurm-wlm and munge)"
done
mkdir -p "$dir"/{state,spool,log}
dir=$(cd "$dir" && pwd)
host=$(hostname -s)
# Slurm's daemons and clients look the node's name up; unresolved, they wait out their timeouts
# (a chroot without /etc/hosts) instead of failing.
getent hosts "$host" >/dev/null || fail "host name '$host' does not resolve (no /etc/hosts or DNS entry); Slurm needs it"
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2/1024*0.8)}' /proc/meminfo)

# munge: private key and socket so nothing system-wide is touched.
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge.key"
mkdir -p "$dir/munge"
chmod 700 "$dir/munge"
munged --force --key-file="$dir/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed" \
  || fail "munged did not start (see $dir/log/munged.log)"

cat > "$dir/slurm.conf" <<CONF
ClusterName=warpsim-selftest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
InactiveLimit=0
KillWait=5
MinJobAge=30
SlurmdTimeout=60
Waittime=0
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=selftest Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
rm -f "$dir/cgroup.conf"
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$dir/slurm.conf" -i || fail "slurmctld did not start (see $dir/log/slurmctld.log)"
slurmd -f "$dir/slurm.conf" || fail "slurmd did not start (see $dir/log/slurmd.log)"
for i in $(seq 1 60); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
    echo "slurm-local: node $host up ($cpus CPUs), SLURM_CONF=$dir/slurm.conf"
    exit 0
  fi
  sleep 1
done
echo "--- slurmctld log" >&2; tail -20 "$dir/log/slurmctld.log" >&2 || true
echo "--- slurmd log" >&2; tail -20 "$dir/log/slurmd.log" >&2 || true
fail "node did not become idle within 60 s"

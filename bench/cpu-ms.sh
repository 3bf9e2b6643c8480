# Sourced by the CPU benchmark scripts (bench/*.sh): the machine line each
# run records, and one program's steady-state time through kfuse-run.
# Needs $bin (kfuse-run's folder) and $tmp (a scratch folder).

# The machine, its load and the time, for docs/BENCHMARKS.md.
bench_machine() {
  echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores;" \
       "load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
}

# FILE WARMUP REPEAT [KFUSE-RUN OPTIONS...]: the steady-state ms a call on
# the CPU, three decimals.
kfuse_ms() {
  local file=$1 warmup=$2 repeat=$3
  shift 3
  "$bin/kfuse-run" "$file" --device=cpu --warmup="$warmup" --repeat="$repeat" "$@" \
    --format=json > "$tmp/out.json"
  /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('%.3f' % r['steady']['ms_per_call'])" "$tmp/out.json"
}

#!/usr/bin/env bash
# The pgbenchkit demo, on PostgreSQL 15.
#
#   scripts/demo.sh           build and install pgbenchkit, start the demo
#                             cluster, load a tpcb dataset, run a benchmark
#   scripts/demo.sh stop      stop the demo cluster
#   scripts/demo.sh destroy   stop it and remove .demo/ entirely
#   scripts/demo.sh status    say whether it runs, and how to connect
#
# The cluster lives in .demo/data (git-ignored), listens on localhost and on
# a unix socket in .demo/, port 5499 (PGBENCHKIT_DEMO_PORT overrides).  It
# belongs to the postgres OS user when run as root.  Running the demo again
# reuses the cluster.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VER=15
DEMO="$PGBK_REPO/.demo"
DATA="$DEMO/data"
SOCK="$DEMO"
SERVER_LOG="$DEMO/postgres.log"
PORT="${PGBENCHKIT_DEMO_PORT:-5499}"
DB=bench

[[ $PORT =~ ^[0-9]+$ ]] || die "PGBENCHKIT_DEMO_PORT must be a port number, not '$PORT'"

usage() {
	awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"
}

# psql/pgbench of 15 as the cluster's owner, through the socket in .demo/.
as_owner() { as_pg env PATH="$(pg_path "$VER")" PGHOST="$SOCK" PGPORT="$PORT" "$@"; }
demo_psql() { as_owner psql -X -v ON_ERROR_STOP=1 "$@"; }

# The port the running cluster really listens on (4th line of postmaster.pid);
# it may differ from PORT if the cluster was started with another one.
running_port() { sed -n 4p "$DATA/postmaster.pid" 2>/dev/null; }

connect_hint() {
	local who=""
	is_root && who="runuser -u postgres -- "
	log "connect:  ${who}psql -h $SOCK -p $PORT $DB"
	log "stop:     scripts/demo.sh stop      (remove everything: scripts/demo.sh destroy)"
}

# ---------------------------------------------------------------- subcommands
demo_stop() {
	if [[ -f $DATA/PG_VERSION ]] && cluster_running "$VER" "$DATA"; then
		log "stopping the demo cluster in $DATA"
		cluster_stop "$VER" "$DATA"
	else
		log "the demo cluster is not running"
	fi
}

demo_destroy() {
	if [[ -f $DATA/PG_VERSION ]] && [[ -x $(pg_bindir "$VER" 2>/dev/null)/pg_ctl ]]; then
		demo_stop
	fi
	log "removing $DEMO"
	rm -rf "$DEMO"
}

demo_status() {
	if [[ -f $DATA/PG_VERSION ]] && cluster_running "$VER" "$DATA"; then
		PORT=$(running_port)
		log "the demo cluster runs in $DATA on port $PORT"
		connect_hint
	else
		log "the demo cluster is not running (start it with scripts/demo.sh)"
	fi
}

# ---------------------------------------------------------------- steps
# Settings for benchmarking, in a file of their own that postgresql.conf
# includes: rewritten on every run, so a changed port or setting is applied
# (by a restart) without touching the rest of the configuration.
write_demo_conf() {
	cat <<EOF
# written by scripts/demo.sh on every run: edit the script, not this file
port = $PORT
listen_addresses = 'localhost'
unix_socket_directories = '$SOCK'
# pgbenchkit runs each client in a dynamic background worker: 64 clients
# and some room for the rest
max_worker_processes = 80
shared_preload_libraries = 'pg_stat_statements,pg_cron'
cron.database_name = '$DB'
shared_buffers = '256MB'
EOF
}

ensure_cluster() {
	local conf_new="$DEMO/pgbenchkit-demo.conf.new" changed=0
	mkdir -p "$DEMO"
	give_to_pg "$DEMO"

	# a unix socket path is limited to 107 bytes
	local sockpath="$SOCK/.s.PGSQL.$PORT"
	((${#sockpath} < 104)) ||
		die "the socket path $sockpath is too long for a unix socket; use a shorter checkout path"

	if [[ ! -f $DATA/PG_VERSION ]]; then
		log "creating the demo cluster in $DATA"
		# peer for the socket (the OS user is the superuser), passwords over
		# TCP (none are set: nobody logs in through localhost by default)
		as_pg "$(pg_bindir "$VER")/initdb" -D "$DATA" --auth-local=peer --auth-host=scram-sha-256 \
			-E UTF8 --locale=C.UTF-8 >"$DEMO/initdb.log" 2>&1 ||
			{ show_file "$DEMO/initdb.log"; die "initdb failed"; }
		echo "include_if_exists = 'pgbenchkit-demo.conf'" | as_pg tee -a "$DATA/postgresql.conf" >/dev/null
	fi

	write_demo_conf | as_pg tee "$conf_new" >/dev/null
	if ! cmp -s "$conf_new" "$DATA/pgbenchkit-demo.conf"; then
		changed=1
		as_pg cp "$conf_new" "$DATA/pgbenchkit-demo.conf"
	fi
	rm -f "$conf_new"

	if cluster_running "$VER" "$DATA"; then
		if ((changed)); then
			log "settings changed: restarting the demo cluster"
			as_pg "$(pg_bindir "$VER")/pg_ctl" -D "$DATA" -l "$SERVER_LOG" -m fast -w restart >/dev/null ||
				{ show_file "$SERVER_LOG" 50; die "the demo cluster did not restart"; }
		else
			log "the demo cluster already runs (port $(running_port))"
		fi
	else
		log "starting the demo cluster on port $PORT"
		as_pg "$(pg_bindir "$VER")/pg_ctl" -D "$DATA" -l "$SERVER_LOG" -w start >/dev/null ||
			{ show_file "$SERVER_LOG" 50; die "the demo cluster did not start (is port $PORT taken? set PGBENCHKIT_DEMO_PORT)"; }
	fi
}

ensure_database() {
	if [[ -z $(demo_psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'") ]]; then
		log "creating database $DB"
		as_owner createdb "$DB"
	fi
	# The version in development keeps its number while its install script
	# changes (upgrade scripts lead only from released versions): when the
	# script differs from the one the database got, drop the extension so
	# that the demo shows the code just built (its bench tables go too), and
	# the dataset the old one loaded, which the new one would not know as
	# its own (bench.init replaces only tables it recorded).
	local sum_file="$DEMO/extension.sha256" sum
	sum=$(cat "$PGBK_REPO"/control/install/*.sql "$PGBK_REPO"/control/sql/*/*.sql | sha256sum | cut -d' ' -f1)
	if [[ -f $sum_file && $(cat "$sum_file") != "$sum" ]]; then
		log "the extension's install script changed: recreating pgbenchkit in $DB, and its dataset"
		demo_psql -d "$DB" -q -c 'SET client_min_messages = warning' \
			-c 'DROP EXTENSION IF EXISTS pgbenchkit CASCADE' \
			-c 'DROP TABLE IF EXISTS public.pgbench_accounts, public.pgbench_branches,
			        public.pgbench_tellers, public.pgbench_history'
	fi
	demo_psql -d "$DB" -q -c 'SET client_min_messages = warning' \
		-c 'CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE' \
		-c 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements'
	# pg_cron's extension, in the database its cron.database_name names
	# (this one: write_demo_conf), for bench.schedule (the README's example)
	local cron_db
	cron_db=$(demo_psql -d "$DB" -tAc "SELECT current_setting('cron.database_name')") ||
		die "cannot read cron.database_name: is pg_cron in shared_preload_libraries?"
	demo_psql -d "$cron_db" -q -c 'SET client_min_messages = warning' \
		-c 'CREATE EXTENSION IF NOT EXISTS pg_cron' ||
		die "CREATE EXTENSION pg_cron failed in database $cron_db (see the error above): bench.schedule needs it"
	echo "$sum" >"$sum_file"
}

load_dataset() {
	log "loading the tpcb dataset, scale 10: bench.init"
	demo_psql -d "$DB" -x -c "SELECT * FROM bench.init('tpcb', scale => 10, force => true);" ||
		die "bench.init failed (see the error above): the demo stops here." \
			"If bench.init does not exist, the extension built from this tree does not have it yet."
}

# The benchmark: pgbench's TPC-B with 8 clients for 20 s, run by background
# workers inside the server; progress lines every 5 s, then the run's row of
# bench.runs.
run_benchmark() {
	log "benchmark: SELECT * FROM bench.run('tpcb', clients => 8, duration => '20 s')"
	demo_psql -d "$DB" -x -c "SELECT id, workload, clients, duration, protocol, status,
	       transactions, round(tps::numeric, 1) AS tps,
	       round(latency_avg_ms::numeric, 3) AS latency_avg_ms,
	       round(latency_p50_ms::numeric, 3) AS latency_p50_ms,
	       round(latency_p99_ms::numeric, 3) AS latency_p99_ms,
	       round(latency_max_ms::numeric, 3) AS latency_max_ms, failures
	  FROM bench.run('tpcb', clients => 8, duration => '20 s');" ||
		die "the benchmark failed (see the error above)"
	log "the run's report: SELECT bench.report(id), as pgbench prints it, then what the server did"
	demo_psql -d "$DB" -At -c "SELECT bench.report(max(id)) FROM bench.runs WHERE status = 'done'" ||
		die "bench.report failed (see the error above)"
	log "every run is kept: SELECT * FROM bench.runs; its progress in bench.progress," \
		"the server's counters in bench.run_counters and bench.interval_counters"
}

run_sweep() {
	log "---- a client sweep: 1 and 4 clients, twice each, 5 s per run, as one suite"
	demo_psql -d "$DB" -c "SELECT clients, runs_done, round(tps_median) AS tps_median,
	       round(tps_min) AS tps_min, round(tps_max) AS tps_max,
	       round(latency_p99_ms_median::numeric, 3) AS p99_ms
	  FROM bench.sweep('tpcb', clients => '{1,4}', repeat => 2, duration => '5 s', progress => '0')" ||
		die "the sweep failed (see the error above)"
	log "charts, drawn in SQL: $DEMO/run.svg (the 20 s run) and $DEMO/suite.svg (the sweep)"
	demo_psql -d "$DB" -XAt -c "SELECT bench.chart_run(max(id)) FROM bench.runs WHERE suite_id IS NULL AND status = 'done'" \
		>"$DEMO/run.svg" || die "bench.chart_run failed"
	demo_psql -d "$DB" -XAt -c "SELECT bench.chart_suite(max(id)) FROM bench.suites WHERE status = 'done'" \
		>"$DEMO/suite.svg" || die "bench.chart_suite failed"
}

demo_run() {
	local t0=$SECONDS t
	log "---- dependencies (PostgreSQL $VER)"
	deps_ensure core "$VER"
	ensure_pg_can_reach_repo

	t=$SECONDS
	log "---- build and install into PostgreSQL $VER"
	mkdir -p "$DEMO"
	stage_source "$DEMO/build"
	build_install "$VER" "$DEMO/build" >"$DEMO/build.log" 2>&1 ||
		{ show_file "$DEMO/build.log" 200; die "the build failed"; }
	log "built and installed ($((SECONDS - t)) s)"

	ensure_cluster
	ensure_database
	load_dataset
	run_benchmark
	run_sweep

	log "---- done in $((SECONDS - t0)) s; the demo cluster keeps running"
	connect_hint
}

case ${1:-run} in
run | start) demo_run ;;
stop) demo_stop ;;
destroy) demo_destroy ;;
status) demo_status ;;
-h | --help | help) usage ;;
*) usage >&2; die "unknown subcommand: $1" ;;
esac

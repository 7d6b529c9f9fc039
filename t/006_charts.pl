# The SVG charts as a person sees them: bench.chart_run, bench.chart_suite,
# bench.chart_schedule and bench.chart_relative are written to files, rendered to PNG by a
# headless Chromium at each chart's own size, and the pictures checked:
# the size the SVG says, not blank, not a single flat colour, the series
# and the red marks there; and each SVG parses as XML.
#
# The data: a run with a warm-up, a stall (a lock held by the test) and a
# checkpoint (CHECKPOINT from the test); a suite made the way bench.sweep
# records one (rows in bench.suites, runs filed under it); a schedule's
# history of suites on past days, their tps set so that the last one
# regresses.
#
# Needs the server's bin directory first in PATH, pgbenchkit installed into
# that server, Chromium (Debian package chromium) and Python 3 with PIL
# (python3-pil); without the last two the test is skipped.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use File::Spec;
use File::Temp qw(tempdir);
use Time::HiRes qw(usleep);

# ------------------------------------------------------------------ tools

sub in_path
{
	my ($name) = @_;
	for my $dir (File::Spec->path)
	{
		my $f = File::Spec->catfile($dir, $name);
		return $f if -f $f && -x $f;
	}
	return undef;
}

my ($chromium) = grep { defined } map { in_path($_) } qw(chromium chromium-browser);
plan skip_all => 'no Chromium to render SVG with (Debian package chromium)' unless $chromium;

# Debian's python3 first: python3-pil belongs to it, another python3 first
# in PATH may not have PIL
my ($python) = grep
{
	my ($out, $err) = ('', '');
	defined $_ && IPC::Run::run([ $_, '-c', 'import PIL.Image, xml.etree.ElementTree' ],
		'<', \undef, '>', \$out, '2>', \$err)
} ((-x '/usr/bin/python3' ? '/usr/bin/python3' : undef), in_path('python3'));
plan skip_all => 'no Python 3 with PIL to read PNG with (Debian package python3-pil)' unless $python;

# ------------------------------------------------------------------ server

my $node = PostgreSQL::Test::Cluster->new('charts');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
autovacuum = off
});
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE bk');
$node->safe_psql('bk', 'CREATE EXTENSION pgbenchkit CASCADE');
$node->safe_psql('bk', q{SELECT dataset_id FROM bench.init('tpcb', scale => 1)});

sub sql { return $node->safe_psql('bk', $_[0]); }

my $dir = "$PostgreSQL::Test::Utils::tmp_check/charts";
mkdir $dir or die "mkdir $dir: $!" unless -d $dir;

# ------------------------------------------------------------------ data

# a run of 5 s: 1 s of warm-up, a lock that stops every client for over a
# second (a stall), then a checkpoint
my $run = sql(q{SELECT bench.start('tpcb', clients => 2, duration => '5 s', warmup => '1 s',
                                   progress => '500 ms', sample_interval => '500 ms')});
usleep(1_500_000);
sql(q{BEGIN; LOCK TABLE pgbench_branches; SELECT pg_sleep(1.2); COMMIT});
sql('CHECKPOINT');
is(sql("SELECT status FROM bench.wait($run)"), 'done', 'the run is done');
my $med = sql(qq{SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY tps)
                   FROM bench.progress WHERE run_id = $run AND NOT in_warmup});
cmp_ok(sql("SELECT count(*) FROM bench.progress WHERE run_id = $run AND tps < $med * 0.1"), '>=', 1,
	'the lock made a stall');

# a suite: client counts 1, 2 and 4, two repeats each
my $search_path = sql('SHOW search_path');
my $suite = sql(qq{INSERT INTO bench.suites (workload, clients, repeat, run_order, args, search_path,
                                             runs_planned, status, created_by)
                   VALUES ('tpcb', '{1,2,4}', 2, 'interleaved', '{}', '$search_path', 6, 'done', current_user)
                   RETURNING id});
for my $repeat (1 .. 2)
{
	for my $clients (1, 2, 4)
	{
		my $id = sql(qq{SELECT id FROM bench.run('tpcb', clients => $clients, transactions => 200,
		                                         progress => '1 s')});
		sql("UPDATE bench.runs SET suite_id = $suite WHERE id = $id");
	}
}

# a schedule's last four days, at 1 and 2 clients; the 2 clients of the
# last day ran at 70% of the speed before
my @nightly;
sql(qq{INSERT INTO bench.schedules (name, cron, workload, clients, repeat, run_order, args, search_path,
                                    baseline_runs, threshold, cron_database)
       VALUES ('nightly', '0 3 * * *', 'tpcb', '{1,2}', 1, 'interleaved', '{}', '$search_path', 3, 0.05, 'bk')});
for my $day (reverse 0 .. 3)
{
	my $s = sql(qq{INSERT INTO bench.suites (workload, clients, repeat, run_order, args, search_path,
	                                         runs_planned, status, created_by, schedule, started_at)
	               VALUES ('tpcb', '{1,2}', 1, 'interleaved', '{}', '$search_path', 2, 'done', current_user,
	                       'nightly', now() - interval '$day days' - interval '1 hour')
	               RETURNING id});
	push @nightly, $s;
	for my $clients (1, 2)
	{
		my $id = sql(qq{SELECT id FROM bench.run('tpcb', clients => $clients, transactions => 100,
		                                         progress => '1 s')});
		my $tps = ($clients == 1 ? 1000 : 1800) * (1 + 0.01 * $day) * ($clients == 2 && $day == 0 ? 0.7 : 1);
		sql("UPDATE bench.runs SET suite_id = $s, tps = $tps WHERE id = $id");
	}
}
is(sql(q{SELECT string_agg(clients || ':' || regression, ',' ORDER BY started_at, clients)
           FROM bench.schedule_results WHERE schedule = 'nightly'}),
	'1:false,2:false,1:false,2:false,1:false,2:false,1:false,2:true',
	'the schedule has one regression, the last day at 2 clients');

# a suite with nothing finished
my $empty = sql(qq{INSERT INTO bench.suites (workload, clients, repeat, run_order, args, search_path,
                                             runs_planned, status, created_by)
                   VALUES ('tpcb', '{8}', 1, 'blocks', '{}', '$search_path', 1, 'canceled', current_user)
                   RETURNING id});

# ------------------------------------------------------------------ charts

# Write a chart's SVG to NAME.svg, render it to NAME.png at the SVG's own
# size, and read both back: returns a hash of what the picture shows.
sub render
{
	my ($name, $query) = @_;
	my $svg = sql($query);
	my $svg_file = "$dir/$name.svg";
	my $png_file = "$dir/$name.png";
	open my $fh, '>', $svg_file or die "$svg_file: $!";
	print $fh $svg;
	close $fh;
	my ($w, $h) = $svg =~ /^<svg [^>]*width="(\d+)" height="(\d+)"/;
	die "no size in $name.svg" unless $w && $h;

	# a profile of its own each time; the flags keep Chromium off the
	# network (no updates, sync or field trials)
	my $profile = tempdir("chromium-XXXX", DIR => $dir, CLEANUP => 1);
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(
		[ $chromium, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		  '--disable-background-networking', '--disable-component-update', '--disable-sync',
		  "--user-data-dir=$profile", '--hide-scrollbars', "--window-size=$w,$h",
		  "--screenshot=$png_file", "file://$svg_file" ],
		'<', \undef, '>', \$out, '2>', \$err, IPC::Run::timeout(120));
	note("chromium for $name.svg failed: $err") unless $ok && -s $png_file;

	# the picture: its size, the share of pixels that are not white, the
	# number of colours, pixels of the series' blue and of the marks' red
	# (within a small distance: edges are blended), and whether the SVG
	# parses as XML with an svg root
	my $check = <<'PY';
import sys, xml.etree.ElementTree as ET
from PIL import Image
svg, png = sys.argv[1], sys.argv[2]
try:
    root = ET.parse(svg).getroot()
    xml_ok = root.tag == '{http://www.w3.org/2000/svg}svg'
except ET.ParseError as e:
    print('xml_error=%s' % e)
    xml_ok = False
im = Image.open(png).convert('RGB')
px = list(im.getdata())
near = lambda c: sum(1 for p in px if all(abs(a - b) <= 24 for a, b in zip(p, c)))
print('xml=%d' % xml_ok)
print('size=%dx%d' % im.size)
print('nonwhite=%.4f' % (sum(1 for p in px if p != (255, 255, 255)) / len(px)))
print('colours=%d' % len(im.getcolors(1 << 24)))
print('blue=%d' % near((31, 119, 180)))
print('red=%d' % near((214, 39, 40)))
PY
	my %r = (svg => $svg, svg_size => "${w}x$h");
	($out, $err) = ('', '');
	if (-s $png_file
		&& IPC::Run::run([ $python, '-c', $check, $svg_file, $png_file ], '<', \undef, '>', \$out, '2>', \$err))
	{
		%r = (%r, map { /^(\w+)=(.*)$/ ? ($1, $2) : () } split /\n/, $out);
	}
	else
	{
		note("reading $name.png failed: $err");
	}
	return %r;
}

# every picture: parses, has the size asked for, is neither blank nor
# filled, has more than a colour or two
sub picture_ok
{
	my ($name, %r) = @_;
	is($r{xml}, 1, "$name: the SVG parses as XML with an svg root");
	is($r{size}, $r{svg_size}, "$name: the PNG is as large as the SVG says ($r{svg_size})");
	ok(defined $r{nonwhite} && $r{nonwhite} > 0.01 && $r{nonwhite} < 0.6,
		"$name: drawn on, not filled (" . ($r{nonwhite} // 'no picture') . ' of the pixels not white)');
	cmp_ok($r{colours} // 0, '>', 2, "$name: more than two colours");
}

my $t0 = time;

my %run = render('run', "SELECT bench.chart_run($run)");
picture_ok('run', %run);
like($run{svg}, qr/<line class="checkpoint"/, 'run: the checkpoint is marked');
like($run{svg}, qr/<rect class="warmup"/, 'run: the warm-up is shaded');
like($run{svg}, qr/<circle class="stall-point"/, 'run: the stall is marked');
cmp_ok($run{blue} // 0, '>', 200, 'run: the tps line is there in blue');
cmp_ok($run{red} // 0, '>', 10, 'run: the stall is there in red');

my %suite = render('suite', "SELECT bench.chart_suite($suite, 800, 500)");
picture_ok('suite', %suite);
is(scalar(() = $suite{svg} =~ /<circle class="tps-median"/g), 3, 'suite: a tps point per client count');
cmp_ok($suite{blue} // 0, '>', 100, 'suite: the tps line is there in blue');

my %schedule = render('schedule', q{SELECT bench.chart_schedule('nightly', 1000, 600)});
picture_ok('schedule', %schedule);
is(scalar(() = $schedule{svg} =~ /<circle class="regression"/g), 1, 'schedule: one point is a regression');
cmp_ok($schedule{red} // 0, '>', 20, 'schedule: the regression is there in red');

# the schedule's suites against its first: day d at (1 + 0.01 d) / 1.03 of
# it, the last day's 2 clients at 0.7 / 1.03 = 0.68
my $others = join(', ', @nightly[1 .. 3]);
my %relative = render('relative', "SELECT bench.chart_relative($nightly[0], ARRAY[$others])");
picture_ok('relative', %relative);
is(scalar(() = $relative{svg} =~ /<rect class="bar"/g), 8, 'relative: a bar per suite and client count');
like($relative{svg}, qr/<title>[^<]*, 2 clients: 0\.68<\/title>/, 'relative: the last day at 2 clients is 0.68');
like($relative{svg}, qr/<line class="base"/, 'relative: the base level is drawn');
cmp_ok($relative{blue} // 0, '>', 200, 'relative: the second suite\'s bars are there in blue');

my %empty = render('empty', "SELECT bench.chart_suite($empty, 640, 400)");
picture_ok('empty suite', %empty);
like($empty{svg}, qr/>no data<\/text>/, 'empty suite: says there is no data');

note(sprintf('rendering took %d s; the pictures are in %s', time - $t0, $dir));

$node->stop;
done_testing();

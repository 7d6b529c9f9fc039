# pgbenchkit: PGXS build
#
#   make                 build against the pg_config on PATH (or PG_CONFIG=...)
#   make install         install into that PostgreSQL
#   make installcheck    pg_regress against a running or --temp-instance server
#   make fuzz            fuzz the script parser and the expression evaluator
#                        for FUZZ_SECONDS (600) seconds (docs/reliability.md)
#   make fuzz-regress    replay the saved fuzzing inputs (also in scripts/test.sh)
#   make check-tree      the source tree's shape (scripts/check_tree.pl)
#   make sanitize        the tests in a PostgreSQL 15 built with
#                        AddressSanitizer and UndefinedBehaviorSanitizer
#
# The whole suite, on every supported server version, is scripts/test.sh.

EXTVERSION   = 0.3.0
# the last released version: its install script is frozen in control/, and
# the upgrade from it to EXTVERSION is built (control/upgrade/)
UPGRADE_FROM = 0.2.0
MODULE_big   = pgbenchkit
# src/ is one folder per part of the architecture (docs/design.md, and each
# folder's README.md: what it owns, what it may include); a source includes
# another part's header by its folder, "runner/runner.h"
OBJS         = $(patsubst %.c,%.o,$(sort $(wildcard src/*/*.c)))
PG_CPPFLAGS  = -I$(srcdir)/src -DBK_VERSION='"$(EXTVERSION)"'
# targets (src/target/target.c) use libpq, as contrib/postgres_fdw does: with PGXS,
# libpq_srcdir is the include directory and $(libpq) links -lpq from libdir
PG_CPPFLAGS += -I$(libpq_srcdir)
SHLIB_LINK_INTERNAL += $(libpq)

# The control file and install scripts live in control/.  The install
# script of this version is built by scripts/build-sql.pl: a header, then
# the pieces of control/install/ in the order of their names, one concern
# each (datasets, workloads, runs, observability and report, suites and
# schedules, charts, compare and export, ...), where each line
# `#include "functions/NAME.sql"` or `#include "views/NAME.sql"` is that
# file of control/sql/: every function's and view's text lives there, once
# (docs/design.md).  The upgrade script from UPGRADE_FROM is built by it
# too: control/upgrade/$(UPGRADE_FROM)--$(EXTVERSION)/before.sql, every
# file of control/sql/ in install order, then after.sql.  The frozen
# install scripts of released versions and the upgrade scripts between
# them (control/pgbenchkit--*.sql) are installed as they are; the texts of
# control/sql/ and control/upgrade/ are not installed themselves.
MODULEDIR    = extension
INSTALL_SQL  = control/build/pgbenchkit--$(EXTVERSION).sql
UPGRADE_DIR  = $(srcdir)/control/upgrade/$(UPGRADE_FROM)--$(EXTVERSION)
UPGRADE_SQL  = control/build/pgbenchkit--$(UPGRADE_FROM)--$(EXTVERSION).sql
SQL_SOURCES  = $(wildcard $(srcdir)/control/install/*.sql $(srcdir)/control/sql/*/*.sql)
BUILD_SQL    = $(srcdir)/scripts/build-sql.pl
DATA         = control/pgbenchkit.control $(wildcard control/pgbenchkit--*.sql)
DATA_built   = $(INSTALL_SQL) $(UPGRADE_SQL)
EXTRA_CLEAN  = control/build

REGRESS      = init init_options init_errors run run_state run_errors observe observe_errors suite schedule charts compare relative compare_many export workloads scripts sysbench_scripts library_calls targets secrets init_target_errors roles hostile search_path ident_vars script_arrays init_sysbench init_tpcc tpcc_check ibench groups ibench_suite capacity price script_results tpcc_procedures tpcc_statements node distributed
# `make installcheck` starts a throwaway instance of its own (tmp_check/),
# with the settings the tests need (test/regress-NN.conf: worker slots,
# pg_cron where the server has it), then runs the Perl TAP tests of t/ as
# `make prove_installcheck` does, on servers built with TAP tests (Debian's
# are; the PyPI build of 18 is not: scripts/test.sh runs t/ there itself).
# Both run as a user that may run initdb (not root).
TEST_CONF_VERSION = $(if $(wildcard $(srcdir)/test/regress-$(MAJORVERSION).conf),$(MAJORVERSION),18)
REGRESS_OPTS = --inputdir=$(srcdir) --load-extension=pg_prewarm --no-locale --encoding=UTF8 \
               --temp-instance=$(CURDIR)/tmp_check --temp-config=$(srcdir)/test/regress-$(TEST_CONF_VERSION).conf
TAP_TESTS    = 1
# what t/ reads: the settings of every node, the server's major version,
# the source folder
export TEMP_CONFIG         = $(abspath $(srcdir)/test/tap-$(TEST_CONF_VERSION).conf)
export PGBENCHKIT_PG_MAJOR = $(MAJORVERSION)
export PGBENCHKIT_SRC      = $(abspath $(srcdir))

# warnings are errors in development builds (scripts/test.sh sets WERROR=1)
ifdef WERROR
PG_CFLAGS   += -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers -Wno-sign-compare
endif
# clang does not know one of gcc's optimisation flags some builds of PostgreSQL carry
ifneq (,$(findstring clang,$(CC)))
PG_CFLAGS   += -Wno-ignored-optimization-argument -Wno-unknown-warning-option -Wno-ignored-attributes
endif

PG_CONFIG   ?= pg_config
PGXS        := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

$(INSTALL_SQL): $(SQL_SOURCES) $(BUILD_SQL) Makefile
	@mkdir -p $(dir $@)
	perl $(BUILD_SQL) install $(EXTVERSION) $(srcdir)/control > $@.tmp
	mv $@.tmp $@

$(UPGRADE_SQL): $(SQL_SOURCES) $(UPGRADE_DIR)/before.sql $(UPGRADE_DIR)/after.sql $(BUILD_SQL) Makefile
	@mkdir -p $(dir $@)
	perl $(BUILD_SQL) upgrade $(UPGRADE_FROM) $(EXTVERSION) $(srcdir)/control > $@.tmp
	mv $@.tmp $@

# The shape of src/ (docs/design.md): every part in its folder, no C file
# over 1,500 lines, dependencies only downwards, no circle between units,
# each unit exporting through its own header (test/tree.sh in the suite)
.PHONY: check-tree
check-tree: $(OBJS)
	perl $(srcdir)/scripts/check_tree.pl $(srcdir)/src

# PGXS does not track header dependencies: every object depends on every
# header of src/ (a changed shared-memory struct must rebuild all its users)
$(OBJS): $(wildcard src/*/*.h)

# Packages people install from (see docs/install.md):
#   make deb    the Debian package postgresql-NN-pgbenchkit, built with
#               pg_buildext from the packaging files in scripts/debian/,
#               into .work/deb/
#   make dist   the PGXN release zip, pgbenchkit-$(EXTVERSION).zip, made
#               with git archive
.PHONY: deb dist
deb:
	$(srcdir)/scripts/deb.sh

dist:
	$(srcdir)/scripts/dist.sh $(EXTVERSION)

# Reliability (docs/reliability.md): fuzzing with a time budget, not in
# every CI run; the replay of its saved inputs, which is in every run
# (test/fuzz.sh, in the setup suite of scripts/test.sh); the tests in a
# server built with the sanitizers.
FUZZ_SECONDS ?= 600
.PHONY: fuzz fuzz-regress sanitize
fuzz:
	$(srcdir)/scripts/fuzz.sh --seconds $(FUZZ_SECONDS)

fuzz-regress:
	prove --exec bash $(srcdir)/test/fuzz.sh

sanitize:
	$(srcdir)/scripts/sanitize.sh

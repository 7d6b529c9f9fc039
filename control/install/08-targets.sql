#include "functions/_target_validator.sql"

CREATE FOREIGN DATA WRAPPER bench_target VALIDATOR bench._target_validator;

COMMENT ON FOREIGN DATA WRAPPER bench_target IS
    'pgbenchkit''s targets: remote PostgreSQL servers, their connection options in the server and each role''s credentials in its user mapping';

#include "functions/_target_conninfo.sql"

#include "views/targets.sql"

#include "functions/add_target.sql"

#include "functions/drop_target.sql"

#include "functions/check_target.sql"

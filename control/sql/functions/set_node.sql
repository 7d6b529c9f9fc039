--
-- bench.set_node: this database's node in a fleet of drivers (docs/fleet.md),
-- set once: its name, and a number no other node of the fleet has, which
-- puts the ids it draws from now on (runs, suites, datasets) in a range of
-- their own, number * 2^40 to (number + 1) * 2^40 - 1.
--
CREATE OR REPLACE FUNCTION bench.set_node(name text, number integer)
RETURNS bench.node
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    n       bench.node;
    lo      bigint;
    hi      bigint;
    seq     text;
BEGIN
    IF set_node.name IS NULL OR set_node.number IS NULL THEN
        RAISE EXCEPTION 'argument "%" of bench.set_node must not be null',
                        CASE WHEN set_node.name IS NULL THEN 'name' ELSE 'number' END
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the node a name and a number no other node of the fleet has: bench.set_node(''aws-1'', 1).';
    END IF;
    IF set_node.name !~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$' THEN
        RAISE EXCEPTION 'invalid node name "%"', left(set_node.name, 100)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'A node name is 1 to 63 letters, digits, _ . or -, starting with a letter or a digit.';
    END IF;
    IF set_node.number NOT BETWEEN 1 AND 8388606 THEN
        RAISE EXCEPTION 'node number must be from 1 to 8388606, not %', set_node.number
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Number the nodes of a fleet 1, 2, 3, ...: each draws its ids from a range of its own.';
    END IF;
    -- one caller at a time: the check and the sequences below go together
    LOCK TABLE bench.node IN EXCLUSIVE MODE;
    SELECT * INTO n FROM bench.node;
    IF FOUND THEN
        IF n.name = set_node.name AND n.number = set_node.number THEN
            RETURN n;
        END IF;
        RAISE EXCEPTION 'this database is node "%" (number %) already', n.name, n.number
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'A node''s name and number are set once: its results carry them, and its ids are drawn from its number''s range.',
                  HINT = 'Use another database for another node.';
    END IF;

    -- the ids drawn from now on: in the number's range (ids drawn before
    -- stay as they are, below every range)
    lo := set_node.number::bigint << 40;
    hi := ((set_node.number::bigint + 1) << 40) - 1;
    FOREACH seq IN ARRAY ARRAY['bench.runs_id_seq', 'bench.datasets_id_seq'] LOOP
        EXECUTE format('ALTER SEQUENCE %s MINVALUE %s MAXVALUE %s START WITH %s RESTART WITH %s',
                       seq, lo, hi, lo, lo);
    END LOOP;

    INSERT INTO bench.node (name, number, system_identifier)
    VALUES (set_node.name, set_node.number,
            (SELECT c.system_identifier::text FROM pg_control_system() c))
    RETURNING * INTO n;
    RETURN n;
END
$fn$;

COMMENT ON FUNCTION bench.set_node(text, integer) IS
    'Set this database''s node in a fleet of drivers, once: its name and its number, whose range its ids are drawn from';
REVOKE ALL ON FUNCTION bench.set_node(text, integer) FROM PUBLIC;
